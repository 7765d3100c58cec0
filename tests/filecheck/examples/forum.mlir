// The forum program parses, verifies, and prints its async chain unchanged
// (custom form, and again after a trip through the generic form).
// RUN: xgpu-opt %S/../../../examples/forum.mlir | filecheck %s
// RUN: xgpu-opt %S/../../../examples/forum.mlir --print-op-generic | xgpu-opt | filecheck %s

// CHECK:      builtin.module attributes {gpu.container_module} {
// CHECK-NEXT:   gpu.module @module_1 {
// CHECK-NEXT:     gpu.func @scale(%{{.*}}: memref<?xf32>, %{{.*}}: index) kernel {
// CHECK-NEXT:       %{{.*}} = gpu.global_id  x
// CHECK:          gpu.func @shift(
// CHECK:        gpu.module @module_2 {
// CHECK-NEXT:     gpu.func @square(
// CHECK:          gpu.func @negate(
// CHECK:        func.func @main(%[[HOST:.*]]: memref<?xf32>, %[[N:.*]]: index) {
// CHECK:          %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:     %[[DEV:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK-NEXT:     %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[DEV]], %[[HOST]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:     %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @module_1::@scale blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  args(%[[DEV]] : memref<?xf32>, %[[N]] : index)
// CHECK-NEXT:     %[[T4:.*]] = gpu.launch_func async [%[[T3]]] @module_1::@shift
// CHECK-NEXT:     scf.for
// CHECK-NEXT:     }
// CHECK-NEXT:     %[[ALIAS:.*]] = gpu.wait async [%[[T4]]]
// CHECK-NEXT:     %[[T5:.*]] = gpu.launch_func async [%[[ALIAS]]] @module_2::@square
// CHECK-NEXT:     %[[T6:.*]] = gpu.launch_func async [%[[T5]]] @module_2::@negate
// CHECK-NEXT:     %[[T7:.*]] = gpu.memcpy async [%[[T6]]] %[[HOST]], %[[DEV]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:     gpu.wait [%[[T7]]]
// CHECK-NEXT:     func.return
