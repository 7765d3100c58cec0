// A gpu.barrier that only some work-items of the block reach is an error.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xf32>) kernel {
      %c2 = arith.constant 2 : index
      %i = gpu.thread_id x
      %low = arith.cmpi ult, %i, %c2 : index
      scf.if %low {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
// CHECK: error-barrier.mlir:10:9: error: gpu.barrier not reached by every work-item of its block: work-item (0, 0, 0) of block (0, 0, 0) of @k::@f waits here, work-item (2, 0, 0) of block (0, 0, 0) returned without reaching it
