// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// A loop whose upper bound is not above its lower bound runs zero times:
// its results are its inits.

func.func @zero_trip(%x: i32, %n: index) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %i = %c4 to %c0 step %c1 iter_args(%a = %x) -> (i32) {
    %y = arith.addi %a, %a : i32
    scf.yield %y : i32
  }
  %1 = scf.for %i = %n to %n step %c1 iter_args(%a = %x) -> (i32) {
    %y = arith.muli %a, %a : i32
    scf.yield %y : i32
  }
  return %0, %1 : i32, i32
}

// -----

// MLIR 22's trip count: a zero or negative constant step means zero trips,
// and `ub - lb` wraps at the bound's width (-128 to 127 in i8 is "negative":
// zero trips).

func.func @step_and_wrap(%m: memref<?xindex>, %b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %cm1 = arith.constant -1 : index
  scf.for %i = %c0 to %c4 step %cm1 {
    memref.store %i, %m[%i] : memref<?xindex>
  }
  scf.for %i = %c0 to %c4 step %c0 {
    memref.store %i, %m[%i] : memref<?xindex>
  }
  %lo = arith.constant -128 : i8
  %hi = arith.constant 127 : i8
  %s = arith.constant 100 : i8
  scf.for %i = %lo to %hi step %s : i8 {
    memref.store %i, %b[%c0] : memref<?xi8>
  }
  return
}

// -----

// A loop of one trip is replaced by its body, the induction variable by the
// lower bound; two trips stay.

func.func @one_trip(%x: i32, %m: memref<8xi32>) -> i32 {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c2 to %c4 step %c8 iter_args(%a = %x) -> (i32) {
    memref.store %a, %m[%i] : memref<8xi32>
    %y = arith.addi %a, %a : i32
    scf.yield %y : i32
  }
  scf.for %i = %c1 to %c4 step %c2 {
    memref.store %r, %m[%i] : memref<8xi32>
  }
  scf.for %i = %c1 to %c3 step %c3 {
    memref.store %r, %m[%i] : memref<8xi32>
  }
  return %r : i32
}

// -----

// With non-constant bounds the trip count is known only for
// `ub = addi(lb, c)` carrying nsw.

func.func @addi_bound(%x: index, %m: memref<?xindex>) {
  %c4 = arith.constant 4 : index
  %y = arith.addi %x, %c4 overflow<nsw> : index
  scf.for %i = %x to %y step %c4 {
    memref.store %i, %m[%i] : memref<?xindex>
  }
  %z = arith.addi %x, %c4 : index
  scf.for %i = %x to %z step %c4 {
    memref.store %i, %m[%i] : memref<?xindex>
  }
  return
}

// -----

// Empty loops: without results they are dead; with a known trip count above
// one and yielding only values from outside, they are what they yield.

func.func @empty(%n: index, %x: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  %r = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %x) -> (i32) {
    scf.yield %x : i32
  }
  return %r : i32
}

// -----

// Loop-invariant and unused iter_args go: one yielded unchanged, one whose
// init is yielded, one unused in and after the loop; a real reduction stays.

func.func @iter_args(%n: index, %x: i32, %y: i32, %m: memref<?xi32>) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y, %c = %x, %d = %y) -> (i32, i32, i32, i32) {
    %v = memref.load %m[%i] : memref<?xi32>
    %s = arith.addi %c, %v : i32
    %t = arith.addi %b, %v : i32
    memref.store %t, %m[%i] : memref<?xi32>
    %u = arith.muli %d, %v : i32
    scf.yield %a, %y, %s, %u : i32, i32, i32, i32
  }
  return %r#0, %r#1, %r#2 : i32, i32, i32
}

// -----

// Two iter_args with the same init and the same yielded values are merged;
// two that only swap a common init are that init.

func.func @iter_args_dup(%n: index, %x: i32, %m: memref<?xi32>) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (i32, i32) {
    %v = memref.load %m[%i] : memref<?xi32>
    memref.store %a, %m[%i] : memref<?xi32>
    memref.store %b, %m[%c0] : memref<?xi32>
    scf.yield %v, %v : i32, i32
  }
  %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %x) -> (i32, i32) {
    memref.store %a, %m[%i] : memref<?xi32>
    scf.yield %b, %a : i32, i32
  }
  return %r#0, %r#1, %s#0, %s#1 : i32, i32, i32, i32
}

// -----

// scf.if on a constant: the taken region is inlined, a false one without
// else is erased.

func.func @if_constant(%x: i32, %y: i32, %m: memref<4xi32>) -> (i32, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %c0 = arith.constant 0 : index
  %0 = scf.if %t -> (i32) {
    %a = arith.addi %x, %y : i32
    scf.yield %a : i32
  } else {
    scf.yield %y : i32
  }
  %1 = scf.if %f -> (i32) {
    scf.yield %x : i32
  } else {
    %b = arith.muli %x, %y : i32
    scf.yield %b : i32
  }
  scf.if %f {
    memref.store %x, %m[%c0] : memref<4xi32>
  }
  scf.if %t {
    memref.store %y, %m[%c0] : memref<4xi32>
  }
  return %0, %1 : i32, i32
}

// -----

// A bounds check that compares constants folds away; one that does not
// stays, with its (empty) else removed.

func.func @bounds_check(%n: index, %m: memref<?xf32>, %v: f32) {
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %in = arith.cmpi ult, %c3, %c8 : index
  scf.if %in {
    memref.store %v, %m[%c3] : memref<?xf32>
  }
  %ok = arith.cmpi ult, %c3, %n : index
  scf.if %ok {
    memref.store %v, %m[%c3] : memref<?xf32>
  } else {
  }
  return
}

// -----

// Adjacent scf.if on the same condition (or its negation) are combined; the
// second one's uses of the first one's results take the yielded values.

func.func @combine_ifs(%c: i1, %m: memref<4xi32>, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = arith.constant true
  %a = scf.if %c -> (i32) {
    memref.store %x, %m[%c0] : memref<4xi32>
    scf.yield %x : i32
  } else {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  }
  %b = scf.if %c -> (i32) {
    %z = arith.muli %a, %x : i32
    memref.store %z, %m[%c1] : memref<4xi32>
    scf.yield %z : i32
  } else {
    scf.yield %a : i32
  }
  %n = arith.xori %c, %t : i1
  scf.if %n {
    memref.store %b, %m[%c0] : memref<4xi32>
  }
  return %a, %b : i32, i32
}

// -----

// Nested scf.if become one on `andi`; a value yielded by the outer one only
// becomes a select.

func.func @nested_ifs(%a: i1, %b: i1, %x: i32, %y: i32, %m: memref<4xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  scf.if %a {
    scf.if %b {
      memref.store %x, %m[%c0] : memref<4xi32>
    }
  }
  %r:2 = scf.if %a -> (i32, i32) {
    %i = scf.if %b -> (i32) {
      memref.store %y, %m[%c0] : memref<4xi32>
      scf.yield %x : i32
    } else {
      scf.yield %y : i32
    }
    scf.yield %i, %x : i32, i32
  } else {
    scf.yield %y, %y : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// -----

// In each branch the condition is known: its uses there become constants.

func.func @condition_propagation(%c: i1, %m: memref<4xi1>) {
  %c0 = arith.constant 0 : index
  scf.if %c {
    memref.store %c, %m[%c0] : memref<4xi1>
  } else {
    memref.store %c, %m[%c0] : memref<4xi1>
  }
  return
}

// -----

// Results yielding values from outside become selects (or the value when
// both branches yield it); results yielding true/false are the condition.

func.func @if_to_select(%c: i1, %x: i32, %y: i32, %m: memref<4xi32>) -> (i32, i32, i32, i1, i1) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %f = arith.constant false
  %r:5 = scf.if %c -> (i32, i32, i32, i1, i1) {
    %v = memref.load %m[%c0] : memref<4xi32>
    scf.yield %x, %v, %y, %t, %f : i32, i32, i32, i1, i1
  } else {
    scf.yield %y, %x, %y, %f, %t : i32, i32, i32, i1, i1
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4 : i32, i32, i32, i1, i1
}

// -----

// Unused results are dropped (duplicate ones merged first).

func.func @if_unused(%c: i1, %m: memref<4xi32>, %x: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %r:3 = scf.if %c -> (i32, i32, i32) {
    %v = memref.load %m[%c0] : memref<4xi32>
    memref.store %x, %m[%c0] : memref<4xi32>
    scf.yield %v, %v, %v : i32, i32, i32
  } else {
    %w = arith.addi %x, %x : i32
    memref.store %w, %m[%c0] : memref<4xi32>
    scf.yield %x, %w, %w : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}

// -----

// `if (not c) A else B` becomes `if c B else A`.

func.func @if_not(%c: i1, %m: memref<4xi32>, %x: i32, %y: i32) {
  %c0 = arith.constant 0 : index
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  scf.if %n {
    memref.store %x, %m[%c0] : memref<4xi32>
  } else {
    memref.store %y, %m[%c0] : memref<4xi32>
  }
  return
}

// -----

// A single-block scf.execute_region is inlined; scf.index_switch on a
// constant is its case (or its default).

func.func @region_ops(%x: i32) -> (i32, i32, i32) {
  %r = scf.execute_region -> i32 {
    %y = arith.addi %x, %x : i32
    scf.yield %y : i32
  }
  %c1 = arith.constant 1 : index
  %s = scf.index_switch %c1 -> i32
  case 0 {
    scf.yield %x : i32
  }
  case 1 {
    %y = arith.muli %x, %x : i32
    scf.yield %y : i32
  }
  default {
    scf.yield %r : i32
  }
  %c5 = arith.constant 5 : index
  %d = scf.index_switch %c5 -> i32
  case 0 {
    scf.yield %x : i32
  }
  default {
    %z = arith.subi %x, %r : i32
    scf.yield %z : i32
  }
  return %r, %s, %d : i32, i32, i32
}

// -----

// scf.while: duplicate loop-carried values are merged.

func.func @while_dup(%x: i32, %m: memref<4xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%a = %x, %b = %x) : (i32, i32) -> (i32, i32) {
    %v = memref.load %m[%c0] : memref<4xi32>
    %cond = arith.cmpi slt, %a, %v : i32
    scf.condition(%cond) %a, %b : i32, i32
  } do {
  ^bb0(%a2: i32, %b2: i32):
    %n = arith.addi %a2, %b2 : i32
    scf.yield %n, %n : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}

// -----

// A kernel-style loop nest: the constant leaves the loop with `x * 1.0`,
// the empty inner loop goes; a loop-carried value whose result is unused but
// that feeds itself stays (neither MLIR nor xgpu removes such cycles).

func.func @loop_nest(%n: index, %m: memref<?xf32>, %init: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %dead = %init) -> (f32, f32) {
    %one = arith.constant 1.0 : f32
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.mulf %v, %one : f32
    %s = arith.addf %acc, %w : f32
    scf.for %j = %c0 to %n step %c1 {
      %k = arith.addi %i, %j : index
    }
    %d = arith.addf %dead, %s : f32
    scf.yield %s, %d : f32, f32
  }
  return %r#0 : f32
}

// -----

func.func @branch_cycle() {
  cf.br ^bb1
^bb1:
  cf.br ^bb2
^bb2:
  cf.br ^bb1
}

// -----

func.func @cond_branch_cycle(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  cf.br ^bb1
}
