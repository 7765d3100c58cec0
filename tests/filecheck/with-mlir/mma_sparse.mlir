// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

func.func @mma(%m: memref<32x32xf16>, %v: memref<8x8xvector<4xf32>, strided<[8, 1]>>, %i: index, %h: f16,
               %a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<8x16xf16, "BOp">,
               %c: !gpu.mma_matrix<16x16xf16, "COp">, %ai: !gpu.mma_matrix<16x16xsi8, "AOp">,
               %bi: !gpu.mma_matrix<16x16xui8, "BOp">, %ci: !gpu.mma_matrix<16x16xi32, "COp">,
               %d: !gpu.mma_matrix<16x16xf64, "COp">) {
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x8xf16, "AOp">
  %1 = gpu.subgroup_mma_load_matrix %v[%i, %i] {foo, leadDimension = 8 : index, transpose} : memref<8x8xvector<4xf32>, strided<[8, 1]>> -> !gpu.mma_matrix<16x16xf32, "BOp">
  gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  gpu.subgroup_mma_store_matrix %c, %m[%i, %i] {leadDimension = 32 : index, transpose} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>
  %2 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  %3 = gpu.subgroup_mma_compute %ai, %bi, %ci {a_transpose, b_transpose} : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
  %4 = gpu.subgroup_mma_constant_matrix %h : !gpu.mma_matrix<16x16xf16, "COp">
  %5 = gpu.subgroup_mma_elementwise addf %c, %4 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
  %6 = gpu.subgroup_mma_elementwise extf %c {foo} : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  %7 = gpu.subgroup_mma_elementwise negatef : () -> !gpu.mma_matrix<16x16xf32, "COp">
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
  %19 = gpu.subgroup_mma_extract_thread_local %c[%i] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16
  %20 = gpu.subgroup_mma_insert_thread_local %19, %c[%i] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
  return
}

// -----

func.func @a(%c: !gpu.mma_matrix<16x16xf16, "COp">) {
  %4 = gpu.subgroup_mma_elementwise negatef : () -> !gpu.mma_matrix<16x16xf32, "COp">
  %5 = gpu.subgroup_mma_elementwise extf %c {foo} : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  %6 = gpu.subgroup_mma_elementwise negatef {foo} : () -> !gpu.mma_matrix<16x16xf32, "COp">
  %7 = gpu.subgroup_mma_elementwise "divs" %c : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}

// -----

func.func @sparse_handles(%n: index, %vals: memref<?xf64>, %idx: memref<?xindex>, %t: !gpu.async.token) {
  %dn, %t0 = gpu.create_dn_tensor async [%t] %vals, %n, %n : index, index into memref<?xf64>
  %dn1 = gpu.create_dn_tensor %vals, %n : index into memref<?xf64>
  %t1 = gpu.destroy_dn_tensor async [%t0] %dn
  gpu.destroy_dn_tensor %dn1 {foo}
  %coo, %t2 = gpu.create_coo async [%t1] %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %aos = gpu.create_coo_aos %n, %n, %n, %idx, %vals : memref<?xindex>, memref<?xf64>
  %csr, %t3 = gpu.create_csr async [%t2] %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %csc, %t4 = gpu.create_csc async %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %bsr, %t5 = gpu.create_bsr async [%t3, %t4] %n, %n, %n, %n, %n, %idx, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s24, %t6 = "gpu.create_2to4_spmat"(%t5, %n, %n, %vals) : (!gpu.async.token, index, index, memref<?xf64>) -> (!gpu.sparse.spmat_handle, !gpu.async.token)
  %s24b = gpu.create_2to4_spmat { NONE} %n, %n, %vals : memref<?xf64>
  %s24c = gpu.create_2to4_spmat {PRUNE_ONLY} %n, %n, %vals : memref<?xf64>
  %t7 = gpu.destroy_sp_mat async [%t6] %coo
  gpu.destroy_sp_mat %aos
  return
}

// -----

func.func @sparse_compute(%sp: !gpu.sparse.spmat_handle, %dn: !gpu.sparse.dntensor_handle, %buf: memref<?xi8>, %n: index, %t: !gpu.async.token) {
  %bs0, %t0 = gpu.spmv_buffer_size async [%t] %sp, %dn, %dn into f64
  %bs1 = gpu.spmv_buffer_size %sp{TRANSPOSE}, %dn, %dn into f32
  %bs2 = gpu.spmv_buffer_size %sp{NON_TRANSPOSE}, %dn, %dn into complex<f32>
  %t1 = gpu.spmv async [%t0] %sp{CONJUGATE_TRANSPOSE}, %dn, %dn, %buf : memref<?xi8> into f64
  gpu.spmv %sp, %dn, %dn, %buf : memref<?xi8> into bf16
  %bss, %t2 = gpu.spmm_buffer_size async [%t1] %sp{TRANSPOSE}, %dn{TRANSPOSE}, %dn : index into f32
  %bs3 = gpu.spmm_buffer_size %sp, %dn, %dn : index into f16
  %t3 = gpu.spmm async [%t2] %sp, %dn{CONJUGATE_TRANSPOSE}, %dn, %buf, %buf : memref<?xi8>, memref<?xi8> into f32
  gpu.spmm %sp{TRANSPOSE}, %dn, %dn, %buf : memref<?xi8> into f32
  %bs4, %t4 = gpu.sddmm_buffer_size async [%t3] %dn{TRANSPOSE}, %dn{TRANSPOSE}, %sp into f32
  %t5 = gpu.sddmm async [%t4] %dn, %dn, %sp, %buf : memref<?xi8> into f64
  gpu.sddmm %dn, %dn{TRANSPOSE}, %sp, %buf {foo} : memref<?xi8> into f32
  %desc, %t6 = gpu.spgemm_create_descr async [%t5]
  %desc1 = gpu.spgemm_create_descr
  %bs5, %t7 = gpu.spgemm_work_estimation_or_compute async [%t6] {WORK_ESTIMATION} %sp, %sp{TRANSPOSE}, %sp, %desc, %n, %buf : f32 into memref<?xi8>
  %bs6 = gpu.spgemm_work_estimation_or_compute {COMPUTE} %sp{TRANSPOSE}, %sp, %sp, %desc1, %n, %buf : f64 into memref<?xi8>
  %t8 = gpu.spgemm_copy async [%t7] %sp, %sp{TRANSPOSE}, %sp, %desc : f32
  gpu.spgemm_copy %sp{CONJUGATE_TRANSPOSE}, %sp, %sp, %desc1 : f16
  %rows, %cols, %nnz, %t9 = gpu.spmat_get_size async [%t8] %sp
  %r1, %c1, %z1 = gpu.spmat_get_size %sp
  %t10 = gpu.set_csr_pointers async [%t9] %sp, %buf, %buf, %buf : memref<?xi8>, memref<?xi8>, memref<?xi8>
  %t11 = gpu.spgemm_destroy_descr async [%t10] %desc
  gpu.spgemm_destroy_descr %desc1
  gpu.wait [%t11]
  return
}

// -----

func.func @sp(%i: index, %m: memref<?xf64>, %mi: memref<?xindex>, %b: memref<?xi8>) {
  %t0 = gpu.wait async
  %dn, %t1 = gpu.create_dn_tensor async [%t0] %m, %i, %i : index, index into memref<?xf64>
  %dn2 = gpu.create_dn_tensor %m, %i : index into memref<?xf64>
  %t2 = gpu.destroy_dn_tensor async [%t1] %dn2
  gpu.destroy_dn_tensor %dn2
  %s1, %t3 = gpu.create_coo async [%t2] %i, %i, %i, %mi, %mi, %m : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s2, %t4 = gpu.create_coo_aos async [%t3] %i, %i, %i, %mi, %m : memref<?xindex>, memref<?xf64>
  %s3, %t5 = gpu.create_csr async [%t4] %i, %i, %i, %mi, %mi, %m : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s4, %t6 = gpu.create_csc async [%t5] %i, %i, %i, %mi, %mi, %m : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s5, %t7 = gpu.create_bsr async [%t6] %i, %i, %i, %i, %i, %mi, %mi, %m : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %s6, %t8 = gpu.create_2to4_spmat async [%t7] {PRUNE_AND_CHECK} %i, %i, %m : memref<?xf64>
  %s7, %t8b = gpu.create_2to4_spmat async [%t7] {NONE} %i, %i, %m : memref<?xf64>
  %s8 = gpu.create_2to4_spmat {PRUNE_ONLY} %i, %i, %m : memref<?xf64>
  %t9 = gpu.destroy_sp_mat async [%t8] %s1
  %bs, %t10 = gpu.spmv_buffer_size async [%t9] %s1, %dn, %dn into f64
  %bs2, %t11 = gpu.spmv_buffer_size async [%t9] %s1{TRANSPOSE}, %dn, %dn into f32
  %bs3 = gpu.spmv_buffer_size %s1{NON_TRANSPOSE}, %dn, %dn into f32
  %t12 = gpu.spmv async [%t11] %s1{CONJUGATE_TRANSPOSE}, %dn, %dn, %b : memref<?xi8> into f64
  %bb, %t13 = gpu.spmm_buffer_size async [%t12] %s1{TRANSPOSE}, %dn{TRANSPOSE}, %dn : index into f32
  %bb1, %t13b = gpu.spmm_buffer_size async [%t12] %s1, %dn, %dn : index into f32
  %t14 = gpu.spmm async [%t13] %s1{TRANSPOSE}, %dn, %dn, %b, %b : memref<?xi8>, memref<?xi8> into f32
  %t14b = gpu.spmm async [%t13] %s1, %dn{TRANSPOSE}, %dn, %b : memref<?xi8> into f32
  %bs4, %t15 = gpu.sddmm_buffer_size async [%t14] %dn{TRANSPOSE}, %dn, %s1 into f32
  %t16 = gpu.sddmm async [%t15] %dn, %dn{TRANSPOSE}, %s1, %b : memref<?xi8> into f32
  %d, %t17 = gpu.spgemm_create_descr async [%t16]
  %nb, %t18 = gpu.spgemm_work_estimation_or_compute async [%t17] {WORK_ESTIMATION} %s1, %s2{TRANSPOSE}, %s3, %d, %i, %b : f32 into memref<?xi8>
  %nb2, %t19 = gpu.spgemm_work_estimation_or_compute async [%t18] {COMPUTE} %s1{TRANSPOSE}, %s2, %s3, %d, %i, %b : f32 into memref<?xi8>
  %t20 = gpu.spgemm_copy async [%t19] %s1, %s2{TRANSPOSE}, %s3, %d : f32
  %r, %c, %n, %t21 = gpu.spmat_get_size async [%t20] %s3
  %t22 = gpu.set_csr_pointers async [%t21] %s3, %mi, %mi, %m : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %t23 = gpu.spgemm_destroy_descr async [%t22] %d
  gpu.spgemm_destroy_descr %d
  %d2 = gpu.spgemm_create_descr
  gpu.wait [%t23]
  return
}

// -----

func.func @layouts(%c: memref<f16>, %e: memref<32x32xf16, strided<[?, 1], offset: ?>>, %i: index, %cm: !gpu.mma_matrix<16x16xf16, "COp">) {
  %0 = gpu.subgroup_mma_load_matrix %c[] {leadDimension = 64 : index} : memref<f16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  %1 = gpu.subgroup_mma_load_matrix %e[%i] {leadDimension = 64 : index} : memref<32x32xf16, strided<[?, 1], offset: ?>> -> !gpu.mma_matrix<16x16xf16, "AOp">
  gpu.subgroup_mma_store_matrix %cm, %e[%i, %i] {leadDimension = 64 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16, strided<[?, 1], offset: ?>>
  return
}

// -----

func.func @spmm_buffer_sizes(%a: !gpu.sparse.spmat_handle, %b: !gpu.sparse.dntensor_handle, %t: !gpu.async.token) {
  %sizes:2, %t1 = gpu.spmm_buffer_size async [%t] %a, %b, %b : index, index into f32
  gpu.wait [%t1]
  return
}
