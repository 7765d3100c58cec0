// A block reduction: 2^18 f32 summed by 1024 blocks of 256 work-items, each a
// tree in workgroup memory (8 steps, a gpu.barrier each); block sums go to
// %partial, which the host adds up and prints.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%x: memref<?xf32>) kernel {
      %c5 = arith.constant 5 : i32
      %i = gpu.global_id x
      %ii = arith.index_cast %i : index to i32
      %r = arith.remsi %ii, %c5 : i32
      %f = arith.sitofp %r : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @reduce(%x: memref<?xf32>, %partial: memref<?xf32>)
        workgroup(%s : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %i = gpu.global_id x
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c8 step %c1 {
        %stride = arith.shrui %c128, %k : index
        %active = arith.cmpi ult, %t, %stride : index
        scf.if %active {
          %j = arith.addi %t, %stride : index
          %p = memref.load %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %q = memref.load %s[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %r = arith.addf %p, %q : f32
          memref.store %r, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %sum = memref.load %s[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %sum, %partial[%b] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 262144 : index
    %blocks = arith.divui %n, %c256 : index
    %x = gpu.alloc (%n) : memref<?xf32>
    %partial = gpu.alloc (%blocks) : memref<?xf32>
    gpu.launch_func @k::@fill blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>)
    gpu.launch_func @k::@reduce blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %partial : memref<?xf32>)
    %h = memref.alloc(%blocks) : memref<?xf32>
    gpu.memcpy %h, %partial : memref<?xf32>, memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %total = scf.for %k = %c0 to %blocks step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %h[%k] : memref<?xf32>
      %a2 = arith.addf %acc, %v : f32
      scf.yield %a2 : f32
    }
    call @printF32(%total) : (f32) -> ()
    gpu.dealloc %x : memref<?xf32>
    gpu.dealloc %partial : memref<?xf32>
    return
  }
}
