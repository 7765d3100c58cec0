// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// EraseTrivialCopyOp: one dependency and a token; the token is forwarded.
func.func @copy_async_one_dep(%src: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t1 = gpu.memcpy async [%t] %d, %src : memref<4xf32>, memref<4xf32>
  return %t1 : !gpu.async.token
}

// -----

// A blocking copy into a gpu.alloc buffer that is only freed: the copy goes,
// the allocation and the deallocation stay.
func.func @copy_sync_gpu_alloc(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// Async alloc, copy and dealloc chained by tokens.
func.func @copy_async_chain(%src: memref<?xf32>, %n: index, %t: !gpu.async.token) -> !gpu.async.token {
  %d, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %d, %src : memref<?xf32>, memref<?xf32>
  %t3 = gpu.dealloc async [%t2] %d : memref<?xf32>
  return %t3 : !gpu.async.token
}

// -----

func.func @copy_host_shared(%src: memref<4xf32>) {
  %d = gpu.alloc host_shared () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// The copied buffer is read afterwards: kept.
func.func @copy_dst_read(%src: memref<4xf32>, %i: index) -> f32 {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  %v = memref.load %d[%i] : memref<4xf32>
  return %v : f32
}

// -----

// Two dependencies: kept.
func.func @copy_two_deps(%src: memref<4xf32>, %a: !gpu.async.token, %b: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t = gpu.memcpy async [%a, %b] %d, %src : memref<4xf32>, memref<4xf32>
  return %t : !gpu.async.token
}

// -----

// A token without dependency: kept.
func.func @copy_async_no_dep(%src: memref<4xf32>) -> !gpu.async.token {
  %d = memref.alloc() : memref<4xf32>
  %t = gpu.memcpy async %d, %src : memref<4xf32>, memref<4xf32>
  return %t : !gpu.async.token
}

// -----

// A dependency without token: kept.
func.func @copy_sync_one_dep(%src: memref<4xf32>, %a: !gpu.async.token) {
  %d = memref.alloc() : memref<4xf32>
  gpu.memcpy [%a] %d, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// The destination is not allocated here: kept.
func.func @copy_dst_arg(%dst: memref<4xf32>, %src: memref<4xf32>) {
  gpu.memcpy %dst, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// The destination is a view of an allocation: kept.
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
func.func @copy_memref_dealloc(%src: memref<4xf32>) {
  %d = memref.alloc() : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  return
}

// -----

// memref.alloca allocates too.
func.func @copy_alloca(%src: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %d = memref.alloca() : memref<4xf32>
  %t1 = gpu.memcpy async [%t] %d, %src : memref<4xf32>, memref<4xf32>
  return %t1 : !gpu.async.token
}

// -----

// A copy of a buffer onto itself, only freed afterwards.
func.func @copy_self(%n: index) {
  %d = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %d, %d : memref<?xf32>, memref<?xf32>
  gpu.dealloc %d : memref<?xf32>
  return
}

// -----

// Another write to the destination: kept.
func.func @copy_store(%src: memref<4xf32>, %v: f32, %i: index) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  memref.store %v, %d[%i] : memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// Only the destination matters: a copy out of an allocation is kept.
func.func @copy_src_alloc(%dst: memref<4xf32>) {
  %s = gpu.alloc () : memref<4xf32>
  gpu.memcpy %dst, %s : memref<4xf32>, memref<4xf32>
  gpu.dealloc %s : memref<4xf32>
  return
}

// -----

// Two copies into the same buffer: each sees the other as a user, both kept.
func.func @copy_two_copies(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  gpu.memcpy %d, %src : memref<4xf32>, memref<4xf32>
  return
}

// -----

// gpu.memset has no such pattern.
func.func @memset_alloc(%v: f32) {
  %d = gpu.alloc () : memref<4xf32>
  gpu.memset %d, %v : memref<4xf32>, f32
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

// memref.cast operands of gpu.memcpy are folded.
func.func @memcpy_cast(%a: memref<10xf32>, %b: memref<10xf32>) {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  %1 = "memref.cast"(%b) : (memref<10xf32>) -> memref<?xf32>
  gpu.memcpy %0, %1 : memref<?xf32>, memref<?xf32>
  return
}

// -----

func.func @memcpy_cast_async(%a: memref<?xf32>, %b: memref<10xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %0 = "memref.cast"(%a) : (memref<?xf32>) -> memref<10xf32>
  %t1 = gpu.memcpy async [%t] %0, %b : memref<10xf32>, memref<10xf32>
  return %t1 : !gpu.async.token
}

// -----

// A cast from an unranked memref is not folded.
func.func @memcpy_cast_unranked(%a: memref<*xf32>, %b: memref<?xf32>) {
  %0 = "memref.cast"(%a) : (memref<*xf32>) -> memref<?xf32>
  gpu.memcpy %0, %b : memref<?xf32>, memref<?xf32>
  return
}

// -----

// Once the cast is folded, the copy into the allocation is trivial.
func.func @memcpy_cast_then_trivial(%src: memref<4xf32>) {
  %d = gpu.alloc () : memref<4xf32>
  %c = "memref.cast"(%d) : (memref<4xf32>) -> memref<?xf32>
  gpu.memcpy %c, %src : memref<?xf32>, memref<4xf32>
  gpu.dealloc %d : memref<4xf32>
  return
}

// -----

func.func @memset_cast(%a: memref<10xf32>, %v: f32) {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  gpu.memset %0, %v : memref<?xf32>, f32
  return
}

// -----

func.func @memset_cast_async(%a: memref<10xf32>, %v: f32, %t: !gpu.async.token) -> !gpu.async.token {
  %0 = "memref.cast"(%a) : (memref<10xf32>) -> memref<?xf32>
  %t1 = gpu.memset async [%t] %0, %v : memref<?xf32>, f32
  return %t1 : !gpu.async.token
}

// -----

func.func @memset_cast_unranked(%a: memref<*xf32>, %v: f32) {
  %0 = "memref.cast"(%a) : (memref<*xf32>) -> memref<?xf32>
  gpu.memset %0, %v : memref<?xf32>, f32
  return
}
