// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// Affine maps and integer sets that mlir-opt 22 rejects, with its messages.

// expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
#m0 = affine_map<(d0)[s0] -> (d0 * d0)>

// -----

// expected-error @+1 {{non-affine expression: right operand of floordiv has to be either a constant or symbolic}}
#m1 = affine_map<(d0)[s0] -> (s0 floordiv d0)>

// -----

// expected-error @+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
#m1 = affine_map<(d0)[s0] -> (s0 mod (d0 + 1))>

// -----

// expected-error @+1 {{non-affine expression: right operand of ceildiv has to be either a constant or symbolic}}
#m1 = affine_map<(d0, d1) -> (d0 ceildiv d1)>

// -----

// expected-error @+1 {{use of undeclared identifier}}
#m = affine_map<(d0) -> (d1)>

// -----

// expected-error @+1 {{missing right operand of binary operator}}
#m = affine_map<(d0) -> (d0 +)>

// -----

// expected-error @+1 {{missing left operand of binary operator}}
#m = affine_map<(d0) -> (* 2)>

// -----

// expected-error @+1 {{expected ')' in affine map range}}
#m = affine_map<(d0) -> (d0 d0)>

// -----

// expected-error @+1 {{redefinition of identifier 'd0'}}
#m = affine_map<(d0, d0) -> (d0)>

// -----

// expected-error @+1 {{expected '(' in affine map range}}
#m = affine_map<(d0) -> d0>

// -----

// expected-error @+1 {{expected '->' or ':'}}
#m = affine_map<(d0) = (d0)>

// -----

// expected-error @+1 {{expected ']' in symbol list}}
#m = affine_map<(d0)[s0 -> (d0)>

// -----

// expected-error @+1 {{expected AffineMap, but got IntegerSet}}
#m = affine_map<(d0) : (d0 >= 0)>

// -----

// expected-error @+1 {{expected IntegerSet, but got AffineMap}}
#s = affine_set<(d0) -> (d0)>

// -----

// expected-error @+1 {{expected '== affine-expr' or '>= affine-expr' at end of affine constraint}}
#s = affine_set<(d0) : (d0 > 0)>

// -----

// expected-error @+1 {{expected '== affine-expr' or '>= affine-expr' at end of affine constraint}}
#s = affine_set<(d0) : (d0)>

// -----

// expected-error @+1 {{constant too large for index}}
#m = affine_map<(d0) -> (d0 * 99999999999999999999)>

// -----

func.func @in_op(%i: index, %m: memref<4xf32>) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %x = affine.load %m[%i * %i] : memref<4xf32>
  return
}

// -----

// MLIR reports a non-affine product at the next operator of the chain.
// expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
#m = affine_map<(d0, d1) -> (d1 * (d0 * 2) floordiv 3)>
