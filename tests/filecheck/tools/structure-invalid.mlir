// MLIR's structural checks, which xDSL's verifier does not make: dominance,
// terminator position, empty blocks, blocks without terminator.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @use_before_def() {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "test.use"(%c) : (f32) -> ()
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %c = arith.constant 1.0 : f32
  func.return
}

// -----

func.func @use_in_other_branch(%b: i1) {
  cf.cond_br %b, ^left, ^right
^left:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %c = arith.constant 1.0 : f32
  cf.br ^right
^right:
  // expected-error @+1 {{operand #0 does not dominate this use}}
  "test.use"(%c) : (f32) -> ()
  func.return
}

// -----

func.func @terminator_in_the_middle() {
  // expected-error @+1 {{'func.return' op must be the last operation in the parent block}}
  "func.return"() : () -> ()
  %c = arith.constant 1.0 : f32
}

// -----

// expected-error @+1 {{empty block: expect at least a terminator}}
func.func @empty_block() {
^bb0:
}

// -----

func.func @no_terminator() {
  // expected-error @+1 {{block with no terminator, has}}
  %c = arith.constant 1.0 : f32
}
