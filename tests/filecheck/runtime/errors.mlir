// Runtime errors are reported at the op, as mlir-opt reports errors, with
// exit status 1.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m = gpu.alloc (%c4) : memref<?xf32>
  // CHECK: errors.mlir:[[# @LINE + 1]]:8: error: host access to device memory (allocated by gpu.alloc without host_shared)
  %x = memref.load %m[%c0] : memref<?xf32>
  // CHECK-NEXT: %x = memref.load %m[%c0] : memref<?xf32>
  // CHECK-NEXT: ^
  return
}
