// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

module {
  func.func @no_container_attribute(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  module {
    func.func @nested_module_without_attribute(%c: index) {
      // expected-error @+1 {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
      gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
      return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @missing_container(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel container 'kernels' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @kernels() {
    return
  }
  func.func @container_not_a_gpu_module(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel module 'kernels' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @k() {
    return
  }
  func.func @flat_reference_to_a_function(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel module 'k' is undefined}}
    gpu.launch_func @k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  func.func @missing_function(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel function '@kernels::@k' is undefined}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-note @+1 {{see the kernel definition here}}
    gpu.module @k {
    }
  }
  func.func @kernel_not_a_function(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op referenced kernel '@kernels::@k' is not a function}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-note @+1 {{see the kernel definition here}}
  gpu.module @kernels {
  }
  func.func @flat_reference_to_a_module(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op referenced kernel '@kernels' is not a function}}
    gpu.launch_func @kernels blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() {
      gpu.return
    }
  }
  func.func @gpu_func_not_a_kernel(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @k() {
      return
    }
  }
  func.func @func_not_a_kernel(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: i32) kernel {
      gpu.return
    }
  }
  func.func @operand_count(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op got 0 kernel operands but expected 1}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: i32, %b: f32) kernel {
      gpu.return
    }
  }
  func.func @operand_type(%c: index, %x: i32) {
    // expected-error @+1 {{'gpu.launch_func' op type of function argument 1 does not match}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%x : i32, %x : i32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @grid_block_types(%c: index, %i: i32) {
    // expected-error @+1 {{'gpu.launch_func' op failed to verify that all of {gridSizeX, gridSizeY, gridSizeZ, blockSizeX, blockSizeY, blockSizeZ} have same type}}
    "gpu.launch_func"(%c, %c, %c, %c, %c, %i) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, i32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @cluster_types(%c: index, %i: i32) {
    // expected-error @+1 {{'gpu.launch_func' op expects types of the cluster dimensions must be the same}}
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c, %c, %c, %i) <{kernel = @kernels::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> : (index, index, index, index, index, index, index, index, i32) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @incomplete_cluster(%c: index) {
    // expected-error @+1 {{expected ','}}
    gpu.launch_func @kernels::@k clusters in (%c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}
