// Out of a workgroup attribution.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8xf32>) workgroup(%s: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %one = arith.constant 1.0 : f32
      %j = arith.addi %i, %c3 : index
      // CHECK: oob-workgroup.mlir:[[# @LINE + 1]]:7: error: out-of-bounds access to %s[4] (workgroup memory of block (0, 0, 0)) (sizes [4]) by work-item (1, 0, 0) of block (0, 0, 0) of @k::@f
      memref.store %one, %s[%j] : memref<4xf32, #gpu.address_space<workgroup>>
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
