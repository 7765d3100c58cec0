// A block larger than the device allows.
// RUN: not xgpu-run %s 2>&1 | filecheck %s --check-prefix=OPENCL
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s --check-prefix=SIM
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    // OPENCL: launch-block-too-large.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func @k::@f: a block of 8192 work-items (64, 128, 1) exceeds the device's limit of {{[0-9]+}} work-items per block (CL_{{DEVICE_MAX_WORK_GROUP_SIZE|KERNEL_WORK_GROUP_SIZE of this kernel}})
    // SIM: launch-block-too-large.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: a block of 8192 work-items (64, 128, 1) exceeds the device's limit of 1024 work-items per block (the simulator's limit, as CUDA's)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c64, %c128, %c1)
    return
  }
}
