// memref reshape, view, transpose and subview verifier errors, with mlir-opt 22's
// messages (the same file passes `mlir-opt --verify-diagnostics --split-input-file`).
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op collapsed dim size (4) must equal reassociation group size (6)}}
  %a = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<4xf32> into memref<2x3xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op invalid number of reassociation groups: found 2, expected 1}}
  %a = memref.collapse_shape %m [[0], [1]] : memref<4x4xf32> into memref<16xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op reassociation indices must be contiguous}}
  %a = memref.collapse_shape %m [[1, 0]] : memref<4x4xf32> into memref<16xf32>
  return
}

// -----

func.func @f(%m: memref<?x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %a = memref.collapse_shape %m [[0, 1]] : memref<?x4xf32> into memref<16xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op expected collapsed type to be 'memref<16xf32>' but found 'memref<16xi32>'}}
  %a = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xi32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<2x2xf32>' but found 'memref<2x2xf32, strided<[1, 2]>>'}}
  %a = memref.expand_shape %m [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32, strided<[1, 2]>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op expected collapsed type to be 'memref<16xf32>' but found 'memref<16xf32, 1>'}}
  %a = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32, 1>
  return
}

// -----

func.func @f(%m: memref<64xi8>, %n: index) {
  // expected-error @+1 {{'memref.view' op incorrect number of dynamic sizes, has 1, expected 0}}
  %a = memref.view %m[%n][%n] : memref<64xi8> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<64xi8>, %n: index) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<64xi8>' and view memref type 'memref<4x4xf32, 1>'}}
  %a = memref.view %m[%n][] : memref<64xi8> to memref<4x4xf32, 1>
  return
}

// -----

func.func @f(%m: memref<4x8xf32>) {
  // expected-error @+1 {{'memref.transpose' op result type 'memref<4x8xf32>' is not equivalent to the canonical transposed input type 'memref<8x4xf32, affine_map<(d0, d1) -> (d0 + d1 * 8)>>'}}
  %t = memref.transpose %m (i, j) -> (j, i) : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

func.func @f(%m: memref<4x8xf32>) {
  // expected-error @+1 {{'memref.transpose' op expected a permutation map of same rank as the input}}
  %t = memref.transpose %m (i) -> (i) : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.expand_shape' op expected number of static shape bounds to be equal to the output rank (2) but found 1 inputs instead}}
  %a = memref.expand_shape %m [[0, 1]] output_shape [2] : memref<4xf32> into memref<2x2xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.collapse_shape' op invalid number of reassociation groups: found 1, expected 2}}
  %a = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16x1xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1]>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<2x3xf32, strided<[4, 1]>>'}}
  %a = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x3xf32, strided<[4, 1]>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result element type to be 'f32', but got 'memref<2x2xi32, strided<[4, 1]>>'}}
  %a = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xi32, strided<[4, 1]>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{different memory spaces specified for base memref type 'memref<4x4xf32>' and subview memref type 'memref<2x2xf32, strided<[4, 1]>, 1>'}}
  %a = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>, 1>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result rank to be smaller or equal to the source rank, but got 'memref<2x2x1xf32>'}}
  %a = memref.subview %m[0, 0][2, 2][1, 1] : memref<4x4xf32> to memref<2x2x1xf32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<1x2xf32, strided<[4, 1], offset: 5>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2xf32, strided<[1], offset: 4>>'}}
  %a = memref.subview %m[1, 1][1, 2][1, 1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 4>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>, %n: index) {
  // expected-error @+1 {{expected result type to be 'memref<1x2xf32, strided<[4, 1], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2xf32, strided<[1], offset: 4>>'}}
  %a = memref.subview %m[%n, 1][1, 2][1, 1] : memref<4x4xf32> to memref<2xf32, strided<[1], offset: 4>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1], offset: 1>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32, strided<[4, 1], offset: ?>>'}}
  %a = memref.subview %m[0, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: ?>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<2x2xf32, strided<[4, 1], offset: 1>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32, strided<[?, ?], offset: ?>>'}}
  %a = memref.subview %m[0, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[?, ?], offset: ?>>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected result type to be 'memref<1x2xf32, strided<[4, 1], offset: 1>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<1x2xf32, strided<[7, 1], offset: 1>>'}}
  %a = memref.subview %m[0, 1][1, 2][1, 1] : memref<4x4xf32> to memref<1x2xf32, strided<[7, 1], offset: 1>>
  return
}
