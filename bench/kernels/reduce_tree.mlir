// Block reduction written out as a workgroup-memory tree (the algorithm of
// reduce.cl): each work-group of 256 work items stores its elements of `in`
// in workgroup memory, halves the active range 8 times (stride 128, 64, ...,
// 1) with a barrier after each step, and work item 0 writes the block's
// partial sum to partial[block_id]. Benchmarked by bench/kernels.py against
// reduce.cl.
module attributes {gpu.container_module} {
  gpu.module @reduce_tree {
    gpu.func @reduce_tree(%in: memref<?xf32>, %partial: memref<?xf32>)
        workgroup(%s: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %stride = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %t, %stride : index
        scf.if %active {
          %j = arith.addi %t, %stride : index
          %a = memref.load %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %s[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %sum = arith.addf %a, %b : f32
          memref.store %sum, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %r = memref.load %s[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %r, %partial[%g] : memref<?xf32>
      }
      gpu.return
    }
  }
}
