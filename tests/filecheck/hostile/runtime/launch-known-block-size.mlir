// A launch that contradicts the kernel's known_block_size (undefined
// behavior in MLIR; OpenCL's reqd_work_group_size would reject it with a
// bare error code).
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // CHECK: launch-known-block-size.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: block size (8, 1, 1) differs from the kernel's known_block_size = array<i32: 4, 1, 1> (undefined behavior in MLIR)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
    return
  }
}
