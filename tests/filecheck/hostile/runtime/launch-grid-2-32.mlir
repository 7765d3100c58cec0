// A grid of 2^32 blocks: PoCL dies with SIGILL on it (it counts blocks in 32
// bits); xgpu-run rejects it before enqueueing anything, and the simulator
// rejects it at once (CUDA's limit: 2^31 - 1 blocks in x) instead of making
// 2^32 blocks.
// RUN: not xgpu-run %s 2>&1 | filecheck %s --check-prefix=OPENCL
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s --check-prefix=SIM
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %huge = arith.constant 4294967296 : index
    %d = gpu.alloc () : memref<4xf32>
    // OPENCL: launch-grid-2-32.mlir:[[# @LINE + 3]]:5: error: gpu.launch_func @k::@f: grid size x = 4294967296 exceeds the limit of 4294967295 blocks (xgpu-run's limit on OpenCL: PoCL counts blocks in 32 bits)
    // SIM: launch-grid-2-32.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func @k::@f: grid size x = 4294967296 exceeds the limit of 2147483647 blocks (the simulator's limit, as CUDA's)
    // OPENCL-NEXT: gpu.launch_func @k::@f blocks in (%huge, %c1, %c1)
    gpu.launch_func @k::@f blocks in (%huge, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
