// RUN: xgpu-opt %s --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | xgpu-opt --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref view and cast ops in MLIR 22's custom form (as mlir-opt 22 prints them)
// and generic form: cast, memory_space_cast, extract_aligned_pointer_as_index,
// distinct_objects, extract_strided_metadata, assume_alignment, subview,
// reinterpret_cast, expand_shape, collapse_shape, reshape, view, transpose.

func.func @casts(%d: memref<?xf32>, %u: memref<*xf32>, %s: memref<4xf32, strided<[1], offset: ?>>) {
  %a = memref.cast %d : memref<?xf32> to memref<*xf32>
  %b = memref.cast %u : memref<*xf32> to memref<4xf32>
  %c = memref.cast %d {foo} : memref<?xf32> to memref<4xf32>
  %e = memref.cast %s : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  %f = memref.memory_space_cast %d : memref<?xf32> to memref<?xf32, 1>
  %g = memref.memory_space_cast %u {foo} : memref<*xf32> to memref<*xf32, #gpu.address_space<workgroup>>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @casts(%d: memref<?xf32>, %u: memref<*xf32>, %s: memref<4xf32, strided<[1], offset: ?>>) {
// CHECK-NEXT: %a = memref.cast %d : memref<?xf32> to memref<*xf32>
// CHECK-NEXT: %b = memref.cast %u : memref<*xf32> to memref<4xf32>
// CHECK-NEXT: %c = memref.cast %d {foo} : memref<?xf32> to memref<4xf32>
// CHECK-NEXT: %e = memref.cast %s : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT: %f = memref.memory_space_cast %d : memref<?xf32> to memref<?xf32, 1>
// CHECK-NEXT: %g = memref.memory_space_cast %u {foo} : memref<*xf32> to memref<*xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.cast"(%d) : (memref<?xf32>) -> memref<*xf32>
// GENERIC: %b = "memref.cast"(%u) : (memref<*xf32>) -> memref<4xf32>
// GENERIC: %c = "memref.cast"(%d) {foo} : (memref<?xf32>) -> memref<4xf32>
// GENERIC: %e = "memref.cast"(%s) : (memref<4xf32, strided<[1], offset: ?>>) -> memref<?xf32, strided<[1], offset: ?>>
// GENERIC: %f = "memref.memory_space_cast"(%d) : (memref<?xf32>) -> memref<?xf32, 1>
// GENERIC: %g = "memref.memory_space_cast"(%u) {foo} : (memref<*xf32>) -> memref<*xf32, #gpu.address_space<workgroup>>

// -----

func.func @pointers(%d: memref<?xf32>, %m: memref<4x4xf32>) {
  %p = memref.extract_aligned_pointer_as_index %d : memref<?xf32> -> index
  %x, %y = memref.distinct_objects %d, %m : memref<?xf32>, memref<4x4xf32>
  %z = memref.distinct_objects %d {foo} : memref<?xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<4x4xf32> -> memref<f32>, index, index, index, index, index
  %b0, %o0 = memref.extract_strided_metadata %base : memref<f32> -> memref<f32>, index
  %aa = memref.assume_alignment %d, 16 : memref<?xf32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @pointers(%d: memref<?xf32>, %m: memref<4x4xf32>) {
// CHECK-NEXT: %p = memref.extract_aligned_pointer_as_index %d : memref<?xf32> -> index
// CHECK-NEXT: %x, %y = memref.distinct_objects %d, %m : memref<?xf32>, memref<4x4xf32>
// CHECK-NEXT: %z = memref.distinct_objects %d {foo} : memref<?xf32>
// CHECK-NEXT: %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<4x4xf32> -> memref<f32>, index, index, index, index, index
// CHECK-NEXT: %b0, %o0 = memref.extract_strided_metadata %base : memref<f32> -> memref<f32>, index
// CHECK-NEXT: %aa = memref.assume_alignment %d, 16 : memref<?xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %p = "memref.extract_aligned_pointer_as_index"(%d) : (memref<?xf32>) -> index
// GENERIC: %x, %y = "memref.distinct_objects"(%d, %m) : (memref<?xf32>, memref<4x4xf32>) -> (memref<?xf32>, memref<4x4xf32>)
// GENERIC: %z = "memref.distinct_objects"(%d) {foo} : (memref<?xf32>) -> memref<?xf32>
// GENERIC: %base, %off, %sz:2, %st:2 = "memref.extract_strided_metadata"(%m) : (memref<4x4xf32>) -> (memref<f32>, index, index, index, index, index)
// GENERIC: %b0, %o0 = "memref.extract_strided_metadata"(%base) : (memref<f32>) -> (memref<f32>, index)
// GENERIC: %aa = "memref.assume_alignment"(%d) <{alignment = 16 : i32}> : (memref<?xf32>) -> memref<?xf32>

// -----

func.func @subview(%m: memref<4x4xf32>, %n: index) {
  %a = memref.subview %m[0, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
  %b = memref.subview %m[%n, 0][2, %n][1, 2] : memref<4x4xf32> to memref<2x?xf32, strided<[4, 2], offset: ?>>
  %c = memref.subview %m[0, 0][1, 4][1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  %d = memref.subview %m[%n, %n][%n, %n][%n, %n] {foo} : memref<4x4xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @subview(%m: memref<4x4xf32>, %n: index) {
// CHECK-NEXT: %a = memref.subview %m[0, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
// CHECK-NEXT: %b = memref.subview %m[%n, 0] [2, %n] [1, 2] : memref<4x4xf32> to memref<2x?xf32, strided<[4, 2], offset: ?>>
// CHECK-NEXT: %c = memref.subview %m[0, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
// CHECK-NEXT: %d = memref.subview %m[%n, %n] [%n, %n] [%n, %n] {foo} : memref<4x4xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 1>, static_sizes = array<i64: 2, 2>, static_strides = array<i64: 1, 1>}> : (memref<4x4xf32>) -> memref<2x2xf32, strided<[4, 1], offset: 1>>
// GENERIC: %b = "memref.subview"(%m, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 2, -9223372036854775808>, static_strides = array<i64: 1, 2>}> : (memref<4x4xf32>, index, index) -> memref<2x?xf32, strided<[4, 2], offset: ?>>
// GENERIC: %c = "memref.subview"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0, 0>, static_sizes = array<i64: 1, 4>, static_strides = array<i64: 1, 1>}> : (memref<4x4xf32>) -> memref<4xf32, strided<[1]>>
// GENERIC: %d = "memref.subview"(%m, %n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 1, 2, 2, 2>, static_offsets = array<i64: -9223372036854775808, -9223372036854775808>, static_sizes = array<i64: -9223372036854775808, -9223372036854775808>, static_strides = array<i64: -9223372036854775808, -9223372036854775808>}> {foo} : (memref<4x4xf32>, index, index, index, index, index, index) -> memref<?x?xf32, strided<[?, ?], offset: ?>>

// -----

func.func @reinterpret(%d: memref<?xf32>, %u: memref<*xf32>, %n: index) {
  %a = memref.reinterpret_cast %d to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<?xf32> to memref<4x4xf32>
  %b = memref.reinterpret_cast %d to offset: [%n], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %c = memref.reinterpret_cast %u to offset: [0], sizes: [%n, 4], strides: [4, 1] {foo} : memref<*xf32> to memref<?x4xf32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @reinterpret(%d: memref<?xf32>, %u: memref<*xf32>, %n: index) {
// CHECK-NEXT: %a = memref.reinterpret_cast %d to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<?xf32> to memref<4x4xf32>
// CHECK-NEXT: %b = memref.reinterpret_cast %d to offset: [%n], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
// CHECK-NEXT: %c = memref.reinterpret_cast %u to offset: [0], sizes: [%n, 4], strides: [4, 1] {foo} : memref<*xf32> to memref<?x4xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.reinterpret_cast"(%d) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4, 4>, static_strides = array<i64: 4, 1>}> : (memref<?xf32>) -> memref<4x4xf32>
// GENERIC: %b = "memref.reinterpret_cast"(%d, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (memref<?xf32>, index, index) -> memref<?xf32, strided<[1], offset: ?>>
// GENERIC: %c = "memref.reinterpret_cast"(%u, %n) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808, 4>, static_strides = array<i64: 4, 1>}> {foo} : (memref<*xf32>, index) -> memref<?x4xf32>

// -----

func.func @reshapes(%a: memref<4xf32>, %d: memref<?xf32>, %m: memref<4x4xf32>, %s: memref<1xi32>, %n: index) {
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  %f = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  %g = memref.expand_shape %a [[0, 1, 2]] output_shape [1, 4, 1] {foo} : memref<4xf32> into memref<1x4x1xf32>
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %h = memref.collapse_shape %g [[0], [1, 2]] {foo} : memref<1x4x1xf32> into memref<1x4xf32>
  %r = memref.reshape %d(%s) : (memref<?xf32>, memref<1xi32>) -> memref<?xf32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @reshapes(%a: memref<4xf32>, %d: memref<?xf32>, %m: memref<4x4xf32>, %s: memref<1xi32>, %n: index) {
// CHECK-NEXT: %e = memref.expand_shape %a [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
// CHECK-NEXT: %f = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
// CHECK-NEXT: %g = memref.expand_shape %a [[0, 1, 2]] output_shape [1, 4, 1] {foo} : memref<4xf32> into memref<1x4x1xf32>
// CHECK-NEXT: %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
// CHECK-NEXT: %h = memref.collapse_shape %g [[0], [1, 2]] {foo} : memref<1x4x1xf32> into memref<1x4xf32>
// CHECK-NEXT: %r = memref.reshape %d(%s) : (memref<?xf32>, memref<1xi32>) -> memref<?xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %e = "memref.expand_shape"(%a) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 2>}> : (memref<4xf32>) -> memref<2x2xf32>
// GENERIC: %f = "memref.expand_shape"(%d, %n) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 4>}> : (memref<?xf32>, index) -> memref<?x4xf32>
// GENERIC: %g = "memref.expand_shape"(%a) <{reassociation = [[0, 1, 2]], static_output_shape = array<i64: 1, 4, 1>}> {foo} : (memref<4xf32>) -> memref<1x4x1xf32>
// GENERIC: %c = "memref.collapse_shape"(%m) <{reassociation = [[0, 1]]}> : (memref<4x4xf32>) -> memref<16xf32>
// GENERIC: %h = "memref.collapse_shape"(%g) <{reassociation = [[0], [1, 2]]}> {foo} : (memref<1x4x1xf32>) -> memref<1x4xf32>
// GENERIC: %r = "memref.reshape"(%d, %s) : (memref<?xf32>, memref<1xi32>) -> memref<?xf32>

// -----

func.func @view_transpose(%b: memref<64xi8>, %m: memref<4x8xf32>, %n: index) {
  %v = memref.view %b[%n][] : memref<64xi8> to memref<4x4xf32>
  %w = memref.view %b[%n][%n] {foo} : memref<64xi8> to memref<?x4xf32>
  %t = memref.transpose %m (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @view_transpose(%b: memref<64xi8>, %m: memref<4x8xf32>, %n: index) {
// CHECK-NEXT: %v = memref.view %b[%n][] : memref<64xi8> to memref<4x4xf32>
// CHECK-NEXT: %w = memref.view %b[%n][%n] {foo} : memref<64xi8> to memref<?x4xf32>
// CHECK-NEXT: %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %v = "memref.view"(%b, %n) : (memref<64xi8>, index) -> memref<4x4xf32>
// GENERIC: %w = "memref.view"(%b, %n, %n) {foo} : (memref<64xi8>, index, index) -> memref<?x4xf32>
// GENERIC: %t = "memref.transpose"(%m) <{permutation = #map}> : (memref<4x8xf32>) -> memref<8x4xf32, strided<[1, 8]>>
