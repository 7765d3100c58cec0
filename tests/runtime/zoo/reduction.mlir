// Reductions: a block tree reduction in workgroup memory (4 blocks of 256
// threads, one partial sum per block), then gpu.all_reduce over the partials
// in one block; and an integer maximum with gpu.all_reduce.
// x[i] = i mod 7 for i < 1024: the sum is 3067.
module attributes {gpu.container_module} {
  gpu.module @reduce {
    gpu.func @block_sum(%x: memref<1024xf32>, %partial: memref<4xf32>)
        workgroup(%scratch : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %gid = gpu.global_id x
      %v = memref.load %x[%gid] : memref<1024xf32>
      memref.store %v, %scratch[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %step = %c0 to %c8 step %c1 {
        %stride = arith.shrui %c128, %step : index
        %active = arith.cmpi ult, %tid, %stride : index
        scf.if %active {
          %other = arith.addi %tid, %stride : index
          %a = memref.load %scratch[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
          %b = memref.load %scratch[%other] : memref<256xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %a, %b : f32
          memref.store %s, %scratch[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %total = memref.load %scratch[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        %bid = gpu.block_id x
        memref.store %total, %partial[%bid] : memref<4xf32>
      }
      gpu.return
    }
    gpu.func @finish(%partial: memref<4xf32>, %out: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %v = memref.load %partial[%tid] : memref<4xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %max = gpu.all_reduce maxnumf %v uniform {} : (f32) -> f32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%c0] : memref<2xf32>
        memref.store %max, %out[%c1] : memref<2xf32>
      }
      gpu.return
    }
    gpu.func @imax(%x: memref<64xi32>, %out: memref<1xi32>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<64xi32>
      %m = gpu.all_reduce maxsi %v uniform {} : (i32) -> i32
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %m, %out[%c0] : memref<1xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %x = memref.alloc() : memref<1024xf32>
    scf.for %i = %c0 to %c1024 step %c1 {
      %r = arith.remui %i, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      memref.store %f, %x[%i] : memref<1024xf32>
    }
    // y[i] = (i * 37) mod 101 - 50: the maximum is 50
    %y = memref.alloc() : memref<64xi32>
    scf.for %i = %c0 to %c64 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %k37 = arith.constant 37 : i32
      %k101 = arith.constant 101 : i32
      %k50 = arith.constant 50 : i32
      %p = arith.muli %ii, %k37 : i32
      %m = arith.remsi %p, %k101 : i32
      %v = arith.subi %m, %k50 : i32
      memref.store %v, %y[%i] : memref<64xi32>
    }
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<1024xf32>
    %dp, %t2 = gpu.alloc async [%t0] () : memref<4xf32>
    %dout, %t3 = gpu.alloc async [%t0] () : memref<2xf32>
    %t4 = gpu.memcpy async [%t1] %dx, %x : memref<1024xf32>, memref<1024xf32>
    %t5 = gpu.launch_func async [%t2, %t4] @reduce::@block_sum blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1) args(%dx : memref<1024xf32>, %dp : memref<4xf32>)
    %t6 = gpu.launch_func async [%t3, %t5] @reduce::@finish blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%dp : memref<4xf32>, %dout : memref<2xf32>)
    %partial = memref.alloc() : memref<4xf32>
    %out = memref.alloc() : memref<2xf32>
    %t7 = gpu.memcpy async [%t6] %partial, %dp : memref<4xf32>, memref<4xf32>
    %t8 = gpu.memcpy async [%t6] %out, %dout : memref<2xf32>, memref<2xf32>
    %dy, %t9 = gpu.alloc async [%t0] () : memref<64xi32>
    %dm, %t10 = gpu.alloc async [%t0] () : memref<1xi32>
    %t11 = gpu.memcpy async [%t9] %dy, %y : memref<64xi32>, memref<64xi32>
    %t12 = gpu.launch_func async [%t10, %t11] @reduce::@imax blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dy : memref<64xi32>, %dm : memref<1xi32>)
    %m = memref.alloc() : memref<1xi32>
    %t13 = gpu.memcpy async [%t12] %m, %dm : memref<1xi32>, memref<1xi32>
    gpu.wait [%t7, %t8, %t13]
    %u1 = memref.cast %partial : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    %u2 = memref.cast %out : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
    %u3 = memref.cast %m : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
    return
  }
}
// CHECK: sizes = [4] strides = [1] data =
// CHECK-NEXT: [762,  771,  766,  768]
// CHECK: sizes = [2] strides = [1] data =
// CHECK-NEXT: [3067,  771]
// CHECK: sizes = [1] strides = [1] data =
// CHECK-NEXT: [50]
