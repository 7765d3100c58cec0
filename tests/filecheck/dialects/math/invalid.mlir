// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// math ops that mlir-opt 22 rejects, with its messages (each checked with
// mlir-opt-22 --verify-diagnostics on this file).

func.func @a(%c: i32) {
// expected-error @+1 {{custom op 'math.isnan' 'operand' must be floating-point-like, but got 'i32'}}
  %0 = math.isnan %c : i32
  return
}

// -----

func.func @a(%c: f32) {
// expected-error @+1 {{'math.isnan' op result #0 must be bool-like, but got 'f32'}}
  %0 = "math.isnan"(%c) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  return
}

// -----

func.func @a(%c: f32, %d: f64) {
// expected-error @+1 {{'math.clampf' op requires the same type for all operands and results}}
  %0 = "math.clampf"(%c, %d, %c) <{fastmath = #arith.fastmath<none>}> : (f32, f64, f32) -> f32
  return
}

// -----

func.func @a(%c: f32) {
// expected-error @+1 {{'math.sincos' op failed to verify that all of {operand, sin, cos} have same type}}
  %0:2 = "math.sincos"(%c) <{fastmath = #arith.fastmath<none>}> : (f32) -> (f32, f64)
  return
}
