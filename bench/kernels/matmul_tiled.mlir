// Tiled matmul C = A @ B (n x n, n a multiple of 16) with 16x16 tiles of A
// and B staged in workgroup memory; one work item per element of C, 16x16
// work-groups. Benchmarked by bench/kernels.py against matmul_tiled.cl.
module attributes {gpu.container_module} {
  gpu.module @matmul {
    gpu.func @matmul_tiled(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %n = memref.dim %A, %c0 : memref<?x?xf32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = gpu.global_id y
      %col = gpu.global_id x
      %acc = scf.for %t = %c0 to %n step %c16 iter_args(%sum = %zero) -> (f32) {
        %ac = arith.addi %t, %tx : index
        %av = memref.load %A[%row, %ac] : memref<?x?xf32>
        memref.store %av, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %bv = memref.load %B[%br, %col] : memref<?x?xf32>
        memref.store %bv, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %inner = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %a = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %inner : f32
      }
      memref.store %acc, %C[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }
}
