// MLIR 22's verifiers of scf.forall and scf.forall.in_parallel (xDSL 0.75 has
// neither op). mlir-opt-22 --verify-diagnostics accepts this file as well.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @shared_out_memref(%n: index, %a: memref<4xf32>) {
  // expected-error @below {{'scf.forall' op operand #1 must be variadic of ranked tensor of any type values, but got 'memref<4xf32>'}}
  %r = scf.forall (%i) in (%n) shared_outs(%o = %a) -> (memref<4xf32>) {
  }
  return
}

// -----

func.func @mapping_rank(%n: index) {
  // expected-error @below {{'scf.forall' op mapping attribute size must match op rank}}
  scf.forall (%i) in (%n) {
  } {mapping = [#gpu.block<x>, #gpu.block<y>]}
  return
}

// -----

func.func @mapping_not_device(%n: index) {
  // expected-error @below {{'scf.forall' op attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute}}
  scf.forall (%i) in (%n) {
  } {mapping = [1]}
  return
}

// -----

func.func @two_masks(%n: index) {
  // expected-error @below {{'scf.forall' op "mapping" supports at most one device masking attribute}}
  scf.forall (%i) in (%n) {
  } {mapping = [#gpu.thread<x>, #gpu.mask<3>, #gpu.mask<1>]}
  return
}

// -----

func.func @dynamic_count(%n: index) {
  // expected-error @below {{expected 0 dynamic upper bound values}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 5>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @bound_count(%n: index) {
  // expected-error @below {{expected 1 upper bound values}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808, 4>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @results_outputs(%n: index, %t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' op produces 0 results, but has only 1 outputs}}
  "scf.forall"(%n, %t) <{operandSegmentSizes = array<i32: 0, 1, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index, tensor<4xf32>) -> ()
  return
}

// -----

func.func @output_arg_type(%n: index, %t: tensor<4xf32>) {
  // expected-error @below {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
  %r = "scf.forall"(%n, %t) <{operandSegmentSizes = array<i32: 0, 1, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index, %o: tensor<4xi32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @iv_type(%n: index) {
  // expected-error @below {{'scf.forall' op expects 0-th block argument to be an index}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: i32):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @arg_count(%n: index) {
  // expected-error @below {{'scf.forall' op region expects 1 arguments}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
  ^bb0(%i: index, %j: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @in_parallel_body(%n: index, %a: memref<4xf32>) {
  scf.forall (%i) in (%n) {
    %c = arith.constant 0.0 : f32
    // expected-error @below {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      memref.store %c, %a[%i] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @in_parallel_parent() {
  // expected-error @below {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
  scf.forall.in_parallel {
  }
  return
}

// -----

func.func @yield_in_forall(%n: index) {
  scf.forall (%i) in (%n) {
    // expected-error @below {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
    scf.yield
  }
  return
}
