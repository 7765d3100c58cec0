// MLIR 22's verifiers of the scf ops: every yield, condition and reduce matches
// what its parent op expects, in number and type (xDSL 0.75 accepts most of these).
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @if_else_yields_nothing(%c: i1) -> i32 {
  // expected-error @below {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = scf.if %c -> (i32) {
    %1 = arith.constant 1 : i32
    scf.yield %1 : i32
  } else {
    // expected-note @below {{region branch point}}
    scf.yield
  }
  return %0 : i32
}

// -----

func.func @if_else_wrong_type(%c: i1) -> i32 {
  // expected-error @below {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i64' should match successor input type #0 'i32'}}
  %0 = scf.if %c -> (i32) {
    %1 = arith.constant 1 : i32
    scf.yield %1 : i32
  } else {
    %2 = arith.constant 1 : i64
    // expected-note @below {{region branch point}}
    scf.yield %2 : i64
  }
  return %0 : i32
}

// -----

func.func @if_then_too_many(%c: i1) -> i32 {
  // expected-error @below {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
  %0 = scf.if %c -> (i32) {
    %1 = arith.constant 1 : i32
    // expected-note @below {{region branch point}}
    scf.yield %1, %1 : i32, i32
  } else {
    %2 = arith.constant 1 : i32
    scf.yield %2 : i32
  }
  return %0 : i32
}

// -----

func.func @if_no_else(%c: i1) -> i32 {
  // expected-error @below {{'scf.if' op must have an else block if defining values}}
  %0 = scf.if %c -> (i32) {
    %1 = arith.constant 1 : i32
    scf.yield %1 : i32
  }
  return %0 : i32
}

// -----

func.func @if_no_results_yields(%c: i1) {
  // expected-error @below {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 0 inputs}}
  scf.if %c {
    %1 = arith.constant 1 : i32
    // expected-note @below {{region branch point}}
    scf.yield %1 : i32
  }
  return
}

// -----

func.func @if_generic_else_empty(%c: i1) -> i32 {
  // expected-error @below {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %0 = "scf.if"(%c) ({
    %1 = arith.constant 1 : i32
    scf.yield %1 : i32
  }, {
    // expected-note @below {{region branch point}}
    scf.yield
  }) : (i1) -> i32
  return %0 : i32
}

// -----

func.func @if_generic_then_two_blocks(%c: i1) {
  // expected-error @below {{'scf.if' op expects region #0 to have 0 or 1 blocks}}
  "scf.if"(%c) ({
    cf.br ^bb1
  ^bb1:
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @if_generic_wrong_terminator(%c: i1) {
  "scf.if"(%c) ({
    // expected-error @below {{'scf.condition' op expects parent op 'scf.while'}}
    "scf.condition"(%c) : (i1) -> ()
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @if_generic_then_args(%c: i1) {
  // expected-error @below {{'scf.if' op region #0 should have no arguments}}
  "scf.if"(%c) ({
  ^bb0(%x: i32):
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @if_generic_no_yield(%c: i1) {
  "scf.if"(%c) ({
    // expected-error @below {{block with no terminator, has %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32}}
    %1 = arith.constant 1 : i32
  }, {
  }) : (i1) -> ()
  return
}

// -----

func.func @for_yield_count(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  // expected-error @below {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    // expected-note @below {{region branch point}}
    scf.yield
  }
  return %r : f32
}

// -----

func.func @for_yield_type(%lb: index, %ub: index, %s: index, %x: f32) -> f32 {
  // expected-error @below {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'f32' != 'i32'}}
  %r = scf.for %i = %lb to %ub step %s iter_args(%a = %x) -> (f32) {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  return %r : f32
}

// -----

func.func @for_generic_results(%lb: index, %ub: index, %s: index, %x: f32) {
  // expected-error @below {{operation defines 2 results but was provided 1 to bind}}
  %r = "scf.for"(%lb, %ub, %s, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> (f32, f32)
  return
}

// -----

func.func @for_generic_iter_type(%lb: index, %ub: index, %s: index, %x: f32) {
  // expected-error @below {{'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'f32' != 'i32'}}
  %r = "scf.for"(%lb, %ub, %s, %x) ({
  ^bb0(%i: index, %a: f32):
    scf.yield %a : f32
  }) : (index, index, index, f32) -> (i32)
  return
}

// -----

func.func @for_generic_block_arg_type(%lb: index, %ub: index, %s: index, %x: f32) {
  // expected-error @below {{'scf.for' op 0-th init and 0-th region iter_arg have different type: 'f32' != 'i32'}}
  %r = "scf.for"(%lb, %ub, %s, %x) ({
  ^bb0(%i: index, %a: i32):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> (f32)
  return
}

// -----

func.func @for_generic_block_args(%lb: index, %ub: index, %s: index, %x: f32) {
  // expected-error @below {{'scf.for' op different number of inits and region iter_args: 1 != 0}}
  %r = "scf.for"(%lb, %ub, %s, %x) ({
  ^bb0(%i: index):
    scf.yield %x : f32
  }) : (index, index, index, f32) -> (f32)
  return
}

// -----

func.func @for_generic_no_args(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.for' op different number of inits and region iter_args: 0 != 18446744073709551615}}
  "scf.for"(%lb, %ub, %s) ({
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_generic_iv_type(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.for' op expected induction variable to be same type as bounds and step}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: i32):
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_two_blocks(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.for' op expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    cf.br ^bb1
  ^bb1:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_empty_region(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.for' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  "scf.for"(%lb, %ub, %s) ({
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_bad_terminator(%lb: index, %ub: index, %s: index) {
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    // expected-error @below {{'func.return' op expects parent op 'func.func'}}
    func.return
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_too_few_operands(%lb: index, %ub: index) {
  // expected-error @below {{'scf.for' op expected 3 or more operands, but found 2}}
  "scf.for"(%lb, %ub) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, index) -> ()
  return
}

// -----

func.func @for_no_region(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.for' op requires one region}}
  "scf.for"(%lb, %ub, %s) : (index, index, index) -> ()
  return
}

// -----

func.func @while_cond_types(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from Operation scf.condition to parent: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    %f = arith.constant 1.0 : f32
    // expected-note @below {{region branch point}}
    scf.condition(%c) %f : f32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_cond_count(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from Operation scf.condition to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    // expected-note @below {{region branch point}}
    scf.condition(%c)
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  return
}

// -----

func.func @while_yield_count(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    // expected-note @below {{region branch point}}
    scf.yield
  }
  return
}

// -----

func.func @while_yield_type(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    %f = arith.constant 1.0 : f32
    // expected-note @below {{region branch point}}
    scf.yield %f : f32
  }
  return
}

// -----

func.func @while_after_args(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  %r = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    // expected-note @below {{region branch point}}
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: f32):
    scf.yield %x : i32
  }
  return
}

// -----

func.func @while_generic_before_args(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
  // expected-note @below {{region branch point}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: f32):
    %c = arith.constant true
    scf.condition(%c) %x : i32
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_generic_before_nargs(%x: i32) {
  // expected-error @below {{'scf.while' op along control flow edge from parent to Region #0: region branch point has 1 operands, but region successor needs 0 inputs}}
  // expected-note @below {{region branch point}}
  %r = "scf.while"(%x) ({
    %c = arith.constant true
    scf.condition(%c) %x : i32
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_before_yield(%x: i32) {
  // expected-error @below {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    // expected-note @below {{terminator here}}
    scf.yield %a : i32
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_after_condition(%x: i32) {
  // expected-error @below {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    %c = arith.constant true
    scf.condition(%c) %a : i32
  }, {
  ^bb0(%b: i32):
    %c = arith.constant true
    // expected-note @below {{terminator here}}
    scf.condition(%c) %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @while_empty_before(%x: i32) {
  // expected-error @below {{'scf.while' op region #0 ('before') failed to verify constraint: region with 1 blocks}}
  %r = "scf.while"(%x) ({
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @condition_i32(%x: i32) {
  // expected-error @below {{cannot name an operation with no results}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    "scf.condition"(%a) : (i32) -> ()
  }, {
  ^bb0:
    scf.yield %x : i32
  }) : (i32) -> ()
  return
}

// -----

func.func @condition_outside(%c: i1) {
  // expected-error @below {{'scf.condition' op expects parent op 'scf.while'}}
  scf.condition(%c)
}

// -----

func.func @while_multiblock_before(%x: i32) {
  // expected-error @below {{'scf.while' op expects region #0 to have 0 or 1 blocks}}
  %r = "scf.while"(%x) ({
  ^bb0(%a: i32):
    cf.br ^bb1
  ^bb1:
    %c = arith.constant true
    scf.condition(%c) %x : i32
  }, {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }) : (i32) -> i32
  return
}

// -----

func.func @switch_case_yield(%i: index) -> i32 {
  // expected-error @below {{'scf.index_switch' op expected each region to return 1 values, but default region returns 0}}
  %r = scf.index_switch %i -> i32
  case 2 {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  default {
    // expected-note @below {{see yield operation here}}
    scf.yield
  }
  return %r : i32
}

// -----

func.func @switch_case_type(%i: index) -> i32 {
  // expected-error @below {{'scf.index_switch' op expected result #0 of each region to be 'i32'}}
  %r = scf.index_switch %i -> i32
  case 2 {
    %c = arith.constant 1 : i64
    // expected-note @below {{case region #0 returns 'i64' here}}
    scf.yield %c : i64
  }
  default {
    %c = arith.constant 1 : i32
    scf.yield %c : i32
  }
  return %r : i32
}

// -----

func.func @switch_cases_count(%i: index) {
  // expected-error @below {{'scf.index_switch' op has 1 case regions but 2 case values}}
  "scf.index_switch"(%i) <{cases = array<i64: 1, 2>}> ({
    scf.yield
  }, {
    scf.yield
  }) : (index) -> ()
  return
}

// -----

func.func @switch_dup(%i: index) {
  // expected-error @below {{'scf.index_switch' op has duplicate case value: 1}}
  scf.index_switch %i
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
    scf.yield
  }
  return
}

// -----

func.func @exec_no_block() {
  // expected-error @below {{'scf.execute_region' op region needs to have at least one block}}
  "scf.execute_region"() ({
  }) : () -> ()
  return
}

// -----

func.func @exec_args() {
  // expected-error @below {{'scf.execute_region' op region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%x: i32):
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @exec_yield_count() -> i32 {
  // expected-error @below {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.execute_region -> i32 {
    // expected-note @below {{region branch point}}
    scf.yield
  }
  return %r : i32
}

// -----

func.func @exec_yield_type() -> i32 {
  // expected-error @below {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'i64' should match successor input type #0 'i32'}}
  %r = scf.execute_region -> i32 {
    %c = arith.constant 1 : i64
    // expected-note @below {{region branch point}}
    scf.yield %c : i64
  }
  return %r : i32
}

// -----

func.func @exec_multi_yield(%c: i1) -> i32 {
  // expected-error @below {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %a = arith.constant 1 : i32
    scf.yield %a : i32
  ^bb2:
    // expected-note @below {{region branch point}}
    scf.yield
  }
  return %r : i32
}

// -----

func.func @parallel_reduce_count(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  // expected-error @below {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @parallel_reduce_type(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %one = arith.constant 1 : i32
    // expected-error @below {{'scf.reduce' op expects type of 0-th reduction operand: 'i32' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%one : i32) {
    ^bb0(%l: i32, %rr: i32):
      scf.reduce.return %l : i32
    }
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @reduce_return_type(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    scf.reduce(%one : f32) {
    ^bb0(%l: f32, %rr: f32):
      %z = arith.constant 0 : i32
      // expected-error @below {{'scf.reduce.return' op must have type 'f32' (the type of the reduction inputs)}}
      scf.reduce.return %z : i32
    }
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @reduce_block_args(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    // expected-error @below {{'scf.reduce' op expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%one : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @parallel_zero_step(%lb: index, %ub: index) {
  %s = arith.constant 0 : index
  // expected-error @below {{'scf.parallel' op constant step operand must be positive}}
  "scf.parallel"(%lb, %ub, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @parallel_ivs(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.parallel' op expects the same number of induction variables: 2 as bound and step values: 1}}
  "scf.parallel"(%lb, %ub, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index, %j: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @parallel_terminator(%lb: index, %ub: index, %s: index) {
  // expected-error @below {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
  "scf.parallel"(%lb, %ub, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    // expected-note @below {{terminator here}}
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @reduce_term(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    // expected-error @below {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
    "scf.reduce"(%one) ({
    ^bb0(%l: f32, %rr: f32):
      "test.x"() : () -> ()
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @reduce_empty(%lb: index, %ub: index, %s: index) {
  %init = arith.constant 0.0 : f32
  %r = "scf.parallel"(%lb, %ub, %s, %init) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    // expected-error @below {{empty block: expect at least a terminator}}
    "scf.reduce"(%one) ({
    ^bb0(%l: f32, %rr: f32):
    }) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  return
}

// -----

func.func @yield_in_func() {
  // expected-error @below {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
  scf.yield
}

// -----

func.func @if_generic_cond_i32(%c: i32) {
  // expected-error @below {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "scf.if"(%c) ({
    scf.yield
  }, {
  }) : (i32) -> ()
  return
}

// -----

func.func @for_mixed_bounds(%lb: index, %ub: i32, %s: index) {
  // expected-error @below {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: index):
    scf.yield
  }) : (index, i32, index) -> ()
  return
}

// -----

func.func @for_f32_bounds(%lb: f32, %ub: f32, %s: f32) {
  // expected-error @below {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
  "scf.for"(%lb, %ub, %s) ({
  ^bb0(%i: f32):
    scf.yield
  }) : (f32, f32, f32) -> ()
  return
}
