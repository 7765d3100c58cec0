// Negative sizes (pyopencl/PoCL: std::bad_cast) are errors at the launch,
// with the same words on both backends.
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
    %m1 = arith.constant -1 : index
    // CHECK: launch-negative.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: block size y is -1: grid and block sizes must be positive (CUDA: invalid configuration argument)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %m1, %c1)
    return
  }
}
