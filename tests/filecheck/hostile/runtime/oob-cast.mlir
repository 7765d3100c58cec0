// A memref.cast to a static size the memref does not have.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      %c7 = arith.constant 7 : index
      %one = arith.constant 1.0 : f32
      // CHECK: oob-cast.mlir:[[# @LINE + 1]]:12: error: memref.cast of a memref of size 4 in dimension 0 to size 10 (work-item (0, 0, 0) of block (0, 0, 0) of @k::@f)
      %s = memref.cast %m : memref<?xf32> to memref<10xf32>
      memref.store %one, %s[%c7] : memref<10xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc (%c4) : memref<?xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<?xf32>)
    return
  }
}
