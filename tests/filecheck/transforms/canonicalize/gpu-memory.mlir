// RUN: xgpu-opt -p canonicalize --split-input-file %s | filecheck %s

// gpu.memcpy / gpu.memset: the memref.cast folder, and EraseTrivialCopyOp
// (a copy into a buffer that is only allocated and freed), as mlir-opt 22.

// EraseTrivialCopyOp: one dependency and a token; the token is forwarded.
// CHECK-LABEL: func.func @copy_async_one_dep(
// CHECK-SAME:      %{{[^:]*}}: memref<4xf32>, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[T]] : !gpu.async.token
func.func @copy_async_one_dep(%src: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t1 = gpu.memcpy async [%t] %d, %src : memref<4xf32>, memref<4xf32>
  return %t1 : !gpu.async.token
}

// -----

// A blocking copy into a gpu.alloc buffer that is only freed: the copy goes,
// the allocation and the deallocation stay.
// CHECK-LABEL: func.func @copy_sync_gpu_alloc(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @copy_sync_gpu_alloc(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// Async alloc, copy and dealloc chained by tokens.
// CHECK-LABEL: func.func @copy_async_chain(
// CHECK-SAME:      %{{[^:]*}}: memref<?xf32>, %[[N:[^:]*]]: index, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[D:.*]], %[[T1:.*]] = gpu.alloc async [%[[T]]] (%[[N]]) : memref<?xf32>
// CHECK-NEXT:    %[[T3:.*]] = gpu.dealloc async [%[[T1]]] %[[D]] : memref<?xf32>
// CHECK-NEXT:    func.return %[[T3]] : !gpu.async.token
func.func @copy_async_chain(%src: memref<?xf32>, %n: index, %t: !gpu.async.token) -> !gpu.async.token {
  %d, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %d, %src : memref<?xf32>, memref<?xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<?xf32>
  return %t3 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @copy_host_shared(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  host_shared () : memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @copy_host_shared(%src: memref<4xf32>) {
  %d = gpu.alloc host_shared () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// The copied buffer is read afterwards: kept.
// CHECK-LABEL: func.func @copy_dst_read(
// CHECK-SAME:      %[[SRC:[^:]*]]: memref<4xf32>
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[D]], %[[SRC]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    memref.load %[[D]]
func.func @copy_dst_read(%src: memref<4xf32>, %i: index) -> f32 {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  %v = memref.load %d[%i] : memref<4xf32>
  return %v : f32
}

// -----

// Two dependencies: kept.
// CHECK-LABEL: func.func @copy_two_deps(
// CHECK-SAME:      %[[SRC:[^:]*]]: memref<4xf32>, %[[A:[^:]*]]: !gpu.async.token, %[[B:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %[[T:.*]] = gpu.memcpy async [%[[A]], %[[B]]] %[[D]], %[[SRC]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return %[[T]] : !gpu.async.token
func.func @copy_two_deps(%src: memref<4xf32>, %a: !gpu.async.token, %b: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t = gpu.memcpy async [%a, %b] %d, %src : memref<4xf32>, memref<4xf32>
  return %t : !gpu.async.token
}

// -----

// A token without dependency: kept.
// CHECK-LABEL: func.func @copy_async_no_dep(
// CHECK-SAME:      %[[SRC:[^:]*]]: memref<4xf32>
// CHECK-NEXT:    %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    %[[T:.*]] = gpu.memcpy async %[[D]], %[[SRC]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return %[[T]] : !gpu.async.token
func.func @copy_async_no_dep(%src: memref<4xf32>) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t = gpu.memcpy async %d, %src : memref<4xf32>, memref<4xf32>
  return %t : !gpu.async.token
}

// -----

// A dependency without token: kept.
// CHECK-LABEL: func.func @copy_sync_one_dep(
// CHECK-SAME:      %[[SRC:[^:]*]]: memref<4xf32>, %[[A:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy [%[[A]]] %[[D]], %[[SRC]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return
func.func @copy_sync_one_dep(%src: memref<4xf32>, %a: !gpu.async.token) {
  %d = memref.alloc() : memref<4xf32>
  gpu.memcpy [%a] %d, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// The destination is not allocated here: kept.
// CHECK-LABEL: func.func @copy_dst_arg(
// CHECK-SAME:      %[[DST:[^:]*]]: memref<4xf32>, %[[SRC:[^:]*]]: memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[DST]], %[[SRC]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return
func.func @copy_dst_arg(%dst: memref<4xf32>, %src: memref<4xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// The destination is a view of an allocation: kept.
// CHECK-LABEL: func.func @copy_dst_view(
// CHECK:         %[[BUF:.*]] = gpu.alloc  () : memref<16xi8>
// CHECK-NEXT:    %[[D:.*]] = memref.view %[[BUF]]
// CHECK-NEXT:    gpu.memcpy  %[[D]], %{{.*}} : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[BUF]] : memref<16xi8>
func.func @copy_dst_view(%src: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %buf = gpu.alloc () : memref<16xi8>
  %d = memref.view %buf[%c0][] : memref<16xi8> to memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.dealloc %buf : memref<16xi8>
  return
}

// -----

// The destination is passed to a kernel: kept.
// CHECK-LABEL: func.func @copy_dst_to_kernel(
// CHECK:         %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[D]], %{{.*}} : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    gpu.launch_func  @kernels::@k
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @copy_dst_to_kernel(%src: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
    gpu.dealloc %d : memref<4xf32>
    return
  }
}

// -----

// memref.alloc / memref.dealloc count as allocation and free.
// CHECK-LABEL: func.func @copy_memref_dealloc(
// CHECK-NEXT:    func.return
func.func @copy_memref_dealloc(%src: memref<4xf32>) {
  %d = memref.alloc() : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  return
}

// -----

// memref.alloca allocates too.
// CHECK-LABEL: func.func @copy_alloca(
// CHECK-SAME:      %{{[^:]*}}: memref<4xf32>, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[T]] : !gpu.async.token
func.func @copy_alloca(%src: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloca() : memref<4xf32>
  %t1 = gpu.memcpy async [%t] %d, %src : memref<4xf32>, memref<4xf32>
  return %t1 : !gpu.async.token
}

// -----

// A copy of a buffer onto itself, only freed afterwards.
// CHECK-LABEL: func.func @copy_self(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  (%{{.*}}) : memref<?xf32>
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<?xf32>
// CHECK-NEXT:    func.return
func.func @copy_self(%n: index) {
  %d = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %d, %d : memref<?xf32>, memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}

// -----

// Another write to the destination: kept.
// CHECK-LABEL: func.func @copy_store(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[D]], %{{.*}} : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %[[D]]
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
func.func @copy_store(%src: memref<4xf32>, %v: f32, %i: index) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  memref.store %v, %d[%i] : memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// Only the destination matters: a copy out of an allocation is kept.
// CHECK-LABEL: func.func @copy_src_alloc(
// CHECK-SAME:      %[[DST:[^:]*]]: memref<4xf32>
// CHECK-NEXT:    %[[S:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[DST]], %[[S]] : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[S]] : memref<4xf32>
func.func @copy_src_alloc(%dst: memref<4xf32>) {
  %s = gpu.alloc () : memref<4xf32>
  gpu.memcpy %dst, %s : memref<4xf32>, memref<4xf32>
  gpu.dealloc %s : memref<4xf32>
  return
}

// -----

// Two copies into the same buffer: each sees the other as a user, both kept.
// CHECK-LABEL: func.func @copy_two_copies(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[D]], %{{.*}} : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    gpu.memcpy  %[[D]], %{{.*}} : memref<4xf32>, memref<4xf32>
// CHECK-NEXT:    func.return
func.func @copy_two_copies(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// gpu.memset has no such pattern.
// CHECK-LABEL: func.func @memset_alloc(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.memset  %[[D]], %{{.*}} : memref<4xf32>, f32
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
func.func @memset_alloc(%v: f32) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memset %d, %v : memref<4xf32>, f32
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// memref.cast operands of gpu.memcpy are folded.
// CHECK-LABEL: func.func @memcpy_cast(
// CHECK-SAME:      %[[A:[^:]*]]: memref<10xf32>, %[[B:[^:]*]]: memref<10xf32>
// CHECK-NEXT:    gpu.memcpy  %[[A]], %[[B]] : memref<10xf32>, memref<10xf32>
// CHECK-NEXT:    func.return
func.func @memcpy_cast(%a: memref<10xf32>, %b: memref<10xf32>) {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  %1 = "memref.cast"(%b) : (memref<10xf32>) -> memref<?xf32>
  gpu.memcpy %0, %1 : memref<?xf32>, memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @memcpy_cast_async(
// CHECK-SAME:      %[[A:[^:]*]]: memref<?xf32>, %[[B:[^:]*]]: memref<10xf32>, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[T1:.*]] = gpu.memcpy async [%[[T]]] %[[A]], %[[B]] : memref<?xf32>, memref<10xf32>
// CHECK-NEXT:    func.return %[[T1]]
func.func @memcpy_cast_async(%a: memref<?xf32>, %b: memref<10xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %0 = "memref.cast"(%a) : (memref<?xf32>) -> memref<10xf32>
  %t1 = gpu.memcpy async [%t] %0, %b : memref<10xf32>, memref<10xf32>
  return %t1 : !gpu.async.token
}

// -----

// A cast from an unranked memref is not folded.
// CHECK-LABEL: func.func @memcpy_cast_unranked(
// CHECK-SAME:      %[[A:[^:]*]]: memref<*xf32>, %[[B:[^:]*]]: memref<?xf32>
// CHECK-NEXT:    %[[C:.*]] = {{.*}}memref.cast{{.*}}%[[A]]
// CHECK-NEXT:    gpu.memcpy  %[[C]], %[[B]] : memref<?xf32>, memref<?xf32>
func.func @memcpy_cast_unranked(%a: memref<*xf32>, %b: memref<?xf32>) {
  %0 = "memref.cast"(%a) : (memref<*xf32>) -> memref<?xf32>
  gpu.memcpy %0, %b : memref<?xf32>, memref<?xf32>
  return
}

// -----

// Once the cast is folded, the copy into the allocation is trivial.
// CHECK-LABEL: func.func @memcpy_cast_then_trivial(
// CHECK-NEXT:    %[[D:.*]] = gpu.alloc  () : memref<4xf32>
// CHECK-NEXT:    gpu.dealloc  %[[D]] : memref<4xf32>
// CHECK-NEXT:    func.return
func.func @memcpy_cast_then_trivial(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  %c = "memref.cast"(%d) : (memref<4xf32>) -> memref<?xf32>
  gpu.memcpy %c, %src : memref<?xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @memset_cast(
// CHECK-SAME:      %[[A:[^:]*]]: memref<10xf32>, %[[V:[^:]*]]: f32
// CHECK-NEXT:    gpu.memset  %[[A]], %[[V]] : memref<10xf32>, f32
// CHECK-NEXT:    func.return
func.func @memset_cast(%a: memref<10xf32>, %v: f32) {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  gpu.memset %0, %v : memref<?xf32>, f32
  return
}

// -----

// CHECK-LABEL: func.func @memset_cast_async(
// CHECK-SAME:      %[[A:[^:]*]]: memref<10xf32>, %[[V:[^:]*]]: f32, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[T1:.*]] = gpu.memset async [%[[T]]] %[[A]], %[[V]] : memref<10xf32>, f32
// CHECK-NEXT:    func.return %[[T1]]
func.func @memset_cast_async(%a: memref<10xf32>, %v: f32, %t: !gpu.async.token) -> !gpu.async.token {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  %t1 = gpu.memset async [%t] %0, %v : memref<?xf32>, f32
  return %t1 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @memset_cast_unranked(
// CHECK-SAME:      %[[A:[^:]*]]: memref<*xf32>, %[[V:[^:]*]]: f32
// CHECK-NEXT:    %[[C:.*]] = {{.*}}memref.cast{{.*}}%[[A]]
// CHECK-NEXT:    gpu.memset  %[[C]], %[[V]] : memref<?xf32>, f32
func.func @memset_cast_unranked(%a: memref<*xf32>, %v: f32) {
  %0 = "memref.cast"(%a) : (memref<*xf32>) -> memref<?xf32>
  gpu.memset %0, %v : memref<?xf32>, f32
  return
}
