// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{MMAMatrixType must have exactly two dimensions}}
func.func @mma_one_dim(%x: !gpu.mma_matrix<16xf16, "AOp">) {
  return
}

// -----

// expected-error @+1 {{operand expected to be one of AOp, BOp or COp}}
func.func @mma_bad_operand(%x: !gpu.mma_matrix<16x16xf16, "DOp">) {
  return
}

// -----

// expected-error @+1 {{MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64}}
func.func @mma_bf16(%x: !gpu.mma_matrix<16x16xbf16, "AOp">) {
  return
}

// -----

// expected-error @+1 {{MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64}}
func.func @mma_signless_i8(%x: !gpu.mma_matrix<16x16xi8, "AOp">) {
  return
}

// -----

// expected-error @+1 {{expected static shape}}
func.func @mma_dynamic(%x: !gpu.mma_matrix<?x16xf16, "AOp">) {
  return
}

// -----

func.func @load_strided(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index) {
  // expected-error @+1 {{expected source memref most minor dim must have unit stride}}
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, strided<[64, 2]>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @load_permuted(%m: memref<32x32xf16, affine_map<(d0, d1) -> (d1, d0)>>, %i: index) {
  // expected-error @+1 {{expected source memref most minor dim must have unit stride}}
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, affine_map<(d0, d1) -> (d1, d0)>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @load_bf16_memref(%m: memref<32x32xbf16>, %i: index) {
  // expected-error @+1 {{'gpu.subgroup_mma_load_matrix' op operand #0 must be memref of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float or vector of 8-bit signless integer or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values of ranks 1 values, but got 'memref<32x32xbf16>'}}
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xbf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}

// -----

func.func @store_strided(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{expected destination memref most minor dim must have unit stride}}
  gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, strided<[64, 2]>>
  return
}

// -----

func.func @store_not_cop(%m: memref<32x32xf16>, %i: index, %a: !gpu.mma_matrix<16x16xf16, "AOp">) {
  // expected-error @+1 {{expected the operand matrix being stored to have 'COp' operand type}}
  gpu.subgroup_mma_store_matrix %a, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "AOp">, memref<32x32xf16>
  return
}

// -----

func.func @compute_order(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{operands must be in the order AOp, BOp, COp}}
  %0 = gpu.subgroup_mma_compute %b, %a, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "AOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @compute_shapes(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{operand shapes do not satisfy matmul constraints}}
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @compute_i32_a(%a: !gpu.mma_matrix<16x16xi32, "AOp">, %b: !gpu.mma_matrix<16x16xi32, "BOp">, %c: !gpu.mma_matrix<16x16xi32, "COp">) {
  // expected-error @+1 {{'gpu.subgroup_mma_compute' op operand #0 must be gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned integer or 16-bit float or 32-bit float or 64-bit float values, but got '!gpu.mma_matrix<16x16xi32, "AOp">'}}
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xi32, "AOp">, !gpu.mma_matrix<16x16xi32, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  return
}

// -----

func.func @compute_si8_c(%a: !gpu.mma_matrix<16x16xsi8, "AOp">, %b: !gpu.mma_matrix<16x16xsi8, "BOp">, %c: !gpu.mma_matrix<16x16xsi8, "COp">) {
  // expected-error @+1 {{'gpu.subgroup_mma_compute' op operand #2 must be gpu.mma_matrix of 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float values, but got '!gpu.mma_matrix<16x16xsi8, "COp">'}}
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xsi8, "COp">
  return
}

// -----

func.func @compute_result_type(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf16, "COp">) {
  // expected-error @+1 {{'gpu.subgroup_mma_compute' op failed to verify that all of {opC, res} have same type}}
  %0 = "gpu.subgroup_mma_compute"(%a, %b, %c) : (!gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}

// -----

func.func @constant_f64(%v: f64) {
  // expected-error @+1 {{'gpu.subgroup_mma_constant_matrix' op operand #0 must be 8-bit signed integer or 8-bit unsigned integer or 32-bit signless integer or 16-bit float or 32-bit float, but got 'f64'}}
  %0 = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf64, "COp">
  return
}

// -----

func.func @constant_wrong_type(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_mma_constant_matrix' op failed to verify that value type matches element type of mma_matrix}}
  %0 = "gpu.subgroup_mma_constant_matrix"(%v) : (f32) -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @extract_wrong_type(%c: !gpu.mma_matrix<16x16xf16, "COp">, %i: index) {
  // expected-error @+1 {{'gpu.subgroup_mma_extract_thread_local' op failed to verify that value type matches element type of mma_matrix}}
  %0 = gpu.subgroup_mma_extract_thread_local %c[%i] : !gpu.mma_matrix<16x16xf16, "COp"> -> f32
  return
}

// -----

func.func @insert_wrong_type(%c: !gpu.mma_matrix<16x16xf16, "COp">, %i: index, %v: f32) {
  // expected-error @+1 {{'gpu.subgroup_mma_insert_thread_local' op failed to verify that value type matches element type of mma_matrix}}
  %0 = gpu.subgroup_mma_insert_thread_local %v, %c[%i] : f32, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @sparse_sync_with_token(%n: index, %m: memref<?xf64>) {
  // expected-error @+1 {{operation defines 1 results but was provided 2 to bind}}
  %s, %t = gpu.create_2to4_spmat {NONE} %n, %n, %m : memref<?xf64>
  return
}

// -----

func.func @sparse_async_without_token(%sp: !gpu.sparse.spmat_handle) {
  // expected-error @+1 {{operation defines 4 results but was provided 3 to bind}}
  %r, %c, %z = gpu.spmat_get_size async %sp
  return
}
