// A kernel that runs after the gpu.dealloc of its buffer: use of freed memory.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<4xf32>
    %t2 = gpu.dealloc async [%t1] %d : memref<4xf32>
    %t3 = gpu.launch_func async [%t2] @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    gpu.wait [%t3]
    return
  }
}
// CHECK: error-freed.mlir:8:7: error: use of freed memory %d[0] by work-item (0, 0, 0) of block (0, 0, 0) of @k::@f
