// A negative dynamic shared memory size.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m8 = arith.constant -8 : i32
    // CHECK: launch-negative-shared-memory.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: dynamic shared memory size -8 is negative
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %m8
    return
  }
}
