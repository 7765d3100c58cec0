// Errors of the scf ops' custom parsers, in mlir-opt 22's words and at its
// positions. mlir-opt-22 --verify-diagnostics accepts this file as well.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @while_types(%x: i32) {
  // expected-error @below {{custom op 'scf.while' expected as many input types as operands (expected 1 got 2)}}
  %0 = scf.while (%a = %x) : (i32, i32) -> (i32) {
  } do {
  }
  return
}

// -----

func.func @while_no_assignments(%x: i32) {
  // expected-error @below {{custom op 'scf.while' expected as many input types as operands (expected 0 got 1)}}
  %0 = scf.while : (i32) -> (i32) {
  } do {
  }
  return
}

// -----

func.func @for_results(%n: index, %x: i32) {
  // expected-error @below {{custom op 'scf.for' mismatch in number of loop-carried values and defined values}}
  %0:2 = scf.for %i = %n to %n step %n iter_args(%a = %x) -> (i32, i32) {
  }
  return
}

// -----

func.func @execute_region_no_inline_twice() {
  // expected-error @below {{custom op 'scf.execute_region' attribute 'no_inline' occurs more than once in the attribute list}}
  scf.execute_region no_inline {
    scf.yield
  } {no_inline}
  return
}

// -----

func.func @forall_bounds(%n: index) {
  // expected-error @below {{expected 1 upper bound values, got 2}}
  scf.forall (%i) in (%n, %n) {
  }
  return
}

// -----

func.func @forall_shared_outs_types(%n: index, %t: tensor<4xf32>) {
  // expected-error @below {{custom op 'scf.forall' number of operands and types do not match: got 1 operands and 0 types}}
  scf.forall (%i) in (%n) shared_outs(%o = %t) {
  }
  return
}

// -----

func.func @for_yield_missing(%n: index, %x: i32) {
  // The implicit scf.yield (MLIR adds one even with iter_args) yields nothing.
  // expected-error @below {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  // expected-note @below {{region branch point}}
  %0 = scf.for %i = %n to %n step %n iter_args(%a = %x) -> (i32) {
  }
  return
}

// -----

func.func @parallel_reductions(%n: index, %x: i32) {
  // expected-error @below {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %0 = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> i32 {
  }
  return
}

// -----

func.func @index_switch_empty_case(%n: index) {
  // expected-error @below {{'scf.index_switch' op region #1 ('caseRegions') failed to verify constraint: region with 1 blocks}}
  scf.index_switch %n
  case 1 {
  }
  default {
  }
  return
}

// -----

func.func @execute_region_empty() {
  // expected-error @below {{'scf.execute_region' op region needs to have at least one block}}
  scf.execute_region {
  }
  return
}

// -----

func.func @while_not_function_type(%x: i32) {
  // expected-error @below {{custom op 'scf.while' invalid kind of type specified: expected builtin.function, but found 'i32'}}
  %0 = scf.while (%a = %x) : i32 {
  } do {
  }
  return
}

// -----

func.func @switch_case_value(%n: index) {
  scf.index_switch %n
  // expected-error @below {{custom op 'scf.index_switch' expected integer value}}
  case x {
  }
  default {
  }
  return
}

// -----

func.func @reduce_types(%n: index, %x: i32) {
  %0 = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> i32 {
    // expected-error @below {{custom op 'scf.reduce' number of operands and types do not match: got 1 operands and 2 types}}
    scf.reduce(%x : i32, i32)
  }
  return
}

// -----

func.func @parallel_init_types(%n: index, %x: i32) {
  // expected-error @below {{custom op 'scf.parallel' number of operands and types do not match: got 1 operands and 2 types}}
  %0 = scf.parallel (%i) = (%n) to (%n) step (%n) init (%x) -> (i32, i32) {
  }
  return
}

// -----

func.func @forall_static_bounds(%n: index) {
  // expected-error @below {{'scf.forall' op requires attribute 'staticLowerBound'}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticUpperBound = array<i64: 5>}> ({
  ^bb0(%i: index):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @if_result_list(%c: i1) {
  // Two result types need parentheses: the second is not a region.
  // expected-error @below {{expected '{' to begin a region}}
  %0 = scf.if %c -> i32, i32 {
  }
  return
}
