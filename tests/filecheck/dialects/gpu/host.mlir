// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The layout map is defined once, as mlir-opt prints it.
// CHECK: #map = affine_map<(d0)[s0, s1] -> (d0 + s0 + s1)>
// CHECK-LABEL: func.func @alloc
func.func @alloc(%n: index, %s: index, %t: !gpu.async.token) {
  // CHECK-NEXT: %{{.*}} = gpu.alloc  () : memref<4xf32>
  // GENERIC: "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<4xf32>
  %a = gpu.alloc () : memref<4xf32>
  // CHECK-NEXT: %{{.*}} = gpu.alloc  host_shared () : memref<4xf32>
  // GENERIC: "gpu.alloc"() <{hostShared, operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> memref<4xf32>
  %b = gpu.alloc host_shared () : memref<4xf32>
  // CHECK-NEXT: %{{.*}} = gpu.alloc  (%{{.*}}, %{{.*}}) : memref<?x8x?xf32>
  // GENERIC: "gpu.alloc"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 2, 0>}> : (index, index) -> memref<?x8x?xf32>
  %c = gpu.alloc (%n, %n) : memref<?x8x?xf32>
  // CHECK-NEXT: %{{.*}} = gpu.alloc  (%{{.*}})[%{{.*}}] : memref<?xf32, strided<[1], offset: ?>>
  // GENERIC: "gpu.alloc"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 1, 1>}> : (index, index) -> memref<?xf32, strided<[1], offset: ?>>
  %d = gpu.alloc (%n) [%s] : memref<?xf32, strided<[1], offset: ?>>
  // CHECK-NEXT: %{{.*}} = gpu.alloc  ()[%{{.*}}, %{{.*}}] : memref<4xf32, #map>
  // GENERIC: "gpu.alloc"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 0, 2>}>
  %e = gpu.alloc () [%s, %n] : memref<4xf32, affine_map<(d0)[s0, s1] -> (d0 + s0 + s1)>>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.alloc async () : memref<4xf32>
  // GENERIC: "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> (memref<4xf32>, !gpu.async.token)
  %f, %t1 = gpu.alloc async () : memref<4xf32>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.alloc async [%{{.*}}, %{{.*}}] host_shared (%{{.*}}) {foo} : memref<?xf32, 1>
  // GENERIC: "gpu.alloc"(%{{.*}}, %{{.*}}, %{{.*}}) <{hostShared, operandSegmentSizes = array<i32: 2, 1, 0>}> {foo} : (!gpu.async.token, !gpu.async.token, index) -> (memref<?xf32, 1>, !gpu.async.token)
  %g, %t2 = gpu.alloc async [%t, %t1] host_shared (%n) {foo} : memref<?xf32, 1>
  // CHECK-NEXT: %{{.*}} = gpu.alloc [%{{.*}}] () : memref<4xf32>
  // GENERIC: "gpu.alloc"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!gpu.async.token) -> memref<4xf32>
  %h = gpu.alloc [%t] () : memref<4xf32>
  // CHECK-NEXT: func.return
  return
}

// CHECK-LABEL: func.func @dealloc
func.func @dealloc(%m: memref<4xf32>, %t: !gpu.async.token) {
  // CHECK-NEXT: gpu.dealloc  %{{.*}} : memref<4xf32>
  // GENERIC: "gpu.dealloc"(%{{.*}}) : (memref<4xf32>) -> ()
  gpu.dealloc %m : memref<4xf32>
  // CHECK-NEXT: %{{.*}} = gpu.dealloc async [%{{.*}}] %{{.*}} {foo} : memref<4xf32>
  // GENERIC: "gpu.dealloc"(%{{.*}}, %{{.*}}) {foo} : (!gpu.async.token, memref<4xf32>) -> !gpu.async.token
  %t1 = gpu.dealloc async [%t] %m {foo} : memref<4xf32>
  // CHECK-NEXT: gpu.dealloc [%{{.*}}] %{{.*}} : memref<4xf32>
  gpu.dealloc [%t1] %m : memref<4xf32>
  return
}

// CHECK-LABEL: func.func @memcpy_memset
func.func @memcpy_memset(%a: memref<4xf32>, %b: memref<?xf32, 1>, %v: f32, %t: !gpu.async.token) {
  // CHECK-NEXT: gpu.memcpy  %{{.*}}, %{{.*}} : memref<4xf32>, memref<?xf32, 1>
  // GENERIC: "gpu.memcpy"(%{{.*}}, %{{.*}}) : (memref<4xf32>, memref<?xf32, 1>) -> ()
  gpu.memcpy %a, %b : memref<4xf32>, memref<?xf32, 1>
  // CHECK-NEXT: %{{.*}} = gpu.memcpy async [%{{.*}}] %{{.*}}, %{{.*}} : memref<?xf32, 1>, memref<4xf32> {foo}
  // GENERIC: "gpu.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) {foo} : (!gpu.async.token, memref<?xf32, 1>, memref<4xf32>) -> !gpu.async.token
  %t1 = gpu.memcpy async [%t] %b, %a : memref<?xf32, 1>, memref<4xf32> {foo}
  // CHECK-NEXT: gpu.memset  %{{.*}}, %{{.*}} : memref<4xf32>, f32
  // GENERIC: "gpu.memset"(%{{.*}}, %{{.*}}) : (memref<4xf32>, f32) -> ()
  gpu.memset %a, %v : memref<4xf32>, f32
  // CHECK-NEXT: %{{.*}} = gpu.memset async [%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}} : memref<?xf32, 1>, f32 {foo}
  // GENERIC: "gpu.memset"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {foo} : (!gpu.async.token, !gpu.async.token, memref<?xf32, 1>, f32) -> !gpu.async.token
  %t2 = gpu.memset async [%t, %t1] %b, %v : memref<?xf32, 1>, f32 {foo}
  // CHECK-NEXT: %{{.*}} = gpu.memset async %{{.*}}, %{{.*}} : memref<4xf32>, f32
  %t3 = gpu.memset async %a, %v : memref<4xf32>, f32
  return
}

// CHECK-LABEL: func.func @host_ops
func.func @host_ops(%u: memref<*xf32>, %d: i32) {
  // CHECK-NEXT: gpu.host_register %{{.*}} : memref<*xf32>
  // GENERIC: "gpu.host_register"(%{{.*}}) : (memref<*xf32>) -> ()
  gpu.host_register %u : memref<*xf32>
  // CHECK-NEXT: gpu.host_unregister %{{.*}} {foo} : memref<*xf32>
  // GENERIC: "gpu.host_unregister"(%{{.*}}) {foo} : (memref<*xf32>) -> ()
  gpu.host_unregister %u {foo} : memref<*xf32>
  // CHECK-NEXT: gpu.set_default_device %{{.*}}
  // GENERIC: "gpu.set_default_device"(%{{.*}}) : (i32) -> ()
  gpu.set_default_device %d
  // CHECK-NEXT: gpu.set_default_device {foo} %{{.*}}
  gpu.set_default_device {foo} %d
  return
}
