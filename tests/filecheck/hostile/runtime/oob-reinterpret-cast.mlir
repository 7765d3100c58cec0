// A bogus descriptor: a reinterpret_cast far larger than the buffer.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %k = arith.constant 100 : index
      // CHECK: oob-reinterpret-cast.mlir:[[# @LINE + 1]]:14: error: memref.reinterpret_cast outside its buffer: elements [0, 1024) of 4 (work-item (0, 0, 0) of block (0, 0, 0) of @k::@f)
      %big = memref.reinterpret_cast %m to offset: [0], sizes: [1024], strides: [1] : memref<4xf32> to memref<1024xf32>
      %j = arith.muli %i, %k : index
      memref.store %one, %big[%j] : memref<1024xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
