// A gpu.memcpy of device memory that was never written is an error.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
func.func @main() {
  %h = memref.alloc() : memref<4xf32>
  %d = gpu.alloc () : memref<4xf32>
  gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>
  return
}
// CHECK: error-copy.mlir:6:3: error: gpu.memcpy reads never-written memory %d[0]
