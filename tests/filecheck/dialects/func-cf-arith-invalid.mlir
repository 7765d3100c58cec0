// MLIR 22's verifiers of func, cf, arith and memref ops that xDSL 0.75 lacks:
// return values against the function type, branch operands against the target
// block, entry block arguments, calls, and enum properties in range.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @ret_count() -> i32 {
  // expected-error @below {{'func.return' op has 0 operands, but enclosing function (@ret_count) returns 1}}
  return
}

// -----

func.func @ret_type(%x: i64) -> i32 {
  // expected-error @below {{type of return operand 0 ('i64') doesn't match function result type ('i32') in function @ret_type}}
  return %x : i64
}

// -----

func.func @ret_extra(%x: i32) {
  // expected-error @below {{'func.return' op has 1 operands, but enclosing function (@ret_extra) returns 0}}
  return %x : i32
}

// -----

func.func @ret_nested(%c: i1) {
  scf.if %c {
    // expected-error @below {{'func.return' op expects parent op 'func.func'}}
    func.return
  }
  return
}

// -----

func.func @br_count(%x: i32) {
  // expected-error @below {{branch has 0 operands for successor #0, but target block has 1}}
  cf.br ^bb1
^bb1(%y: i32):
  return
}

// -----

func.func @br_type(%x: i64) {
  // expected-error @below {{type mismatch for bb argument #0 of successor #0}}
  cf.br ^bb1(%x : i64)
^bb1(%y: i32):
  return
}

// -----

func.func @cond_br_true_count(%c: i1, %x: i32) {
  // expected-error @below {{branch has 0 operands for successor #0, but target block has 1}}
  cf.cond_br %c, ^bb1, ^bb2
^bb1(%y: i32):
  return
^bb2:
  return
}

// -----

func.func @cond_br_false_type(%c: i1, %x: i64) {
  // expected-error @below {{type mismatch for bb argument #0 of successor #1}}
  cf.cond_br %c, ^bb1, ^bb2(%x : i64)
^bb1:
  return
^bb2(%z: i32):
  return
}

// -----

func.func @switch_count(%f: i32, %x: i32) {
  // expected-error @below {{branch has 0 operands for successor #0, but target block has 1}}
  cf.switch %f : i32, [
    default: ^bb1,
    42: ^bb2(%x : i32)
  ]
^bb1(%a: i32):
  return
^bb2(%b: i32):
  return
}

// -----

func.func @call_type(%x: i64) {
  // expected-error @below {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  call @g(%x) : (i64) -> ()
  return
}
func.func private @g(i32)

// -----

func.func @call_missing(%x: i64) {
  // expected-error @below {{'func.call' op 'nope' does not reference a valid function}}
  call @nope(%x) : (i64) -> ()
  return
}

// -----

func.func @call_results(%x: i32) {
  // expected-error @below {{'func.call' op incorrect number of results for callee}}
  %r = call @g(%x) : (i32) -> i32
  return
}
func.func private @g(i32)

// -----

func.func @entry_args(%x: i32) {
// expected-error @below {{invalid block name in region with named arguments}}
^bb0(%y: i64):
  return
}

// -----

// expected-error @below {{'func.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_args_generic"}> ({
^bb0(%y: i64):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @below {{'func.func' op entry block must have 1 arguments to match function signature}}
"func.func"() <{function_type = (i32) -> (), sym_name = "entry_nargs_generic"}> ({
^bb0:
  "func.return"() : () -> ()
}) : () -> ()

// -----

func.func @cmpi_pred(%a: i32, %b: i32) -> i1 {
  // expected-error @below {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %0 = "arith.cmpi"(%a, %b) {predicate = 42 : i64} : (i32, i32) -> i1
  return %0 : i1
}

// -----

func.func @cmpi_pred_neg(%a: i32, %b: i32) -> i1 {
  // expected-error @below {{invalid properties {predicate = -1 : i64} for op arith.cmpi: Invalid attribute `predicate` in property conversion: -1 : i64}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = -1 : i64}> : (i32, i32) -> i1
  return %0 : i1
}

// -----

func.func @cmpi_pred_i32(%a: i32, %b: i32) -> i1 {
  // expected-error @below {{invalid properties {predicate = 1 : i32} for op arith.cmpi: Invalid attribute `predicate` in property conversion: 1 : i32}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 1 : i32}> : (i32, i32) -> i1
  return %0 : i1
}

// -----

func.func @cmpf_pred(%a: f32, %b: f32) -> i1 {
  // expected-error @below {{'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}}
  %0 = "arith.cmpf"(%a, %b) {predicate = 16 : i64} : (f32, f32) -> i1
  return %0 : i1
}

// -----

func.func @cmpf_pred_big(%a: f32, %b: f32) -> i1 {
  // expected-error @below {{invalid properties {predicate = 99999999999 : i64} for op arith.cmpf: Invalid attribute `predicate` in property conversion: 99999999999 : i64}}
  %0 = "arith.cmpf"(%a, %b) <{predicate = 99999999999 : i64}> : (f32, f32) -> i1
  return %0 : i1
}

// -----

func.func @cmpi_missing(%a: i32, %b: i32) -> i1 {
  // expected-error @below {{'arith.cmpi' op requires attribute 'predicate'}}
  %0 = "arith.cmpi"(%a, %b) : (i32, i32) -> i1
  return %0 : i1
}

// -----

func.func @atomic_kind(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  // expected-error @below {{invalid properties {kind = 99 : i64} for op memref.atomic_rmw: Invalid attribute `kind` in property conversion: 99 : i64}}
  %0 = "memref.atomic_rmw"(%v, %m, %i) <{kind = 99 : i64}> : (f32, memref<4xf32>, index) -> f32
  return %0 : f32
}

// -----

func.func @cond_br_cond_type(%c: i32) {
  // expected-error @below {{'cf.cond_br' op operand #0 must be 1-bit signless integer, but got 'i32'}}
  "cf.cond_br"(%c) [^bb1, ^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  return
}
