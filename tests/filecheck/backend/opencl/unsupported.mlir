// What the OpenCL backend cannot emit is an error at the op, not a traceback.
// RUN: not xgpu-opt -t opencl %s --split-input-file 2>&1 | filecheck %s
// RUN: xgpu-opt -t opencl %s --split-input-file --verify-diagnostics

gpu.module @m {
  gpu.func @k(%n: index) kernel {
    // expected-error @+1 {{'memref.alloc' op is not supported by the OpenCL backend}}
    %m = memref.alloc(%n) : memref<?xf32>
    gpu.return
  }
}

// CHECK: unsupported.mlir:8:10: error: 'memref.alloc' op is not supported by the OpenCL backend
// CHECK-NEXT: %m = memref.alloc(%n) : memref<?xf32>
// CHECK-NEXT: ^
// CHECK-NOT: Traceback

// -----

gpu.module @m {
  gpu.func @k(%n: index) kernel {
    // expected-error @+1 {{'memref.alloca' op dynamic sizes are not supported: OpenCL C has no variable-length arrays}}
    %m = memref.alloca(%n) : memref<?xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gpu.cluster_id' op is not supported by the OpenCL backend}}
    %c = gpu.cluster_id x
    gpu.return
  }
}

// -----

gpu.module @m {
  func.func @f(%x: f32) -> f32 {
    // expected-error @+1 {{'gpu.all_reduce' op needs the kernel's __local scratch buffer: it is supported in kernels, not in device functions}}
    %r = gpu.all_reduce add %x {} : (f32) -> f32
    return %r : f32
  }
}
