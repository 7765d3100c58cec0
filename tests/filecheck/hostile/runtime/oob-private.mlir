// Out of a private attribution.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8xf32>) private(%p: memref<2xf32, #gpu.address_space<private>>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %one = arith.constant 1.0 : f32
      %j = arith.addi %i, %c1 : index
      // CHECK: oob-private.mlir:[[# @LINE + 1]]:7: error: out-of-bounds access to %p[2] (sizes [2]) by work-item (1, 0, 0) of block (0, 0, 0) of @k::@f
      memref.store %one, %p[%j] : memref<2xf32, #gpu.address_space<private>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %d = gpu.alloc () : memref<8xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%d : memref<8xf32>)
    return
  }
}
