// A splat of 3e8 elements is one value through parse, print and canonicalize;
// the OpenCL backend, which would have to write every element of a __constant
// array, reports its limit at the op instead.
// RUN: xgpu-opt %s | filecheck %s --check-prefix=PRINT
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: not xgpu-opt %s -t opencl 2>&1 | filecheck %s --check-prefix=OPENCL
// RUN: not xgpu-run %s 2>&1 | filecheck %s --check-prefix=OPENCL

module attributes {gpu.container_module} {
  gpu.module @k {
    // PRINT: memref.global "private" constant @g : memref<300000000xf32> = dense<2.000000e+00>{{$}}
    // GENERIC: initial_value = dense<2.000000e+00> : memref<300000000xf32>
    // OPENCL: diag-huge-splat.mlir:[[# @LINE + 1]]:5: error: 'memref.global' op is 1200000000 bytes: an OpenCL __constant array holds at most 65536 bytes on every device
    "memref.global"() <{sym_name = "g", type = memref<300000000xf32>, initial_value = dense<2.0> : memref<300000000xf32>, constant, sym_visibility = "private"}> : () -> ()
    gpu.func @f(%out: memref<1xf32>) kernel {
      %0 = memref.get_global @g : memref<300000000xf32>
      %c = arith.constant 7 : index
      %z = arith.constant 0 : index
      %v = memref.load %0[%c] : memref<300000000xf32>
      memref.store %v, %out[%z] : memref<1xf32>
      gpu.return
    }
  }
  func.func @main() {
    %one = arith.constant 1 : index
    %m = gpu.alloc () : memref<1xf32>
    gpu.launch_func @k::@f blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%m : memref<1xf32>)
    return
  }
}
