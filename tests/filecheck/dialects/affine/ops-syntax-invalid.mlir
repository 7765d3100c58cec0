// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// Custom forms of affine ops that mlir-opt 22 cannot parse, with its messages.

func.func @apply_not_a_map(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{custom op 'affine.apply' invalid kind of attribute specified}}
  %a = affine.apply 3(%i)
  return
}

// -----

func.func @apply_no_operands(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected '(' in operand list}}
  %a = affine.apply affine_map<(d0) -> (d0)>
  %b = arith.constant 0 : index
  return
}

// -----

func.func @min_unclosed(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected ')' in operand list}}
  %a = affine.min affine_map<(d0) -> (d0)>(%i
  %b = arith.constant 0 : index
  return
}

// -----

func.func @load_unclosed(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected ']' in affine map}}
  %x = affine.load %m[%i : memref<4xf32>
  return
}

// -----

func.func @load_not_memref(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{custom op 'affine.load' invalid kind of type specified: expected builtin.memref, but found 'f32'}}
  %x = affine.load %m[%i] : f32
  return
}

// -----

func.func @vector_load_not_vector(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{custom op 'affine.vector_load' invalid kind of type specified: expected builtin.vector, but found 'f32'}}
  %v = affine.vector_load %m[%i] : memref<4xf32>, f32
  return
}

// -----

func.func @symbol_of_constant(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected ssa identifier}}
  %x = affine.load %m[symbol(3)] : memref<4xf32>
  return
}

// -----

func.func @for_iter_args_no_arrow(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected '->'}}
  affine.for %k = 0 to 4 iter_args(%a = %f) {
  }
  return
}

// -----

func.func @parallel_min_in_lower(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{use of undeclared identifier}}
  affine.parallel (%k) = (min(0, %i)) to (4) {
  }
  return
}

// -----

func.func @linearize_no_colon(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected ':'}}
  %l = affine.linearize_index [%i] by (4)
  return
}

// -----

func.func @linearize_no_bracket(%i: index, %f: f32, %m: memref<4xf32>) {
  // expected-error @+1 {{expected '['}}
  %l = affine.linearize_index disjoint %i by (4) : index
  return
}
