// Block reduction: each work-group of 256 work items sums its 256 elements of
// `in` with gpu.all_reduce and work item 0 writes the block's partial sum to
// partial[block_id]. Benchmarked by bench/kernels.py against reduce.cl.
module attributes {gpu.container_module} {
  gpu.module @reduce {
    gpu.func @reduce(%in: memref<?xf32>, %partial: memref<?xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %v = memref.load %in[%i] : memref<?xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %sum, %partial[%g] : memref<?xf32>
      }
      gpu.return
    }
  }
}
