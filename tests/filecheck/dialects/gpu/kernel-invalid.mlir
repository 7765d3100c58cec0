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
