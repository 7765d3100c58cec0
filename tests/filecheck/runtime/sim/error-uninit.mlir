// A kernel reading device memory that nothing ever wrote is an error.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>, %out: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<4xf32>
      memref.store %v, %out[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xf32>
    %o = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>, %o : memref<4xf32>)
    return
  }
}
// CHECK: error-uninit.mlir:7:12: error: read of never-written memory %d[0] by work-item (0, 0, 0) of block (0, 0, 0) of @k::@f
