// Numbers in builtin types and attributes past MLIR's limits: each is MLIR's
// parse error (xDSL alone accepts most of them, or words them otherwise).
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{invalid dimension}}
func.func @f(%m: memref<99999999999999999999xf32>) { return }

// -----

// expected-error @+1 {{invalid dimension}}
func.func @f(%v: vector<99999999999999999999xf32>) { return }

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 0}}
func.func @f(%v: vector<0xf32>) { return }

// -----

// expected-error @+1 {{vector types must have positive constant sizes but got 0, 4}}
func.func @f(%v: vector<0x4xf32>) { return }

// -----

// expected-error @+1 {{integer bitwidth is limited to 16777215 bits}}
"test.op"() {a = 1 : i99999999} : () -> ()

// -----

func.func @f() -> index {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant 99999999999999999999 : index
  return %0 : index
}

// -----

func.func @f() -> index {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant -99999999999999999999999 : index
  return %0 : index
}

// -----

func.func @f() -> i8 {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant 300 : i8
  return %0 : i8
}

// -----

// expected-error @+1 {{expected a 64-bit signed integer or '?'}}
func.func @f(%m: memref<4xf32, strided<[99999999999999999999]>>) { return }

// -----

// expected-error @+1 {{constant too large for index}}
"test.op"() {m = affine_map<(d0) -> (d0 * 99999999999999999999)>} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range}}
"test.op"() {a = array<i32: 99999999999>} : () -> ()

// -----

// expected-error @+1 {{integer constant out of range for attribute}}
func.func @f(%m: memref<4xf32, 99999999999999999999>) { return }
