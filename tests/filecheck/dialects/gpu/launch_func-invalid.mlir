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

// -----

// The count of operands is checked before the segment sizes, whose length is wrong here.
func.func @five_dims(%c: index) {
  // expected-error @+1 {{'gpu.launch_func' op expected 6 or more operands, but found 5}}
  "gpu.launch_func"(%c, %c, %c, %c, %c) {kernel = @k::@f, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (index, index, index, index, index) -> ()
  return
}

// -----

// Segment sizes of the wrong length, given in the attribute dictionary, count as
// all zeros; they are checked before the op's own verifier (the missing
// gpu.container_module).
func.func @short_segments(%c: index) {
  // expected-error @+1 {{'gpu.launch_func' op operand count (6) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  "gpu.launch_func"(%c, %c, %c, %c, %c, %c) {kernel = @k::@f, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1>} : (index, index, index, index, index, index) -> ()
  return
}

// -----

module attributes {gpu.container_module} {
  func.func @no_kernel_symbol(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op requires attribute 'kernel'}}
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
    return
  }
}

// -----

// The container module checks the kernels of its launches before the ops nested
// in it: the misplaced gpu.func is not the error reported.
module attributes {gpu.container_module} {
  module @lib {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  func.func @launch_from_plain_module(%c: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel module 'lib' is undefined}}
    gpu.launch_func @lib::@f blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @checked_before_nested_ops(%c: index, %x: f32) {
    // expected-error @+1 {{'gpu.launch_func' op got 0 kernel operands but expected 1}}
    gpu.launch_func @kernels::@f blocks in (%c, %c, %c) threads in (%c, %c, %c)
    %bad = "gpu.thread_id"() : () -> index
    return
  }
}

// -----

// The list's own parser reports the bad token, without the custom-op prefix.
module attributes {gpu.container_module} {
  func.func @kernel_arg_with_attributes(%c: index) {
    // expected-error @+1 {{expected ')' in argument list}}
    gpu.launch_func @m::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%c : index {bar})
    return
  }
}
