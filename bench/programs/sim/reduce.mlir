// Block reduction over 2^18 f32: each of the 1024 blocks of 256 work-items
// sums its 256 elements with gpu.all_reduce add and work-item 0 writes the
// block's sum to partial[block]. bench/sim.py times @main (the whole launch)
// after @warmup (one block of the same kernel: builds and compiles it).
module attributes {gpu.container_module} {
  gpu.module @reduce {
    gpu.func @reduce(%in: memref<262144xf32>, %partial: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %g = gpu.block_id x
      %v = memref.load %in[%i] : memref<262144xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        memref.store %sum, %partial[%g] : memref<1024xf32>
      }
      gpu.return
    }
  }
  func.func @sums(%in: memref<262144xf32>, %partial: memref<1024xf32>, %g: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %t0 = gpu.wait async
    %din, %t1 = gpu.alloc async [%t0] () : memref<262144xf32>
    %dp, %t2 = gpu.alloc async [%t0] () : memref<1024xf32>
    %t3 = gpu.memcpy async [%t1] %din, %in : memref<262144xf32>, memref<262144xf32>
    %t4 = gpu.memcpy async [%t2] %dp, %partial : memref<1024xf32>, memref<1024xf32>
    %t5 = gpu.launch_func async [%t3, %t4] @reduce::@reduce blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1) args(%din : memref<262144xf32>, %dp : memref<1024xf32>)
    %t6 = gpu.memcpy async [%t5] %partial, %dp : memref<1024xf32>, memref<1024xf32>
    %t7 = gpu.dealloc async [%t6] %din : memref<262144xf32>
    %t8 = gpu.dealloc async [%t7] %dp : memref<1024xf32>
    gpu.wait [%t8]
    return
  }
  func.func @main(%in: memref<262144xf32>, %partial: memref<1024xf32>) {
    %g = arith.constant 1024 : index
    call @sums(%in, %partial, %g) : (memref<262144xf32>, memref<1024xf32>, index) -> ()
    return
  }
  func.func @warmup(%in: memref<262144xf32>, %partial: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    call @sums(%in, %partial, %c1) : (memref<262144xf32>, memref<1024xf32>, index) -> ()
    return
  }
}
