// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @empty_body(%n: index) {
  // expected-error @+1 {{empty block: expect at least a terminator}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
  }
  return
}

// -----

func.func @wrong_terminator(%n: index) {
  // expected-note @+1 {{in 'gpu.launch' body region}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    // expected-error @+1 {{expected 'gpu.terminator' or a terminator with successors}}
    llvm.unreachable
  }
  return
}

// -----

func.func @wrong_terminator_in_later_block(%n: index) {
  // expected-note @+1 {{in 'gpu.launch' body region}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    cf.br ^bb1
  ^bb1:
    // expected-error @+1 {{expected 'gpu.terminator' or a terminator with successors}}
    llvm.unreachable
  }
  return
}

// -----

func.func @terminator_outside_launch() {
  // expected-error @+1 {{expects parent op 'gpu.launch'}}
  gpu.terminator
}

// -----

func.func @workgroup_not_memref(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memref type in attribution}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : f32) {
    gpu.terminator
  }
  return
}

// -----

func.func @private_not_memref(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memref type in attribution}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) private(%p : i32) {
    gpu.terminator
  }
  return
}

// -----

func.func @workgroup_wrong_space(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memory space workgroup in attribution}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : memref<4xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @private_wrong_space(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memory space private in attribution}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) private(%p : memref<4xf32, #gpu.address_space<global>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @too_few_region_args(%n: index) {
  // expected-error @+1 {{'gpu.launch' op unexpected number of region arguments}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index):
    "gpu.terminator"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @workgroup_count_too_large(%n: index) {
  // expected-error @+1 {{'gpu.launch' op unexpected number of region arguments}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index, %w: memref<4xf32, #gpu.address_space<workgroup>>):
    "gpu.terminator"() : () -> ()
  }) {workgroup_attributions = 2 : i64} : (index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @partial_cluster(%n: index) {
  // expected-error @+1 {{'gpu.launch' op cluster size must be all present}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index):
    "gpu.terminator"() : () -> ()
  }) : (index, index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @async_unnamed(%n: index) {
  // expected-error @+1 {{custom op 'gpu.launch' needs to be named when marked 'async'}}
  gpu.launch async blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// -----

func.func @duplicate_workgroup_count(%n: index) {
  // expected-error @+1 {{custom op 'gpu.launch' attribute 'workgroup_attributions' occurs more than once in the attribute list}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  } {workgroup_attributions = 0 : i64}
  return
}

// -----

func.func @duplicate_module(%n: index) {
  // expected-error @+1 {{custom op 'gpu.launch' attribute 'module' occurs more than once in the attribute list}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@a) {
    gpu.terminator
  } {module = @b}
  return
}

// -----

func.func @nested_module_symbol(%n: index) {
  // expected-error @+1 {{custom op 'gpu.launch' invalid kind of attribute specified}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@a::@b) {
    gpu.terminator
  }
  return
}

// -----

func.func @clusters_without_blocks(%n: index) {
  // expected-error @+1 {{custom op 'gpu.launch' expected 'blocks'}}
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %n, %csy = %n, %csz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// -----

func.func @five_sizes_generic(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected 6 or more operands, but found 5}}
  "gpu.launch"(%n, %n, %n, %n, %n) ({
    gpu.terminator
  }) {operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>} : (index, index, index, index, index) -> ()
  return
}

// -----

func.func @no_segment_sizes(%n: index) {
  // expected-error @+1 {{'gpu.launch' op operand count (6) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n) ({
    gpu.terminator
  }) : (index, index, index, index, index, index) -> ()
  return
}

// -----

func.func @launch_without_region(%n: index) {
  // expected-error @+1 {{'gpu.launch' op requires one region}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
  return
}

// -----

// The body's ops are verified before the launch's own checks of its
// terminators: a `func.return` is reported for its parent.
func.func @return_in_launch_body(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  }
  func.return
}
