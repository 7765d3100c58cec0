// Out of a memref.alloca.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %a = memref.alloca() : memref<3xf32, #gpu.address_space<private>>
      %j = arith.addi %i, %c2 : index
      // The first failure is the store; the load after it is not reported.
      // CHECK: oob-alloca.mlir:[[# @LINE + 2]]:7: error: out-of-bounds access to %a[3] (sizes [3]) by work-item (1, 0, 0) of block (0, 0, 0) of @k::@f
      // CHECK-NOT: error
      memref.store %one, %a[%j] : memref<3xf32, #gpu.address_space<private>>
      %x = memref.load %a[%j] : memref<3xf32, #gpu.address_space<private>>
      memref.store %x, %m[%i] : memref<8xf32>
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
