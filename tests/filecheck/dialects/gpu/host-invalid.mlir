// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @alloc_too_many_sizes(%n: index) {
  // expected-error @+1 {{'gpu.alloc' op incorrect number of dynamic sizes, has 2, expected 1}}
  %m = gpu.alloc (%n, %n) : memref<?xf32>
  return
}

// -----

func.func @alloc_missing_size() {
  // expected-error @+1 {{'gpu.alloc' op incorrect number of dynamic sizes, has 0, expected 2}}
  %m = gpu.alloc () : memref<?x?xf32>
  return
}

// -----

func.func @alloc_symbol_without_layout(%n: index) {
  // expected-error @+1 {{'gpu.alloc' op symbol operand count does not equal memref symbol count}}
  %m = gpu.alloc () [%n] : memref<4xf32>
  return
}

// -----

func.func @alloc_missing_map_symbol() {
  // expected-error @+1 {{'gpu.alloc' op symbol operand count does not equal memref symbol count}}
  %m = gpu.alloc () : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

func.func @alloc_missing_strided_symbols(%n: index) {
  // expected-error @+1 {{'gpu.alloc' op symbol operand count does not equal memref symbol count}}
  %m = gpu.alloc (%n) [%n] : memref<?xf32, strided<[?], offset: ?>>
  return
}

// -----

func.func @alloc_tensor() {
  // expected-error @+1 {{custom op 'gpu.alloc' invalid kind of type specified: expected builtin.memref, but found 'tensor<4xf32>'}}
  %m = gpu.alloc () : tensor<4xf32>
  return
}

// -----

func.func @dealloc_unranked(%a: memref<*xf32>) {
  // expected-error @+1 {{custom op 'gpu.dealloc' invalid kind of type specified: expected builtin.memref, but found 'memref<*xf32>'}}
  gpu.dealloc %a : memref<*xf32>
  return
}

// -----

func.func @memcpy_element_type(%a: memref<4xf32>, %b: memref<4xi32>) {
  // expected-error @+1 {{'gpu.memcpy' op arguments have incompatible element type}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<4xi32>
  return
}

// -----

func.func @memcpy_static_shape(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %a, %b : memref<4xf32>, memref<5xf32>
  return
}

// -----

func.func @memcpy_rank(%a: memref<?xf32>, %b: memref<2x2xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op arguments have incompatible shape}}
  gpu.memcpy %a, %b : memref<?xf32>, memref<2x2xf32>
  return
}

// -----

func.func @memcpy_tensor(%a: memref<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'gpu.memcpy' invalid kind of type specified: expected builtin.memref, but found 'tensor<4xf32>'}}
  gpu.memcpy %a, %b : memref<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @memset_element_type(%a: memref<4xf32>, %v: i32) {
  // expected-error @+1 {{'gpu.memset' op failed to verify that all of {dst, value} have same element type}}
  gpu.memset %a, %v : memref<4xf32>, i32
  return
}

// -----

func.func @memset_vector_value(%a: memref<4xvector<4xf32>>, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.memset' op failed to verify that all of {dst, value} have same element type}}
  gpu.memset %a, %v : memref<4xvector<4xf32>>, vector<4xf32>
  return
}

// -----

func.func @host_register_ranked(%a: memref<4xf32>) {
  // expected-error @+1 {{custom op 'gpu.host_register' invalid kind of type specified: expected builtin.unranked_memref, but found 'memref<4xf32>'}}
  gpu.host_register %a : memref<4xf32>
  return
}

// -----

func.func @host_unregister_ranked(%a: memref<4xf32>) {
  // expected-error @+1 {{custom op 'gpu.host_unregister' invalid kind of type specified: expected builtin.unranked_memref, but found 'memref<4xf32>'}}
  gpu.host_unregister %a : memref<4xf32>
  return
}

// -----

func.func @memcpy_one_operand(%m: memref<?xf32>) {
  // expected-error @+1 {{'gpu.memcpy' op expected 2 or more operands, but found 1}}
  "gpu.memcpy"(%m) : (memref<?xf32>) -> ()
  return
}

// -----

func.func @alloc_segments_i64(%n: index) {
  // expected-error @+1 {{'gpu.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %m = "gpu.alloc"(%n) {operandSegmentSizes = array<i64: 0, 1, 0>} : (index) -> memref<?xf32>
  return
}

// -----

func.func @alloc_no_result() {
  // expected-error @+1 {{'gpu.alloc' op expected 1 or more results}}
  "gpu.alloc"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
  return
}

// -----

func.func @set_default_device_no_operand() {
  // expected-error @+1 {{'gpu.set_default_device' op requires a single operand}}
  "gpu.set_default_device"() : () -> ()
  return
}
