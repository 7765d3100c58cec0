// Canonicalizing the forum program: `%356 = gpu.wait async [%343]` is only an
// alias of %343, so its uses take %343 and the wait goes; the empty host loop
// goes too. The blocking `gpu.wait` at the end stays.
// RUN: xgpu-opt -p canonicalize %S/../../../examples/forum.mlir | filecheck %s

// CHECK:      func.func @main(%[[HOST:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index) {
// CHECK-NOT:    scf.for
// CHECK:        %[[T0:.*]] = gpu.wait async{{$}}
// CHECK-NEXT:   %[[DEV:.*]], %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%[[N]]) : memref<?xf32>
// CHECK-NEXT:   %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %[[DEV]], %[[HOST]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:   %[[T3:.*]] = gpu.launch_func async [%[[T2]]] @module_1::@scale
// CHECK-NEXT:   %[[T4:.*]] = gpu.launch_func async [%[[T3]]] @module_1::@shift
// CHECK-NEXT:   %[[T5:.*]] = gpu.launch_func async [%[[T4]]] @module_2::@square
// CHECK-NEXT:   %[[T6:.*]] = gpu.launch_func async [%[[T5]]] @module_2::@negate
// CHECK-NEXT:   %[[T7:.*]] = gpu.memcpy async [%[[T6]]] %[[HOST]], %[[DEV]] : memref<?xf32>, memref<?xf32>
// CHECK-NEXT:   gpu.wait [%[[T7]]]
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
