// Out of a constant memref.global of the gpu.module.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    memref.global "private" constant @table : memref<3xf32> = dense<[1.0, 2.0, 3.0]>
    gpu.func @f(%m: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %g = memref.get_global @table : memref<3xf32>
      // CHECK: oob-constant.mlir:[[# @LINE + 1]]:12: error: out-of-bounds access to @table[3] (sizes [3]) by work-item (3, 0, 0) of block (0, 0, 0) of @k::@f
      %x = memref.load %g[%i] : memref<3xf32>
      memref.store %x, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<8xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<8xf32>)
    return
  }
}
