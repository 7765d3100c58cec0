// Out of a typed view of the dynamic shared memory.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %one = arith.constant 1.0 : f32
      %dsm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.view %dsm[%c0][%c2] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      // CHECK: oob-dynamic-shared-memory.mlir:[[# @LINE + 1]]:7: error: out-of-bounds access to dynamic shared memory[2] (of block (0, 0, 0)) (sizes [2]) by work-item (2, 0, 0) of block (0, 0, 0) of @k::@f
      memref.store %one, %v[%i] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : i32
    %d = gpu.alloc () : memref<8xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1) dynamic_shared_memory_size %c8 args(%d : memref<8xf32>)
    return
  }
}
