// The host loads gpu.alloc host_shared memory after its gpu.dealloc.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %s = gpu.alloc host_shared () : memref<4xf32>
  memref.store %f, %s[%c0] : memref<4xf32>
  gpu.dealloc %s : memref<4xf32>
  %v = memref.load %s[%c0] : memref<4xf32>
  return
}
// CHECK: error-host-freed.mlir:9:8: error: host access to freed memory %s[0]
// CHECK: error-host-freed.mlir:8:3: note: the memory was freed here
