// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @mma
func.func @mma(%m: memref<32x32xf16>, %v: memref<8x8xvector<4xf32>, strided<[8, 1]>>, %i: index, %h: f16,
               %a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<8x16xf16, "BOp">,
               %c: !gpu.mma_matrix<16x16xf16, "COp">, %ai: !gpu.mma_matrix<16x16xsi8, "AOp">,
               %bi: !gpu.mma_matrix<16x16xui8, "BOp">, %ci: !gpu.mma_matrix<16x16xi32, "COp">,
               %d: !gpu.mma_matrix<16x16xf64, "COp">) {
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_load_matrix %{{.*}}[%{{.*}}, %{{.*}}] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x8xf16, "AOp">
  // GENERIC: "gpu.subgroup_mma_load_matrix"(%{{.*}}, %{{.*}}, %{{.*}}) <{leadDimension = 32 : index}> : (memref<32x32xf16>, index, index) -> !gpu.mma_matrix<16x8xf16, "AOp">
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x8xf16, "AOp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_load_matrix %{{.*}}[%{{.*}}, %{{.*}}] {foo, leadDimension = 8 : index, transpose} : memref<8x8xvector<4xf32>, strided<[8, 1]>> -> !gpu.mma_matrix<16x16xf32, "BOp">
  // GENERIC: "gpu.subgroup_mma_load_matrix"(%{{.*}}, %{{.*}}, %{{.*}}) <{leadDimension = 8 : index, transpose}> {foo}
  %1 = gpu.subgroup_mma_load_matrix %v[%i, %i] {foo, leadDimension = 8 : index, transpose} : memref<8x8xvector<4xf32>, strided<[8, 1]>> -> !gpu.mma_matrix<16x16xf32, "BOp">
  // CHECK-NEXT: gpu.subgroup_mma_store_matrix %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  // GENERIC: "gpu.subgroup_mma_store_matrix"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{leadDimension = 32 : index}> : (!gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>, index, index) -> ()
  gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  // CHECK-NEXT: gpu.subgroup_mma_store_matrix %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  // GENERIC: "gpu.subgroup_mma_store_matrix"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{leadDimension = 32 : index, transpose}>
  gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_compute %{{.*}}, %{{.*}}, %{{.*}} : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_compute"(%{{.*}}, %{{.*}}, %{{.*}}) : (!gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  %2 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_compute %{{.*}}, %{{.*}}, %{{.*}} {a_transpose, b_transpose} : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  // GENERIC: "gpu.subgroup_mma_compute"(%{{.*}}, %{{.*}}, %{{.*}}) <{a_transpose, b_transpose}>
  %3 = gpu.subgroup_mma_compute %ai, %bi, %ci {a_transpose, b_transpose} : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_constant_matrix"(%{{.*}}) : (f16) -> !gpu.mma_matrix<16x16xf16, "COp">
  %4 = gpu.subgroup_mma_constant_matrix %h : !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_elementwise  addf %{{.*}}, %{{.*}} : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_elementwise"(%{{.*}}, %{{.*}}) <{opType = #gpu<mma_element_wise addf>}> : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  %5 = gpu.subgroup_mma_elementwise addf %c, %4 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_elementwise  extf %{{.*}} {foo} : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  // GENERIC: "gpu.subgroup_mma_elementwise"(%{{.*}}) <{opType = #gpu<mma_element_wise extf>}> {foo}
  %6 = gpu.subgroup_mma_elementwise extf %c {foo} : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_elementwise  negatef  : () -> !gpu.mma_matrix<16x16xf32, "COp">
  // GENERIC: "gpu.subgroup_mma_elementwise"() <{opType = #gpu<mma_element_wise negatef>}> : () -> !gpu.mma_matrix<16x16xf32, "COp">
  %7 = gpu.subgroup_mma_elementwise negatef : () -> !gpu.mma_matrix<16x16xf32, "COp">
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  mulf
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  subf
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  maxf
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  minf
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  divf
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  addi
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  muli
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  subi
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  divs
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  divu
  // CHECK-NEXT: gpu.subgroup_mma_elementwise  negates
  %8 = gpu.subgroup_mma_elementwise mulf %d, %d : (!gpu.mma_matrix<16x16xf64, "COp">, !gpu.mma_matrix<16x16xf64, "COp">) -> !gpu.mma_matrix<16x16xf64, "COp">
  %9 = gpu.subgroup_mma_elementwise subf %d, %d : (!gpu.mma_matrix<16x16xf64, "COp">, !gpu.mma_matrix<16x16xf64, "COp">) -> !gpu.mma_matrix<16x16xf64, "COp">
  %10 = gpu.subgroup_mma_elementwise maxf %d, %d : (!gpu.mma_matrix<16x16xf64, "COp">, !gpu.mma_matrix<16x16xf64, "COp">) -> !gpu.mma_matrix<16x16xf64, "COp">
  %11 = gpu.subgroup_mma_elementwise minf %d, %d : (!gpu.mma_matrix<16x16xf64, "COp">, !gpu.mma_matrix<16x16xf64, "COp">) -> !gpu.mma_matrix<16x16xf64, "COp">
  %12 = gpu.subgroup_mma_elementwise divf %d, %d : (!gpu.mma_matrix<16x16xf64, "COp">, !gpu.mma_matrix<16x16xf64, "COp">) -> !gpu.mma_matrix<16x16xf64, "COp">
  %13 = gpu.subgroup_mma_elementwise addi %ci, %ci : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %14 = gpu.subgroup_mma_elementwise muli %ci, %ci : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %15 = gpu.subgroup_mma_elementwise subi %ci, %ci : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %16 = gpu.subgroup_mma_elementwise divs %ci, %ci : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %17 = gpu.subgroup_mma_elementwise divu %ci, %ci : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  %18 = gpu.subgroup_mma_elementwise negates %ci : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_extract_thread_local %{{.*}}[%{{.*}}] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16
  // GENERIC: "gpu.subgroup_mma_extract_thread_local"(%{{.*}}, %{{.*}}) : (!gpu.mma_matrix<16x16xf16, "COp">, index) -> f16
  %19 = gpu.subgroup_mma_extract_thread_local %c[%i] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16
  // CHECK-NEXT: %{{.*}} = gpu.subgroup_mma_insert_thread_local %{{.*}}, %{{.*}}[%{{.*}}] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  // GENERIC: "gpu.subgroup_mma_insert_thread_local"(%{{.*}}, %{{.*}}, %{{.*}}) : (f16, !gpu.mma_matrix<16x16xf16, "COp">, index) -> !gpu.mma_matrix<16x16xf16, "COp">
  %20 = gpu.subgroup_mma_insert_thread_local %19, %c[%i] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  // CHECK-NEXT: func.return
  return
}

// CHECK-LABEL: func.func @sparse_handles
func.func @sparse_handles(%n: index, %vals: memref<?xf64>, %idx: memref<?xindex>, %t: !gpu.async.token) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_dn_tensor async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : index, index into memref<?xf64>
  // GENERIC: "gpu.create_dn_tensor"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 2>}> : (!gpu.async.token, memref<?xf64>, index, index) -> (!gpu.sparse.dntensor_handle, !gpu.async.token)
  %dn, %t0 = gpu.create_dn_tensor async [%t] %vals, %n, %n : index, index into memref<?xf64>
  // CHECK-NEXT: %{{.*}} = gpu.create_dn_tensor  %{{.*}}, %{{.*}} : index into memref<?xf64>
  // GENERIC: "gpu.create_dn_tensor"(%{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 1, 1>}> : (memref<?xf64>, index) -> !gpu.sparse.dntensor_handle
  %dn1 = gpu.create_dn_tensor %vals, %n : index into memref<?xf64>
  // CHECK-NEXT: %{{.*}} = gpu.destroy_dn_tensor async [%{{.*}}] %{{.*}}
  // GENERIC: "gpu.destroy_dn_tensor"(%{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.sparse.dntensor_handle) -> !gpu.async.token
  %t1 = gpu.destroy_dn_tensor async [%t0] %dn
  // CHECK-NEXT: gpu.destroy_dn_tensor  %{{.*}} {foo}
  // GENERIC: "gpu.destroy_dn_tensor"(%{{.*}}) {foo} : (!gpu.sparse.dntensor_handle) -> ()
  gpu.destroy_dn_tensor %dn1 {foo}
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_coo async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // GENERIC: "gpu.create_coo"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  %coo, %t2 = gpu.create_coo async [%t1] %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %{{.*}} = gpu.create_coo_aos  %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xf64>
  // GENERIC: "gpu.create_coo_aos"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, memref<?xindex>, memref<?xf64>) -> !gpu.sparse.spmat_handle
  %aos = gpu.create_coo_aos %n, %n, %n, %idx, %vals : memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_csr async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // GENERIC: "gpu.create_csr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!gpu.async.token, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  %csr, %t3 = gpu.create_csr async [%t2] %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_csc async %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // GENERIC: "gpu.create_csc"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  %csc, %t4 = gpu.create_csc async %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_bsr async [%{{.*}}, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // GENERIC: "gpu.create_bsr"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.async.token, index, index, index, index, index, memref<?xindex>, memref<?xindex>, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  %bsr, %t5 = gpu.create_bsr async [%t3, %t4] %n, %n, %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.create_2to4_spmat async [%{{.*}}]{ PRUNE_AND_{{C}}HECK} %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf64>
  // GENERIC: "gpu.create_2to4_spmat"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_{{C}}HECK>}> : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  // (the default prune flag, left out in generic form)
  %s24, %t6 = "gpu.create_2to4_spmat"(%t5, %n, %n, %vals) : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  // CHECK-NEXT: %{{.*}} = gpu.create_2to4_spmat { NONE} %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf64>
  // GENERIC: "gpu.create_2to4_spmat"(%{{.*}}, %{{.*}}, %{{.*}}) <{pruneFlag = #gpu<prune_2to4_spmat_flag NONE>}>
  %s24b = gpu.create_2to4_spmat { NONE} %n, %n, %vals : memref<?xf64>
  // CHECK-NEXT: %{{.*}} = gpu.create_2to4_spmat { PRUNE_ONLY} %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf64>
  // GENERIC: "gpu.create_2to4_spmat"(%{{.*}}, %{{.*}}, %{{.*}}) <{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_ONLY>}>
  %s24c = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %vals : memref<?xf64>
  // CHECK-NEXT: %{{.*}} = gpu.destroy_sp_mat async [%{{.*}}] %{{.*}}
  // GENERIC: "gpu.destroy_sp_mat"(%{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> !gpu.async.token
  %t7 = gpu.destroy_sp_mat async [%t6] %coo
  // CHECK-NEXT: gpu.destroy_sp_mat  %{{.*}}
  // GENERIC: "gpu.destroy_sp_mat"(%{{.*}}) : (!gpu.sparse.spmat_handle) -> ()
  gpu.destroy_sp_mat %aos
  // CHECK-NEXT: func.return
  return
}

// CHECK-LABEL: func.func @sparse_compute
func.func @sparse_compute(%sp: !gpu.sparse.spmat_handle, %dn: !gpu.sparse.dntensor_handle, %buf: memref<?xi8>, %n: index, %t: !gpu.async.token) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.spmv_buffer_size async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} into f64
  // GENERIC: "gpu.spmv_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, !gpu.async.token)
  %bs0, %t0 = gpu.spmv_buffer_size async [%t] %sp, %dn, %dn into f64
  // CHECK-NEXT: %{{.*}} = gpu.spmv_buffer_size  %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}} into f32
  // GENERIC: "gpu.spmv_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode TRANSPOSE>}>
  %bs1 = gpu.spmv_buffer_size %sp{TRANSPOSE}, %dn, %dn into f32
  // CHECK-NEXT: %{{.*}} = gpu.spmv_buffer_size  %{{.*}}, %{{.*}}, %{{.*}} into complex<f32>
  // GENERIC: "gpu.spmv_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}) <{computeType = complex<f32>, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}>
  %bs2 = gpu.spmv_buffer_size %sp{NON_TRANSPOSE}, %dn, %dn into complex<f32>
  // CHECK-NEXT: %{{.*}} = gpu.spmv async [%{{.*}}] %{{.*}}{ CONJUGATE_TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8> into f64
  // GENERIC: "gpu.spmv"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f64, modeA = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xi8>) -> !gpu.async.token
  %t1 = gpu.spmv async [%t0] %sp{CONJUGATE_TRANSPOSE}, %dn, %dn, %buf : memref<?xi8> into f64
  // CHECK-NEXT: gpu.spmv  %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8> into bf16
  // GENERIC: "gpu.spmv"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = bf16, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xi8>) -> ()
  gpu.spmv %sp, %dn, %dn, %buf : memref<?xi8> into bf16
  // CHECK-NEXT: %{{.*}}:2, %{{.*}} = gpu.spmm_buffer_size async [%{{.*}}] %{{.*}}{ TRANSPOSE}, %{{.*}}{ TRANSPOSE}, %{{.*}} : index, index into f32
  // GENERIC: "gpu.spmm_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>, resultSegmentSizes = array<i32: 2, 1>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> (index, index, !gpu.async.token)
  %bss:2, %t2 = gpu.spmm_buffer_size async [%t1] %sp{TRANSPOSE}, %dn{TRANSPOSE}, %dn : index, index into f32
  // CHECK-NEXT: %{{.*}} = gpu.spmm_buffer_size  %{{.*}}, %{{.*}}, %{{.*}} : index into f16
  // GENERIC: "gpu.spmm_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f16, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>, resultSegmentSizes = array<i32: 1, 0>}> : (!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle) -> index
  %bs3 = gpu.spmm_buffer_size %sp, %dn, %dn : index into f16
  // CHECK-NEXT: %{{.*}} = gpu.spmm async [%{{.*}}] %{{.*}}, %{{.*}}{ CONJUGATE_TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8>, memref<?xi8> into f32
  // GENERIC: "gpu.spmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 2>}> : (!gpu.async.token, !gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, memref<?xi8>, memref<?xi8>) -> !gpu.async.token
  %t3 = gpu.spmm async [%t2] %sp, %dn{CONJUGATE_TRANSPOSE}, %dn, %buf, %buf : memref<?xi8>, memref<?xi8> into f32
  // CHECK-NEXT: gpu.spmm  %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8> into f32
  // GENERIC: "gpu.spmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1>}>
  gpu.spmm %sp{TRANSPOSE}, %dn, %dn, %buf : memref<?xi8> into f32
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.sddmm_buffer_size async [%{{.*}}] %{{.*}}{ TRANSPOSE}, %{{.*}}{ TRANSPOSE}, %{{.*}} into f32
  // GENERIC: "gpu.sddmm_buffer_size"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle) -> (index, !gpu.async.token)
  %bs4, %t4 = gpu.sddmm_buffer_size async [%t3] %dn{TRANSPOSE}, %dn{TRANSPOSE}, %sp into f32
  // CHECK-NEXT: %{{.*}} = gpu.sddmm async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8> into f64
  // GENERIC: "gpu.sddmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f64, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.spmat_handle, memref<?xi8>) -> !gpu.async.token
  %t5 = gpu.sddmm async [%t4] %dn, %dn, %sp, %buf : memref<?xi8> into f64
  // CHECK-NEXT: gpu.sddmm  %{{.*}}, %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}} {foo} : memref<?xi8> into f32
  // GENERIC: "gpu.sddmm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>}> {foo}
  gpu.sddmm %dn, %dn{TRANSPOSE}, %sp, %buf {foo} : memref<?xi8> into f32
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.spgemm_create_descr async [%{{.*}}]
  // GENERIC: "gpu.spgemm_create_descr"(%{{.*}}) : (!gpu.async.token) -> (!gpu.sparse.spgemmop_handle, !gpu.async.token)
  %desc, %t6 = gpu.spgemm_create_descr async [%t5]
  // CHECK-NEXT: %{{.*}} = gpu.spgemm_create_descr {{$}}
  // GENERIC: "gpu.spgemm_create_descr"() : () -> !gpu.sparse.spgemmop_handle
  %desc1 = gpu.spgemm_create_descr
  // CHECK-NEXT: %{{.*}}, %{{.*}} = gpu.spgemm_work_estimation_or_compute async [%{{.*}}]{ WORK_ESTIMATION} %{{.*}}, %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 into memref<?xi8>
  // GENERIC: "gpu.spgemm_work_estimation_or_compute"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, kind = #gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION>, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, index, memref<?xi8>) -> (index, !gpu.async.token)
  %bs5, %t7 = gpu.spgemm_work_estimation_or_compute async [%t6] {WORK_ESTIMATION} %sp, %sp{TRANSPOSE}, %sp, %desc, %n, %buf : f32 into memref<?xi8>
  // CHECK-NEXT: %{{.*}} = gpu.spgemm_work_estimation_or_compute { COMPUTE} %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f64 into memref<?xi8>
  // GENERIC: "gpu.spgemm_work_estimation_or_compute"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f64, kind = #gpu<spgemm_work_estimation_or_compute_kind COMPUTE>, modeA = #gpu<mat_transpose_mode TRANSPOSE>, modeB = #gpu<mat_transpose_mode NON_TRANSPOSE>}>
  %bs6 = gpu.spgemm_work_estimation_or_compute {COMPUTE} %sp{TRANSPOSE}, %sp, %sp, %desc1, %n, %buf : f64 into memref<?xi8>
  // CHECK-NEXT: %{{.*}} = gpu.spgemm_copy async [%{{.*}}] %{{.*}}, %{{.*}}{ TRANSPOSE}, %{{.*}}, %{{.*}} : f32
  // GENERIC: "gpu.spgemm_copy"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>, modeB = #gpu<mat_transpose_mode TRANSPOSE>}> : (!gpu.async.token, !gpu.sparse.spgemmop_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle, !gpu.sparse.spmat_handle) -> !gpu.async.token
  %t8 = gpu.spgemm_copy async [%t7] %sp, %sp{TRANSPOSE}, %sp, %desc : f32
  // CHECK-NEXT: gpu.spgemm_copy  %{{.*}}{ CONJUGATE_TRANSPOSE}, %{{.*}}, %{{.*}}, %{{.*}} : f16
  gpu.spgemm_copy %sp{CONJUGATE_TRANSPOSE}, %sp, %sp, %desc1 : f16
  // CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = gpu.spmat_get_size async [%{{.*}}] %{{.*}}
  // GENERIC: "gpu.spmat_get_size"(%{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.sparse.spmat_handle) -> (index, index, index, !gpu.async.token)
  %rows, %cols, %nnz, %t9 = gpu.spmat_get_size async [%t8] %sp
  // CHECK-NEXT: %{{.*}}, %{{.*}}, %{{.*}} = gpu.spmat_get_size  %{{.*}}
  // GENERIC: "gpu.spmat_get_size"(%{{.*}}) : (!gpu.sparse.spmat_handle) -> (index, index, index)
  %r1, %c1, %z1 = gpu.spmat_get_size %sp
  // CHECK-NEXT: %{{.*}} = gpu.set_csr_pointers async [%{{.*}}] %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : memref<?xi8>, memref<?xi8>, memref<?xi8>
  // GENERIC: "gpu.set_csr_pointers"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.sparse.spmat_handle, memref<?xi8>, memref<?xi8>, memref<?xi8>) -> !gpu.async.token
  %t10 = gpu.set_csr_pointers async [%t9] %sp, %buf, %buf, %buf : memref<?xi8>, memref<?xi8>, memref<?xi8>
  // CHECK-NEXT: %{{.*}} = gpu.spgemm_destroy_descr async [%{{.*}}] %{{.*}}
  // GENERIC: "gpu.spgemm_destroy_descr"(%{{.*}}, %{{.*}}) : (!gpu.async.token, !gpu.sparse.spgemmop_handle) -> !gpu.async.token
  %t11 = gpu.spgemm_destroy_descr async [%t10] %desc
  // CHECK-NEXT: gpu.spgemm_destroy_descr  %{{.*}}
  // GENERIC: "gpu.spgemm_destroy_descr"(%{{.*}}) : (!gpu.sparse.spgemmop_handle) -> ()
  gpu.spgemm_destroy_descr %desc1
  // CHECK-NEXT: gpu.wait [%{{.*}}]
  gpu.wait [%t11]
  // CHECK-NEXT: func.return
  return
}
