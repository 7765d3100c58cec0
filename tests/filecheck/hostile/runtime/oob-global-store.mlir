// An out-of-bounds store to a gpu.alloc buffer.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      // CHECK: oob-global-store.mlir:[[# @LINE + 1]]:7: error: out-of-bounds access to %d[4] (sizes [4]) by work-item (4, 0, 0) of block (0, 0, 0) of @k::@f
      memref.store %one, %m[%i] : memref<4xf32>
      // CHECK-NEXT: memref.store %one, %m[%i] : memref<4xf32>
      // CHECK-NEXT: ^
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
