// An out-of-bounds load of a 2-d buffer, in the second block.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<2x3xi32>, %out: memref<i32>) kernel {
      %b = gpu.block_id x
      // CHECK: oob-global-load.mlir:[[# @LINE + 1]]:12: error: out-of-bounds access to %a[2, 2] (sizes [2, 3]) by work-item (0, 0, 0) of block (2, 0, 0) of @k::@f
      %x = memref.load %a[%b, %b] : memref<2x3xi32>
      memref.store %x, %out[] : memref<i32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %z = arith.constant 0 : i32
    %a = gpu.alloc () : memref<2x3xi32>
    gpu.memset %a, %z : memref<2x3xi32>, i32
    %o = gpu.alloc () : memref<i32>
    // Blocks 0 and 1 read %a[0, 0] and %a[1, 1]; block 2 reads row 2.
    gpu.launch_func @k::@f blocks in (%c3, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<2x3xi32>, %o : memref<i32>)
    return
  }
}
