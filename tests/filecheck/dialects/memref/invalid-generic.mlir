// memref verifier errors of generic-form and view ops, with mlir-opt 22's
// messages (the same file passes `mlir-opt --verify-diagnostics --split-input-file`).
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @f(%m: memref<4x8xf32>) {
  // expected-error @+1 {{'memref.transpose' op requires attribute 'permutation'}}
  %t = "memref.transpose"(%m) : (memref<4x8xf32>) -> memref<8x4xf32>
  return
}

// -----

func.func @f(%m: memref<4x8xf32>, %n: index) {
  // expected-error @+1 {{'memref.prefetch' op requires attribute 'isDataCache'}}
  "memref.prefetch"(%m, %n, %n) : (memref<4x8xf32>, index, index) -> ()
  return
}

// -----

// expected-error @+1 {{'memref.global' op requires attribute 'sym_name'}}
"memref.global"() <{type = memref<4xf32>}> : () -> ()

// -----

// expected-error @+1 {{'memref.global' op attribute 'type' failed to satisfy constraint: memref type attribute}}
"memref.global"() <{sym_name = "x", type = i32}> : () -> ()

// -----

// expected-error @+1 {{'memref.global' op initial value element expected to be of type 'f32', but was of type 'i32'}}
"memref.global"() <{sym_name = "x", type = memref<2xf32>, initial_value = dense<1> : tensor<2xi32>}> : () -> ()

// -----

// expected-error @+1 {{'memref.global' op initial value shape expected to be 2 but was 2, 1}}
"memref.global"() <{sym_name = "x", type = memref<2xf32>, initial_value = dense<1.0> : tensor<2x1xf32>}> : () -> ()

// -----

// expected-error @+1 {{'memref.global' op initial value should be a unit or elements attribute, but got 1 : i32}}
"memref.global"() <{sym_name = "x", type = memref<2xf32>, initial_value = 1 : i32}> : () -> ()

// -----

func.func @f(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{'memref.generic_atomic_rmw' op expected single number of entry block arguments}}
  %x = "memref.generic_atomic_rmw"(%m, %n) ({
  }) : (memref<4xi32>, index) -> i32
  return
}

// -----

func.func @f(%n: index) {
  // expected-error @+1 {{'memref.load' op operand #0 must be memref of any type values, but got 'index'}}
  %x = "memref.load"(%n) : (index) -> i32
  return
}

// -----

func.func @f(%m: memref<4xf32>, %n: index, %v: f32) {
  // expected-error @+1 {{'memref.atomic_rmw' op requires attribute 'kind'}}
  %x = "memref.atomic_rmw"(%v, %m, %n) : (f32, memref<4xf32>, index) -> f32
  return
}

// -----

func.func @f(%m: i32) {
  // expected-error @+1 {{'memref.cast' op operand #0 must be ranked or unranked memref of any type values, but got 'i32'}}
  %x = "memref.cast"(%m) : (i32) -> memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.realloc' op result #0 must be 1D memref of any type values, but got 'memref<4x4xf32>'}}
  %x = "memref.realloc"(%m) : (memref<4xf32>) -> memref<4x4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'memref.alloc' op result #0 must be memref of any type values, but got 'i32'}}
  %x = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> i32
  return
}

// -----

func.func @f(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.dim' op expected 2 operands, but found 1}}
  %x = "memref.dim"(%m) : (memref<4xf32>) -> index
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{expected the number of 'sizes' to match the number of dynamic entries in 'static_sizes' (0 vs 1)}}
  %a = "memref.reinterpret_cast"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: -9223372036854775808>, static_strides = array<i64: 1>}> : (memref<?xf32>) -> memref<?xf32>
  return
}

// -----

func.func @f(%m: memref<*xf32>) {
  // expected-error @+1 {{expected result type with size = 4 instead of 8 in dim = 0}}
  %x = "memref.reinterpret_cast"(%m) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 4>, static_strides = array<i64: 1>}> : (memref<*xf32>) -> memref<8xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1) so the rank of the result type is well-formed.}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4, 4], strides: [1] : memref<?xf32> to memref<4x4xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (2 vs 1) so the rank of the result type is well-formed.}}
  %a = memref.reinterpret_cast %m to offset: [0, 0], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{expected result type with offset = 2 instead of 3}}
  %a = memref.reinterpret_cast %m to offset: [2], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{expected result type with stride = 2 instead of 1 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [2] : memref<?xf32> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>, %n: index) {
  // expected-error @+1 {{expected result type with size = dynamic instead of 4 in dim = 0}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?xf32> to memref<4xf32>
  return
}

// -----

func.func @f(%m: memref<?xf32>) {
  // expected-error @+1 {{different element types specified for source type 'memref<?xf32>' and result memref type 'memref<4xi32>'}}
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<?xf32> to memref<4xi32>
  return
}

// -----

func.func @f(%m: memref<4x4xf32>) {
  // expected-error @+1 {{expected 2 offset values, got 1}}
  %a = memref.subview %m[0][2][1] : memref<4x4xf32> to memref<2x4xf32>
  return
}

// -----

func.func @f(%a: memref<?xf32>, %b: memref<?xi32>) {
  // expected-error @+1 {{'memref.distinct_objects' op operand types and result types must match}}
  %1, %2 = "memref.distinct_objects"(%a, %b) : (memref<?xf32>, memref<?xi32>) -> (memref<?xf32>, memref<?xf32>)
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'memref.distinct_objects' op expected at least one operand}}
  "memref.distinct_objects"() : () -> ()
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{'memref.dma_start' op expected source indices to be of index type}}
  memref.dma_start %a[%n], %b[%n], %n, %t[%n] : memref<4x4xf32>, memref<16xf32, 1>, memref<1xi32>
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{custom op 'memref.dma_start' fewer/more types expected}}
  memref.dma_start %a[%n, %n], %b[%n], %n, %t[%n] : memref<4x4xf32>, memref<16xf32, 1>
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{'memref.dma_start' op incorrect number of operands}}
  "memref.dma_start"(%a, %n, %n, %b, %n, %n, %t, %n, %n) : (memref<4x4xf32>, index, index, memref<16xf32, 1>, index, index, memref<1xi32>, index, index) -> ()
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{'memref.dma_start' op expected at least 4 operands}}
  "memref.dma_start"(%a, %n) : (memref<4x4xf32>, index) -> ()
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{'memref.dma_wait' op expected tagIndices to have the same number of elements as the tagMemRef rank, expected 1, but got 2}}
  memref.dma_wait %t[%n, %n], %n : memref<1xi32>
  return
}

// -----

func.func @f(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %n: index) {
  // expected-error @+1 {{'memref.dma_wait' op expected tagIndices to have the same number of elements as the tagMemRef rank, expected 1, but got 2}}
  "memref.dma_wait"(%t, %n, %n, %n) : (memref<1xi32>, index, index, index) -> ()
  return
}
