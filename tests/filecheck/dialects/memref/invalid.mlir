// memref verifier and parser errors, with mlir-opt 22's messages (the same
// file passes `mlir-opt --verify-diagnostics --split-input-file`).
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @alloc_sizes(%n: index) {
  // expected-error @+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 1, expected 0}}
  %a = memref.alloc(%n) : memref<4xf32>
  return
}

// -----

func.func @alloc_symbols(%n: index) {
  // expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
  %a = memref.alloc()[%n] : memref<4xf32>
  return
}

// -----

func.func @alloca_alignment() {
  // expected-error @+1 {{custom op 'memref.alloca' 'memref.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %a = memref.alloca() {alignment = 3} : memref<4xf32>
  return
}

// -----

func.func @alloca_sizes(%n: index) {
  // expected-error @+1 {{'memref.alloca' op incorrect number of dynamic sizes, has 0, expected 1}}
  %a = memref.alloca() : memref<?xf32>
  return
}

// -----

func.func @realloc_missing_size(%m: memref<4xf32>) {
  // expected-error @+1 {{missing dimension operand for result type 'memref<?xf32>'}}
  %a = memref.realloc %m : memref<4xf32> to memref<?xf32>
  return
}

// -----

func.func @realloc_extra_size(%m: memref<4xf32>, %n: index) {
  // expected-error @+1 {{unnecessary dimension operand for result type 'memref<4xf32>'}}
  %a = memref.realloc %m(%n) : memref<4xf32> to memref<4xf32>
  return
}

// -----

func.func @realloc_element(%m: memref<4xf32>) {
  // expected-error @+1 {{different element types specified for source memref type 'memref<4xf32>' and result memref type 'memref<4xi32>'}}
  %a = memref.realloc %m : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @realloc_space(%m: memref<4xf32>) {
  // expected-error @+1 {{different memory spaces specified for source memref type 'memref<4xf32>' and result memref type 'memref<4xf32, 1>'}}
  %a = memref.realloc %m : memref<4xf32> to memref<4xf32, 1>
  return
}

// -----

func.func @cast(%m: memref<?xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<?xf32>' and result type 'memref<4xi32>' are cast incompatible}}
  %a = memref.cast %m : memref<?xf32> to memref<4xi32>
  return
}

// -----

func.func @cast_unranked(%u: memref<*xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible}}
  %a = memref.cast %u : memref<*xf32> to memref<*xf32>
  return
}

// -----

func.func @cast_rank(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.cast' op operand type 'memref<4xf32>' and result type 'memref<4x1xf32>' are cast incompatible}}
  %a = memref.cast %m : memref<4xf32> to memref<4x1xf32>
  return
}

// -----

func.func @space_cast(%m: memref<?xf32>) {
  // expected-error @+1 {{'memref.memory_space_cast' op operand type 'memref<?xf32>' and result type 'memref<4xf32, 1>' are cast incompatible}}
  %a = memref.memory_space_cast %m : memref<?xf32> to memref<4xf32, 1>
  return
}

// -----

func.func @copy_element(%m: memref<?xf32>, %o: memref<4xi32>) {
  // expected-error @+1 {{'memref.copy' op requires the same element type for all operands}}
  memref.copy %m, %o : memref<?xf32> to memref<4xi32>
  return
}

// -----

func.func @copy_shape(%m: memref<?xf32>, %o: memref<4x4xf32>) {
  // expected-error @+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %m, %o : memref<?xf32> to memref<4x4xf32>
  return
}

// -----

memref.global @g : memref<4xf32>
func.func @get_global_type() {
  // expected-error @+1 {{'memref.get_global' op result type 'memref<3xf32>' does not match type 'memref<4xf32>' of the global memref @g}}
  %a = memref.get_global @g : memref<3xf32>
  return
}

// -----

func.func @get_global_missing() {
  // expected-error @+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
  %a = memref.get_global @nope : memref<3xf32>
  return
}

// -----

// expected-error @+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @dynamic : memref<?xf32>

// -----

// expected-error @+1 {{custom op 'memref.global' 'memref.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
memref.global @aligned : memref<2xf32> = dense<1.0> {alignment = 3}

// -----

// expected-error @+1 {{'memref.global' op visibility expected to be one of ["public", "private", "nested"], but got "foo"}}
memref.global "foo" @visible : memref<2xf32>

// -----

func.func @rmw_float_kind(%m: memref<4xi32>, %n: index, %v: i32) {
  // expected-error @+1 {{'memref.atomic_rmw' op with kind 'addf' expects a floating-point type}}
  %x = memref.atomic_rmw addf %v, %m[%n] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @rmw_int_kind(%m: memref<4xf32>, %n: index, %v: f32) {
  // expected-error @+1 {{'memref.atomic_rmw' op with kind 'addi' expects an integer type}}
  %x = memref.atomic_rmw addi %v, %m[%n] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @rmw_value_type(%m: memref<4xf32>, %n: index, %v: i32) {
  // expected-error @+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
  %x = memref.atomic_rmw addf %v, %m[%n] : (i32, memref<4xf32>) -> i32
  return
}

// -----

func.func @rmw_subscripts(%m: memref<4xf32>, %n: index, %v: f32) {
  // expected-error @+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
  %x = memref.atomic_rmw addf %v, %m[%n, %n] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @rmw_kind(%m: memref<4xf32>, %n: index, %v: f32) {
  // expected-error @+1 {{custom op 'memref.atomic_rmw' expected string or keyword containing one of the following enum values for attribute 'kind' [addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori]}}
  %x = memref.atomic_rmw foo %v, %m[%n] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @generic_rmw_arg(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{'memref.generic_atomic_rmw' op expected block argument of the same type result type}}
  %x = memref.generic_atomic_rmw %m[%n] : memref<4xi32> {
  ^bb0(%cur: f32):
    memref.atomic_yield %cur : f32
  }
  return
}

// -----

func.func @generic_rmw_effects(%m: memref<4xi32>, %n: index, %v: i32) {
  %x = memref.generic_atomic_rmw %m[%n] : memref<4xi32> {
  ^bb0(%cur: i32):
    // expected-error @+1 {{body of 'memref.generic_atomic_rmw' should contain only operations with no side effects}}
    memref.store %v, %m[%n] : memref<4xi32>
    memref.atomic_yield %cur : i32
  }
  return
}

// -----

func.func @atomic_yield_type(%m: memref<4xi32>, %n: index, %v: f32) {
  %x = memref.generic_atomic_rmw %m[%n] : memref<4xi32> {
  ^bb0(%cur: i32):
    // expected-error @+1 {{'memref.atomic_yield' op types mismatch between yield op: 'f32' and its parent: 'i32'}}
    memref.atomic_yield %v : f32
  }
  return
}

// -----

func.func @atomic_yield_parent(%v: i32) {
  // expected-error @+1 {{'memref.atomic_yield' op expects parent op 'memref.generic_atomic_rmw'}}
  memref.atomic_yield %v : i32
}

// -----

func.func @prefetch_locality(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  memref.prefetch %m[%n], read, locality<5>, data : memref<4xi32>
  return
}

// -----

func.func @prefetch_rw(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{custom op 'memref.prefetch' rw specifier has to be 'read' or 'write'}}
  memref.prefetch %m[%n], foo, locality<1>, data : memref<4xi32>
  return
}

// -----

func.func @prefetch_cache(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{custom op 'memref.prefetch' cache type has to be 'data' or 'instr'}}
  memref.prefetch %m[%n], read, locality<1>, bar : memref<4xi32>
  return
}

// -----

func.func @prefetch_indices(%m: memref<4xi32>, %n: index) {
  // expected-error @+1 {{'memref.prefetch' op too few indices}}
  memref.prefetch %m[%n, %n], read, locality<1>, data : memref<4xi32>
  return
}

// -----

func.func @load_type(%m: memref<4xf32>, %n: index) {
  // expected-error @+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
  %x = "memref.load"(%m, %n) : (memref<4xf32>, index) -> i32
  return
}

// -----

func.func @store_type(%m: memref<4xf32>, %n: index, %v: i32) {
  // expected-error @+1 {{'memref.store' op failed to verify that type of 'value' matches element type of 'memref'}}
  "memref.store"(%v, %m, %n) : (i32, memref<4xf32>, index) -> ()
  return
}

// -----

func.func @load_alignment(%m: memref<4xf32>, %n: index) {
  // expected-error @+1 {{custom op 'memref.load' 'memref.load' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %x = memref.load %m[%n] {alignment = 3} : memref<4xf32>
  return
}

// -----

func.func @rank(%n: index) {
  // expected-error @+1 {{'memref.rank' op operand #0 must be ranked or unranked memref of any type values, but got 'index'}}
  %x = "memref.rank"(%n) : (index) -> index
  return
}

// -----

func.func @scope_result(%v: f32) {
  // expected-error @+2 {{'memref.alloca_scope' op along control flow edge from Operation memref.alloca_scope.return to parent: successor operand type #0 'f32' should match successor input type #0 'i32'}}
  // expected-note @+2 {{region branch point}}
  %a = memref.alloca_scope -> (i32) {
    memref.alloca_scope.return %v : f32
  }
  return
}

// -----

func.func @scope_return_parent(%v: f32) {
  // expected-error @+1 {{'memref.alloca_scope.return' op expects parent op 'memref.alloca_scope'}}
  memref.alloca_scope.return %v : f32
}

// -----

func.func @transpose_permutation(%m: memref<4x8xf32>) {
  // expected-error @+1 {{'memref.transpose' op expected a permutation map}}
  %t = memref.transpose %m (i, j) -> (i, i) : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

func.func @assume_alignment(%m: memref<4xf32>) {
  // expected-error @+1 {{'memref.assume_alignment' op attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %a = memref.assume_alignment %m, 0 : memref<4xf32>
  return
}
