// An out-of-bounds store in a kernel is an error at the store, naming the
// work-item, the buffer and the index.
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
    %c5 = arith.constant 5 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
// CHECK: error-oob.mlir:9:7: error: out-of-bounds access to %d[4] (sizes [4]) by work-item (4, 0, 0) of block (0, 0, 0) of @k::@f
// CHECK-NEXT: memref.store %one, %m[%i] : memref<4xf32>
// CHECK-NEXT: ^
