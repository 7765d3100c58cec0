// A memref.view larger than the dynamic shared memory.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %dsm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // CHECK: oob-dynamic-shared-memory-view.mlir:[[# @LINE + 1]]:12: error: memref.view of 2 x float32 at byte 0 outside (or misaligned in) its 4-byte buffer (work-item (0, 0, 0) of block (0, 0, 0) of @k::@f)
      %v = memref.view %dsm[%c0][%c2] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %x = memref.load %v[%c0] : memref<?xf32, #gpu.address_space<workgroup>>
      memref.store %x, %m[%c0] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : i32
    %d = gpu.alloc () : memref<8xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c4 args(%d : memref<8xf32>)
    return
  }
}
