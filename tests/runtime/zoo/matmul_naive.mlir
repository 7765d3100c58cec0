// Naive matmul C = A x B (8x8, 2x2 blocks of 4x4 threads), dynamic sizes.
module attributes {gpu.container_module} {
  gpu.module @mm {
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %row = gpu.global_id y
      %col = gpu.global_id x
      %m = memref.dim %C, %c0 : memref<?x?xf32>
      %n = memref.dim %C, %c1 : memref<?x?xf32>
      %k = memref.dim %A, %c1 : memref<?x?xf32>
      %r_ok = arith.cmpi ult, %row, %m : index
      %c_ok = arith.cmpi ult, %col, %n : index
      %ok = arith.andi %r_ok, %c_ok : i1
      scf.if %ok {
        %zero = arith.constant 0.0 : f32
        %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
          %a = memref.load %A[%row, %p] : memref<?x?xf32>
          %b = memref.load %B[%p, %col] : memref<?x?xf32>
          %ab = arith.mulf %a, %b : f32
          %next = arith.addf %acc, %ab : f32
          scf.yield %next : f32
        }
        memref.store %sum, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  // A[i][k] = i + k, B[k][j] = k - j (as floats)
  func.func @init(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %s = arith.addi %i, %j : index
        %d = arith.subi %i, %j : index
        %si = arith.index_cast %s : index to i32
        %di = arith.index_cast %d : index to i32
        %sf = arith.sitofp %si : i32 to f32
        %df = arith.sitofp %di : i32 to f32
        memref.store %sf, %A[%i, %j] : memref<?x?xf32>
        memref.store %df, %B[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 8 : index
    %A = memref.alloc(%n, %n) : memref<?x?xf32>
    %B = memref.alloc(%n, %n) : memref<?x?xf32>
    %C = memref.alloc(%n, %n) : memref<?x?xf32>
    call @init(%A, %B, %n) : (memref<?x?xf32>, memref<?x?xf32>, index) -> ()
    %dA = gpu.alloc (%n, %n) : memref<?x?xf32>
    %dB = gpu.alloc (%n, %n) : memref<?x?xf32>
    %dC = gpu.alloc (%n, %n) : memref<?x?xf32>
    gpu.memcpy %dA, %A : memref<?x?xf32>, memref<?x?xf32>
    gpu.memcpy %dB, %B : memref<?x?xf32>, memref<?x?xf32>
    gpu.launch_func @mm::@matmul blocks in (%c2, %c2, %c1) threads in (%c4, %c4, %c1) args(%dA : memref<?x?xf32>, %dB : memref<?x?xf32>, %dC : memref<?x?xf32>)
    gpu.memcpy %C, %dC : memref<?x?xf32>, memref<?x?xf32>
    %u = memref.cast %C : memref<?x?xf32> to memref<*xf32>
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
