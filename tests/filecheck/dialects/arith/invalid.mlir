// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// arith ops that mlir-opt 22 rejects, with its messages (each checked with
// mlir-opt-22 --verify-diagnostics on this file).

func.func @a(%i: i32) {
// expected-error @+1 {{'arith.extsi' op operand type 'i32' and result type 'i16' are cast incompatible}}
  %0 = arith.extsi %i : i32 to i16
  return
}

// -----

func.func @a(%i: i32) {
// expected-error @+1 {{'arith.trunci' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.trunci %i : i32 to i64
  return
}

// -----

func.func @a(%i: vector<4xi32>) {
// expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = arith.extsi %i : vector<4xi32> to vector<8xi64>
  return
}

// -----

func.func @a(%i: f32) {
// expected-error @+1 {{'arith.extsi' op operand #0 must be signless-fixed-width-integer-like, but got 'f32'}}
  %0 = arith.extsi %i : f32 to i64
  return
}

// -----

func.func @a(%i: i32) {
// expected-error @+1 {{'arith.index_cast' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_cast %i : i32 to i64
  return
}

// -----

func.func @a(%i: f32) {
// expected-error @+1 {{'arith.truncf' op operand type 'f32' and result type 'f64' are cast incompatible}}
  %0 = arith.truncf %i : f32 to f64
  return
}

// -----

func.func @a(%i: f32) {
// expected-error @+1 {{'arith.extf' op operand type 'f32' and result type 'f16' are cast incompatible}}
  %0 = arith.extf %i : f32 to f16
  return
}

// -----

func.func @a(%c: vector<4xi1>, %v: vector<8xf32>) {
// expected-error @+1 {{'arith.select' op failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %v, %v : vector<4xi1>, vector<8xf32>
  return
}

// -----

func.func @a(%c: i32, %v: f32) {
// expected-error @+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = arith.select %c, %v, %v : i32, f32
  return
}

// -----

func.func @a(%c: i1, %v: f32, %w: f64) {
// expected-error @+1 {{'arith.select' op failed to verify that all of {true_value, false_value, result} have same type}}
  %0 = "arith.select"(%c, %v, %w) : (i1, f32, f64) -> f32
  return
}

// -----

func.func @a(%c: vector<4xi32>) {
// expected-error @+1 {{'arith.cmpi' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%c, %c) <{predicate = 0 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @a(%c: f32) {
// expected-error @+1 {{custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f32'}}
  %0 = arith.cmpi eq, %c, %c : f32
  return
}

// -----

func.func @a(%c: i32) {
// expected-error @+1 {{'arith.remf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.remf %c, %c : i32
  return
}

// -----

func.func @a(%c: vector<4xf32>) {
// expected-error @+1 {{'arith.cmpf' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%c, %c) <{fastmath = #arith.fastmath<none>, predicate = 1 : i64}> : (vector<4xf32>, vector<4xf32>) -> vector<8xi1>
  return
}

// -----

func.func @a(%c: f32) {
// expected-error @+1 {{'arith.truncf' op result #0 must be floating-point-like, but got 'i16'}}
  %0 = arith.truncf %c : f32 to i16
  return
}

// -----

func.func @a(%c: vector<4xf32>) {
// expected-error @+1 {{'arith.fptosi' op requires the same shape for all operands and results}}
  %0 = arith.fptosi %c : vector<4xf32> to i32
  return
}

// -----

func.func @a(%c: f32) {
// expected-error @+1 {{custom op 'arith.cmpf' 'lhs' must be floating-point-like, but got 'i32'}}
  %0 = arith.cmpf olt, %c, %c : i32
  return
}
