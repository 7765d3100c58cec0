// A subview of the row past the last one.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4x4xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %one = arith.constant 1.0 : f32
      // CHECK: oob-subview.mlir:[[# @LINE + 1]]:14: error: memref.subview out of bounds: dimension 0 of size 4, offset 4, size 1, stride 1 (work-item (4, 0, 0) of block (0, 0, 0) of @k::@f)
      %row = memref.subview %m[%i, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.store %one, %row[%c0] : memref<4xf32, strided<[1], offset: ?>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %d = gpu.alloc () : memref<4x4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<4x4xf32>)
    return
  }
}
