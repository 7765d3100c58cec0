// Tiled matmul C = A x B (8x8): each 4x4 block stages 4x4 tiles of A and B in
// workgroup memory, with barriers. Same data as matmul_naive.mlir.
module attributes {gpu.container_module} {
  gpu.module @mm {
    gpu.func @matmul_tiled(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>)
        workgroup(%As : memref<4x4xf32, #gpu.address_space<workgroup>>, %Bs : memref<4x4xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %rb = arith.muli %by, %c4 : index
      %row = arith.addi %rb, %ty : index
      %cb = arith.muli %bx, %c4 : index
      %col = arith.addi %cb, %tx : index
      %zero = arith.constant 0.0 : f32
      %sum = scf.for %t = %c0 to %c8 step %c4 iter_args(%acc = %zero) -> (f32) {
        %ac = arith.addi %t, %tx : index
        %a = memref.load %A[%row, %ac] : memref<8x8xf32>
        memref.store %a, %As[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %b = memref.load %B[%br, %col] : memref<8x8xf32>
        memref.store %b, %Bs[%ty, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %p = %c0 to %c4 step %c1 iter_args(%s = %acc) -> (f32) {
          %x = memref.load %As[%ty, %p] : memref<4x4xf32, #gpu.address_space<workgroup>>
          %y = memref.load %Bs[%p, %tx] : memref<4x4xf32, #gpu.address_space<workgroup>>
          %xy = arith.mulf %x, %y : f32
          %s2 = arith.addf %s, %xy : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %C[%row, %col] : memref<8x8xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %A = memref.alloc() : memref<8x8xf32>
    %B = memref.alloc() : memref<8x8xf32>
    %C = memref.alloc() : memref<8x8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %s = arith.addi %i, %j : index
        %d = arith.subi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %di = arith.index_cast %d : index to i32
        %sf = arith.sitofp %si : i32 to f32
        %df = arith.sitofp %di : i32 to f32
        memref.store %sf, %A[%i, %j] : memref<8x8xf32>
        memref.store %df, %B[%i, %j] : memref<8x8xf32>
      }
    }
    %t0 = gpu.wait async
    %dA, %t1 = gpu.alloc async [%t0] () : memref<8x8xf32>
    %dB, %t2 = gpu.alloc async [%t0] () : memref<8x8xf32>
    %dC, %t3 = gpu.alloc async [%t0] () : memref<8x8xf32>
    %t4 = gpu.memcpy async [%t1] %dA, %A : memref<8x8xf32>, memref<8x8xf32>
    %t5 = gpu.memcpy async [%t2] %dB, %B : memref<8x8xf32>, memref<8x8xf32>
    %t6 = gpu.launch_func async [%t3, %t4, %t5] @mm::@matmul_tiled blocks in (%c2, %c2, %c1) threads in (%c4, %c4, %c1) args(%dA : memref<8x8xf32>, %dB : memref<8x8xf32>, %dC : memref<8x8xf32>)
    %t7 = gpu.memcpy async [%t6] %C, %dC : memref<8x8xf32>, memref<8x8xf32>
    gpu.wait [%t7]
    %u = memref.cast %C : memref<8x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
// CHECK: rank = 2 offset = 0 sizes = [8, 8] strides = [8, 1] data =
// CHECK-NEXT: [[140,   112,   84,   56,   28,   0,   -28,   -56],
// CHECK-NEXT:  [168,   132,   96,   60,   24,   -12,   -48,   -84],
// CHECK-NEXT:  [196,   152,   108,   64,   20,   -24,   -68,   -112],
// CHECK-NEXT:  [224,   172,   120,   68,   16,   -36,   -88,   -140],
// CHECK-NEXT:  [252,   192,   132,   72,   12,   -48,   -108,   -168],
// CHECK-NEXT:  [280,   212,   144,   76,   8,   -60,   -128,   -196],
// CHECK-NEXT:  [308,   232,   156,   80,   4,   -72,   -148,   -224],
// CHECK-NEXT:  [336,   252,   168,   84,   0,   -84,   -168,   -252]]
