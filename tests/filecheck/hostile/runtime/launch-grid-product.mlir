// 65536 x 65536 blocks: each size fits, the product is 2^32 (PoCL: SIGILL).
// RUN: not xgpu-run %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 65536 : index
    // CHECK: launch-grid-product.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: a grid of 4294967296 blocks (65536, 65536, 1) exceeds the limit of 4294967295 blocks in all (xgpu-run's limit on OpenCL: PoCL counts blocks in 32 bits)
    gpu.launch_func @k::@f blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
