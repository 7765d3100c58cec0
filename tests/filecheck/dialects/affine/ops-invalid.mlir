// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// affine ops that mlir-opt 22 rejects, with its messages.

func.func @apply_count(%i: index) {
  // expected-error @+1 {{'affine.apply' op operand count and affine map dimension and symbol count must match}}
  %a = "affine.apply"(%i) <{map = affine_map<(d0, d1) -> (d0)>}> : (index) -> index
  return
}

// -----

func.func @apply_results(%i: index) {
  // expected-error @+1 {{'affine.apply' op mapping must produce one value}}
  %a = "affine.apply"(%i) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return
}

// -----

func.func @apply_custom_count(%i: index) {
  // expected-error @+1 {{custom op 'affine.apply' dimension or symbol index mismatch}}
  %a = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)
  return
}

// -----

func.func @min_empty() {
  // expected-error @+1 {{'affine.min' op affine map expect at least one result}}
  %a = affine.min affine_map<() -> ()>()
  return
}

// -----

func.func @max_count(%i: index) {
  // expected-error @+1 {{'affine.max' op operand count and affine map dimension and symbol count must match}}
  %a = "affine.max"(%i) <{map = affine_map<(d0, d1) -> (d0)>}> : (index) -> index
  return
}

// -----

func.func @load_rank(%i: index, %m: memref<4x4xf32>) {
  // expected-error @+1 {{'affine.load' op affine map num results must equal memref rank}}
  %a = affine.load %m[%i, %i, %i] : memref<4x4xf32>
  return
}

// -----

func.func @load_inputs(%i: index, %m: memref<4x4xf32>) {
  // expected-error @+1 {{'affine.load' op expects as many subscripts as affine map inputs}}
  %a = "affine.load"(%m, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<4x4xf32>, index) -> f32
  return
}

// -----

func.func @store_rank(%i: index, %m: memref<4x4xf32>, %f: f32) {
  // expected-error @+1 {{'affine.store' op affine map num results must equal memref rank}}
  "affine.store"(%f, %m, %i) <{map = affine_map<(d0) -> (d0, d0, d0)>}> : (f32, memref<4x4xf32>, index) -> ()
  return
}

// -----

func.func @parallel_reduction_type(%f: f32) {
  // expected-error @+1 {{'affine.parallel' op result type cannot match reduction attribute}}
  %r = affine.parallel (%k) = (0) to (4) reduce ("addi") -> (f32) {
    affine.yield %f : f32
  }
  return
}

// -----

func.func @parallel_reduction_count(%f: f32) {
  // expected-error @+1 {{'affine.parallel' op a reduction must be specified for each output}}
  %r = "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = affine_map<() -> (0)>, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> (4)>}> ({
  ^bb0(%i: index):
    "affine.yield"(%f) : (f32) -> ()
  }) : () -> f32
  return
}

// -----

func.func @delinearize_results(%i: index) {
  // expected-error @+1 {{'affine.delinearize_index' op should return an index for each basis element and up to one extra index}}
  %d:4 = affine.delinearize_index %i into (4, 4) : index, index, index, index
  return
}

// -----

func.func @delinearize_non_positive(%i: index) {
  // expected-error @+1 {{'affine.delinearize_index' op no basis element may be statically non-positive}}
  %d:2 = affine.delinearize_index %i into (%i, -2) : index, index
  return
}

// -----

func.func @delinearize_dynamic_mismatch(%i: index) {
  // expected-error @+1 {{'affine.delinearize_index' op mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite}}
  %d:2 = "affine.delinearize_index"(%i) <{static_basis = array<i64: -9223372036854775808, 4>}> : (index) -> (index, index)
  return
}

// -----

func.func @linearize_inputs(%i: index) {
  // expected-error @+1 {{'affine.linearize_index' op should be passed a basis element for each index except possibly the first}}
  %l = affine.linearize_index [%i, %i, %i, %i] by (4, 4) : index
  return
}

// -----

func.func @linearize_dynamic_mismatch(%i: index) {
  // expected-error @+1 {{'affine.linearize_index' op mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite}}
  %l = "affine.linearize_index"(%i, %i) <{operandSegmentSizes = array<i32: 1, 1>, static_basis = array<i64: 4>}> : (index, index) -> index
  return
}

// -----

func.func @if_count(%i: index) {
  // expected-error @+1 {{'affine.if' op operand count and condition integer set dimension and symbol count must match}}
  "affine.if"(%i, %i) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (index, index) -> ()
  return
}

// -----

func.func @for_negative_step() {
  // expected-error @+1 {{custom op 'affine.for' expected step to be representable as a positive signed integer}}
  affine.for %k = 0 to 10 step -1 {
  }
  return
}

// -----

func.func @for_lower_needs_max(%i: index) {
  // expected-error @+1 {{custom op 'affine.for' lower loop bound affine map with multiple results requires 'max' prefix}}
  affine.for %k = affine_map<(d0) -> (d0, 0)>(%i) to 10 {
  }
  return
}

// -----

func.func @for_upper_needs_min(%i: index) {
  // expected-error @+1 {{custom op 'affine.for' upper loop bound affine map with multiple results requires 'min' prefix}}
  affine.for %k = 0 to affine_map<(d0) -> (d0, 0)>(%i) {
  }
  return
}

// -----

func.func @yield_count(%f: f32) {
  %r = affine.for %k = 0 to 10 iter_args(%a = %f) -> (f32) {
    // expected-error @+1 {{'affine.yield' op parent of yield must have same number of results as the yield operands}}
    affine.yield %a, %a : f32, f32
  }
  return
}

// -----

func.func @yield_in_if(%i: index, %f: f32) {
  affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    // expected-error @+1 {{'affine.yield' op parent of yield must have same number of results as the yield operands}}
    affine.yield %f : f32
  }
  return
}

// -----

func.func @yield_type(%f: f32, %g: i32) {
  %r = affine.parallel (%k) = (0) to (4) reduce ("addf") -> (f32) {
    // expected-error @+1 {{'affine.yield' op types mismatch between yield op and its parent}}
    affine.yield %g : i32
  }
  return
}

// -----

func.func @if_not_a_set(%i: index) {
  // expected-error @+1 {{custom op 'affine.if' invalid kind of attribute specified}}
  affine.if affine_map<(d0) -> (d0)>(%i) {
  }
  return
}

// -----

func.func @parallel_groups() {
  // expected-error @+1 {{'affine.parallel' op the number of region arguments (2) and the number of map groups for lower (1) and upper bound (2), and the number of steps (2) must all match}}
  affine.parallel (%k, %l) = (0) to (4, 4) {
  }
  return
}

// -----

func.func @parallel_unknown_reduction() {
  // expected-error @+1 {{custom op 'affine.parallel' invalid reduction value: "foo"}}
  affine.parallel (%k) = (0) to (4) reduce ("foo") -> (f32) {
  }
  return
}

// -----

func.func @dim_from_arith(%m: memref<16xf32>, %n: index) {
  affine.for %i = 0 to 4 {
    %j = arith.addi %i, %n : index
    // expected-error @+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %x = affine.load %m[%j] : memref<16xf32>
  }
  return
}

// -----

func.func @dim_from_scf_for(%m: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'affine.load' op operand cannot be used as a dimension id}}
    %x = affine.load %m[%i] : memref<16xf32>
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  }
  return
}

// -----

func.func @symbol_from_loop(%m: memref<16xf32>, %n: index) {
  affine.for %i = 0 to 4 {
    %j = arith.addi %i, %n : index
    %x = affine.load %m[symbol(%n) + %i] : memref<16xf32>
    // expected-error @+1 {{'affine.load' op operand cannot be used as a symbol}}
    %y = affine.load %m[symbol(%i)] : memref<16xf32>
  }
  return
}

// -----

func.func @for_bound_symbol_from_scf(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'affine.for' op operand cannot be used as a symbol}}
    affine.for %j = 0 to %i {
    }
  }
  return
}

// -----

func.func @for_bound_dim_from_scf(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'affine.for' op operand cannot be used as a dimension id}}
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
    }
  }
  return
}

// -----

func.func @if_dim_from_scf(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'affine.if' op operand cannot be used as a dimension id}}
    affine.if affine_set<(d0) : (d0 >= 0)>(%i) {
    }
  }
  return
}

// -----

func.func @parallel_dim_from_scf(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{'affine.parallel' op operand cannot be used as a dimension id}}
    affine.parallel (%k) = (0) to (%i) {
    }
  }
  return
}
