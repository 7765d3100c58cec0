// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @printf_vector_arg(%v: vector<2xf32>) {
  // expected-error @+1 {{'gpu.printf' op operand #0 must be variadic of integer or index or floating-point, but got 'vector<2xf32>'}}
  gpu.printf "v=%f", %v : vector<2xf32>
  return
}

// -----

func.func @printf_second_arg_not_scalar(%i: i32, %m: memref<4xf32>) {
  // expected-error @+1 {{'gpu.printf' op operand #1 must be variadic of integer or index or floating-point, but got 'memref<4xf32>'}}
  gpu.printf "%d %p", %i, %m : i32, memref<4xf32>
  return
}

// -----

func.func @barrier_memfence_is_post_22() {
  // MLIR 22's gpu.barrier has no memfence clause.
  // expected-error @+1 {{custom op 'memfence' is unknown}}
  gpu.barrier memfence [#gpu.address_space<workgroup>]
  return
}

// -----

func.func @subgroup_size_not_index() {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.index, but found 'i32'}}
  %0 = gpu.subgroup_size : i32
  return
}

// -----

func.func @upper_bound_too_large() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = gpu.thread_id x upper_bound 9223372036854775808
  return
}

// -----

gpu.module @m {
  gpu.func @private_space() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>}}
    %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<private>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @numeric_space() {
    // The legacy numeric workgroup space 3 is not accepted.
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>}}
    %0 = gpu.dynamic_shared_memory : memref<?xi8, 3>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @no_space() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op address space must be address_space<workgroup>}}
    %0 = gpu.dynamic_shared_memory : memref<?xi8>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @static_shape() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op result memref type must be memref<?xi8, #gpu.address_space<workgroup>>}}
    %0 = gpu.dynamic_shared_memory : memref<256xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @wrong_element_type() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op result #0 must be 1D memref of 8-bit signless integer values, but got 'memref<?xf32, #gpu.address_space<workgroup>>'}}
    %0 = gpu.dynamic_shared_memory : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @wrong_rank() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op result #0 must be 1D memref of 8-bit signless integer values, but got 'memref<?x4xi8, #gpu.address_space<workgroup>>'}}
    %0 = gpu.dynamic_shared_memory : memref<?x4xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @not_a_memref() {
    // expected-error @+1 {{invalid kind of type specified: expected builtin.memref, but found 'tensor<?xi8>'}}
    %0 = gpu.dynamic_shared_memory : tensor<?xi8>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @not_a_memref_generic() {
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op result #0 must be 1D memref of 8-bit signless integer values, but got 'tensor<?xi8>'}}
    %0 = "gpu.dynamic_shared_memory"() : () -> tensor<?xi8>
    gpu.return
  }
}

// -----

func.func @thread_id_without_dimension() {
  // expected-error @+1 {{'gpu.thread_id' op requires attribute 'dimension'}}
  %0 = "gpu.thread_id"() : () -> index
  return
}

// -----

func.func @thread_id_without_result() {
  // expected-error @+1 {{'gpu.thread_id' op requires one result}}
  "gpu.thread_id"() <{dimension = #gpu<dim y>}> : () -> ()
  return
}

// -----

func.func @barrier_with_operand_and_region(%i: i32) {
  // Regions are counted first, then results, then operands.
  // expected-error @+1 {{'gpu.barrier' op requires zero regions}}
  "gpu.barrier"(%i) ({
    "test.inside"() : () -> ()
  }) : (i32) -> ()
  return
}

// -----

func.func @lane_id_with_operand(%i: index) {
  // expected-error @+1 {{'gpu.lane_id' op requires zero operands}}
  %0 = "gpu.lane_id"(%i) : (index) -> index
  return
}

// -----

func.func @shuffle_two_operands(%v: f32, %i: i32) {
  // expected-error @+1 {{'gpu.shuffle' op expected 3 operands, but found 2}}
  %0, %1 = "gpu.shuffle"(%v, %i) <{mode = #gpu<shuffle_mode up>}> : (f32, i32) -> (f32, i1)
  return
}

// -----

func.func @shuffle_three_results(%v: f32, %i: i32) {
  // expected-error @+1 {{'gpu.shuffle' op expected 2 results}}
  %0:3 = "gpu.shuffle"(%v, %i, %i) <{mode = #gpu<shuffle_mode up>}> : (f32, i32, i32) -> (f32, i1, i1)
  return
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op requires attribute 'function_type'}}
  "gpu.func"() ({
    gpu.return
  }) : () -> ()
}

// -----

// mlir-opt 22 registers MLIR's test dialect, which allows unknown ops in generic
// form, so these parse without the flag that allows unregistered dialects.
func.func @all_reduce_body_without_yield(%x: f32) {
  // expected-error @+1 {{expected gpu.yield op in region}}
  %r = gpu.all_reduce %x {
  ^bb0(%a: f32, %b: f32):
    "test.stop"() : () -> ()
  } : (f32) -> (f32)
  return
}

// -----

func.func @unknown_test_op_in_custom_form() {
  // expected-error @+1 {{custom op 'test.not_an_op' is unknown}}
  test.not_an_op
  return
}
