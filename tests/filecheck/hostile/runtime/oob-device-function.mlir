// Out of host memory registered with the device, in a device function.
// OpenCL (bounds-checked by default) and the simulator report the same error.
// RUN: not xgpu-run %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @put(%m: memref<?xf32>, %i: index, %v: f32) {
      // CHECK: oob-device-function.mlir:[[# @LINE + 1]]:7: error: out-of-bounds access to %host[5] (sizes [5]) by work-item (2, 0, 0) of block (1, 0, 0) of @k::@f
      memref.store %v, %m[%i] : memref<?xf32>
      return
    }
    gpu.func @f(%m: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1.0 : f32
      func.call @put(%m, %i, %one) : (memref<?xf32>, index, f32) -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %host = memref.alloc(%c5) : memref<?xf32>
    %u = memref.cast %host : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.launch_func @k::@f blocks in (%c2, %c1, %c1) threads in (%c3, %c1, %c1) args(%host : memref<?xf32>)
    return
  }
}
