// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// vector ops that mlir-opt 22 rejects, with its messages (each checked with
// mlir-opt-22 --verify-diagnostics on this file).

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.shape_cast' op has different number of elements at source (8) and result (7)}}
  %0 = vector.shape_cast %a : vector<2x4xf32> to vector<7xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.shape_cast' op has different source and result element types}}
  %0 = vector.shape_cast %a : vector<2x4xf32> to vector<8xi32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op transposition length mismatch: 1}}
  %0 = vector.transpose %a, [1] : vector<2x4xf32> to vector<4x2xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op dimension size mismatch at: 0}}
  %0 = vector.transpose %a, [0, 0] : vector<2x4xf32> to vector<4x2xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op dimension size mismatch at: 0}}
  %0 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<4x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op vector result rank mismatch: 1}}
  %0 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<8xf32>
  return
}

// -----

func.func @a(%a: f32) {
// expected-error @+1 {{custom op 'vector.from_elements' number of operands and types do not match: got 2 operands and 3 types}}
  %0 = vector.from_elements %a, %a : vector<3xf32>
  return
}

// -----

func.func @a() {
// expected-error @+1 {{'vector.step' op result #0 must be vector of index values of ranks 1, but got 'vector<4xi32>'}}
  %0 = vector.step : vector<4xi32>
  return
}

// -----

func.func @a() {
// expected-error @+1 {{'vector.constant_mask' op array attr of size out of bounds of vector result dimension size}}
  %0 = vector.constant_mask [5] : vector<4xi1>
  return
}

// -----

func.func @a() {
// expected-error @+1 {{'vector.constant_mask' op must specify array attr of size equal vector result rank}}
  %0 = vector.constant_mask [1, 2] : vector<4xi1>
  return
}

// -----

func.func @a() {
// expected-error @+1 {{'vector.constant_mask' op expected all mask dim sizes to be zeros, as a result of conjunction with zero mask dim}}
  %0 = vector.constant_mask [1, 0] : vector<4x4xi1>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected offsets, sizes and strides attributes of same size}}
  %0 = vector.extract_strided_slice %a {offsets = [0, 1, 2], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected sum(offsets, sizes) dimension 1 to be confined to [1, 5)}}
  %0 = vector.extract_strided_slice %a {offsets = [0, 3], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected strides to be confined to [1, 2)}}
  %0 = vector.extract_strided_slice %a {offsets = [0, 1], sizes = [2, 2], strides = [1, 2]} : vector<2x4xf32> to vector<2x2xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected result type to be 'vector<2x2xf32>'}}
  %0 = vector.extract_strided_slice %a {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<2x2xf32>) {
// expected-error @+1 {{'vector.insert_strided_slice' op expected sum(offsets, source vector shape) dimension 1 to be confined to [1, 5)}}
  %0 = vector.insert_strided_slice %b, %a {offsets = [0, 3], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<2x2xf32>) {
// expected-error @+1 {{'vector.insert_strided_slice' op expected offsets of same size as destination vector rank}}
  %0 = vector.insert_strided_slice %b, %a {offsets = [0], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.multi_reduction' op destination type 'vector<4xf32>' is incompatible with source type 'vector<2x4xf32>'}}
  %0 = vector.multi_reduction <add>, %a, %v [1] : vector<2x4xf32> to vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.multi_reduction' op destination type 'vector<4xf32>' is incompatible with source type 'vector<2x4xf32>'}}
  %0 = vector.multi_reduction <add>, %a, %v [2] : vector<2x4xf32> to vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.interleave' op failed to verify that type of 'result' is double the width of the inputs}}
  %0 = vector.interleave %a, %a : vector<4xf32> -> vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<5xf32>) {
// expected-error @+1 {{'vector.deinterleave' op failed to verify that the trailing dimension of the source vector has an even number of elements}}
  %0, %1 = vector.deinterleave %a : vector<5xf32> -> vector<2xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.print' op failed to verify that `source` or `punctuation` are not set when printing strings}}
  vector.print %a : vector<4xf32> str "x"
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index) {
// expected-error @+1 {{'vector.load' op base and result element types should match}}
  %0 = vector.load %m[%i] : memref<?xf32>, vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index) {
// expected-error @+1 {{'vector.load' op requires 2 indices}}
  %0 = vector.load %m[%i] : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xi32>) {
// expected-error @+1 {{'vector.store' op base and valueToStore element type should match}}
  vector.store %v, %m[%i] : memref<?xf32>, vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.store' op requires 2 indices}}
  vector.store %v, %m[%i] : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xi32>, %mask: vector<4xi1>) {
// expected-error @+1 {{'vector.maskedload' op base and result element type should match}}
  %0 = vector.maskedload %m[%i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<8xi1>) {
// expected-error @+1 {{'vector.maskedload' op expected result shape to match mask shape}}
  %0 = vector.maskedload %m[%i], %mask, %v : memref<?xf32>, vector<8xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>) {
// expected-error @+1 {{'vector.maskedload' op requires 1 indices}}
  %0 = vector.maskedload %m[%i, %i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %w: vector<8xf32>, %mask: vector<4xi1>) {
// expected-error @+1 {{'vector.maskedload' op expected pass_thru of same type as result type}}
  %0 = vector.maskedload %m[%i], %mask, %w : memref<?xf32>, vector<4xi1>, vector<8xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xi32>, %mask: vector<4xi1>) {
// expected-error @+1 {{'vector.maskedstore' op base and valueToStore element type should match}}
  vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<8xi1>) {
// expected-error @+1 {{'vector.maskedstore' op expected valueToStore shape to match mask shape}}
  vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<8xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>) {
// expected-error @+1 {{'vector.maskedstore' op requires 1 indices}}
  vector.maskedstore %m[%i, %i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xi32>, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.gather' op base and result element type should match}}
  %0 = vector.gather %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<4xi32> into vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.gather' op requires 1 indices}}
  %0 = vector.gather %m[%i, %i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %iv: vector<8xindex>) {
// expected-error @+1 {{'vector.gather' op expected result dim to match indices dim}}
  %0 = vector.gather %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<8xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<8xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.gather' op expected result dim to match mask dim}}
  %0 = vector.gather %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<8xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<8xf32>, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.gather' op expected pass_thru of same type as result type}}
  %0 = vector.gather %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<8xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xi32>, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.scatter' op base and valueToStore element type should match}}
  vector.scatter %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.scatter' op requires 1 indices}}
  vector.scatter %m[%i, %i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<4xi1>, %iv: vector<8xindex>) {
// expected-error @+1 {{'vector.scatter' op expected valueToStore dim to match indices dim}}
  vector.scatter %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<8xindex>, vector<4xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index, %v: vector<4xf32>, %mask: vector<8xi1>, %iv: vector<4xindex>) {
// expected-error @+1 {{'vector.scatter' op expected valueToStore dim to match mask dim}}
  vector.scatter %m[%i] [%iv], %mask, %v : memref<?xf32>, vector<4xindex>, vector<8xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
// expected-error @+1 {{'vector.contract' op expected an indexing map for each vector operand}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
// expected-error @+1 {{'vector.contract' op expected indexing map 0 to have 3 number of inputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
// expected-error @+1 {{'vector.contract' op expected indexing map 0 to have 2 number of outputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
// expected-error @+1 {{'vector.contract' op expected at least one contracting dimension pair}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<5x3xf32>, %c: vector<2x3xf32>) {
// expected-error @+1 {{'vector.contract' op invalid contracting dimension map}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<5x3xf32> into vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<3x2xf32>) {
// expected-error @+1 {{'vector.contract' op invalid accumulator/result vector shape, expected: 'vector<2x3xf32>'}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<3x2xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>, %s: f32) {
// expected-error @+1 {{'vector.contract' op unsupported contraction type}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<xor>} %a, %a, %s : vector<4xf32>, vector<4xf32> into f32
  return
}

// -----

func.func @a(%a: vector<4xi32>, %s: vector<4xf32>) {
// expected-error @+1 {{'vector.contract' op failed to verify that lhs and rhs have same element type}}
  %0 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} %a, %s, %s : vector<4xi32>, vector<4xf32> into vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.outerproduct' op expected 1-d vector for operand #1}}
  %0 = vector.outerproduct %a, %v : vector<2x4xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%v: vector<4xf32>, %w: vector<4xf32>, %acc: vector<4x4xf32>) {
// expected-error @+1 {{'vector.outerproduct' op unsupported outerproduct type}}
  %0 = vector.outerproduct %v, %w, %acc {kind = #vector.kind<xor>} : vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%v: vector<4xf32>, %i: vector<4xi32>) {
// expected-error @+1 {{'vector.outerproduct' op failed to verify that rhs operand and result have same element type}}
  %0 = vector.outerproduct %v, %i : vector<4xf32>, vector<4xi32>
  return
}

// -----

func.func @a(%i: index) {
// expected-error @+1 {{'vector.create_mask' op must specify an operand for each result vector dimension}}
  %0 = vector.create_mask %i, %i : vector<4xi1>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op transposition index out of range: 2}}
  %0 = vector.transpose %a, [0, 2] : vector<2x4xf32> to vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.transpose' op duplicate position index: 1}}
  %0 = vector.transpose %a, [1, 1] : vector<2x4xf32> to vector<4x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<2x3xf32>) {
// expected-error @+1 {{'vector.insert_strided_slice' op expected strides of same size as source vector rank}}
  %0 = vector.insert_strided_slice %b, %a {offsets = [0, 0], strides = [1]} : vector<2x3xf32> into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %b: vector<2x3xf32>) {
// expected-error @+1 {{'vector.insert_strided_slice' op expected strides to be confined to [1, 2)}}
  %0 = vector.insert_strided_slice %b, %a {offsets = [0, 0], strides = [1, 2]} : vector<2x3xf32> into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected offsets attribute of rank no greater than vector rank}}
  %0 = vector.extract_strided_slice %a {offsets = [0, 0, 0], sizes = [1, 1, 1], strides = [1, 1, 1]} : vector<2x4xf32> to vector<1x1xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract_strided_slice' op expected offsets dimension 0 to be confined to [0, 2)}}
  %0 = vector.extract_strided_slice %a {offsets = [2], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  return
}

// -----

func.func @a(%m: memref<?xf32>, %i: index) {
// expected-error @+1 {{'vector.load' op destination memref has lower rank than the result vector}}
  %0 = vector.load %m[%i] : memref<?xf32>, vector<2x4xf32>
  return
}

// -----

func.func @a(%m: memref<?xvector<4xf32>>, %i: index) {
// expected-error @+1 {{'vector.load' op base memref and result vector types should match}}
  %0 = vector.load %m[%i] : memref<?xvector<4xf32>>, vector<8xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
  %0 = vector.extract %a[1, 2, 3] : f32 from vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
  %0 = vector.extract %a[5] : vector<4xf32> from vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %s: f32) {
// expected-error @+1 {{'vector.insert' op expected position attribute rank to match the dest vector rank}}
  %0 = vector.insert %s, %a[1] : f32 into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>, %s: f32) {
// expected-error @+1 {{'vector.insert' op expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension}}
  %0 = vector.insert %s, %a[1, 7] : f32 into vector<2x4xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.broadcast' op dimension mismatch (4 vs. 3)}}
  %0 = vector.broadcast %a : vector<4xf32> to vector<2x3xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.broadcast' op failed to verify that source operand and result have same element type}}
  %0 = vector.broadcast %a : vector<4xf32> to vector<4xi32>
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %0 = vector.broadcast %a : vector<2x4xf32> to vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal}}
  %0 = vector.bitcast %a : vector<4xf32> to vector<3xi32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.shuffle' op mask index #2 out of range}}
  %0 = vector.shuffle %a, %a [0, 9] : vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.reduction' op failed to verify that source operand and result have same element type}}
  %0 = vector.reduction <add>, %a : vector<4xf32> into f64
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
// expected-error @+1 {{'vector.reduction' op unsupported reduction type ''f32'' for kind 'xor'}}
  %0 = vector.reduction <xor>, %a : vector<4xf32> into f32
  return
}

// -----

func.func @a(%a: vector<2x4xf32>) {
// expected-error @+1 {{'vector.reduction' op unsupported reduction rank: 2}}
  %0 = vector.reduction <add>, %a : vector<2x4xf32> into f32
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
// expected-error @+1 {{'vector.fma' op operand #0 must be vector of floating-point values, but got 'vector<4xi32>'}}
  %0 = vector.fma %a, %a, %a : vector<4xi32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op requires 2 indices}}
  %0 = vector.transfer_read %m[%i], %s : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
  %0 = vector.transfer_read %m[%i, %i], %s {in_bounds = [true, false]} : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op requires a permutation_map with result dims of the same rank as the vector type}}
  %0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type}}
  %0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
  %0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<?x?xf32>, vector<4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %s: f32) {
// expected-error @+1 {{'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)}}
  %0 = vector.transfer_read %m[%i, %i], %s {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<?x?xf32>, vector<4x4xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.transfer_write' op should not have broadcast dimensions}}
  vector.transfer_write %v, %m[%i, %i] {permutation_map = affine_map<(d0, d1) -> (0)>} : vector<4xf32>, memref<?x?xf32>
  return
}

// -----

func.func @a(%m: memref<?x?xf32>, %i: index, %v: vector<4xf32>) {
// expected-error @+1 {{'vector.transfer_write' op requires 2 indices}}
  vector.transfer_write %v, %m[%i] : vector<4xf32>, memref<?x?xf32>
  return
}
