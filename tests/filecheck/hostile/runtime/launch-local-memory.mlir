// More workgroup memory than a block may have: workgroup attributions and
// dynamic shared memory together.
// RUN: not xgpu-run %s 2>&1 | filecheck %s --check-prefix=OPENCL
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s --check-prefix=SIM
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() workgroup(%s: memref<1024xf32, #gpu.address_space<workgroup>>) kernel {
      %dsm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 100000000 : i32
    // OPENCL: launch-local-memory.mlir:[[# @LINE + 2]]:5: error: gpu.launch_func @k::@f: a block needs 100004096 bytes of workgroup memory (workgroup attributions 4096, dynamic shared memory 100000000); the device has {{[0-9]+}} (CL_DEVICE_LOCAL_MEM_SIZE)
    // SIM: launch-local-memory.mlir:[[# @LINE + 1]]:5: error: gpu.launch_func @k::@f: a block needs 100004096 bytes of workgroup memory (workgroup attributions 4096, dynamic shared memory 100000000); the device has 49152 (the simulator's limit, as CUDA's)
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %big
    return
  }
}
