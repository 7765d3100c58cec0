// Affine ops in a kernel (floordiv, ceildiv and mod of negative values by a
// constant and by a symbol, min/max, an affine.for with an iteration argument,
// affine.if with an inequality and an equality) and vector ops on the host
// (fma, shuffle, reduction, vector.print), as xgpu-run runs them directly.
#set = affine_set<(d0)[s0] : (d0 - 3 >= 0, s0 - d0 - 1 >= 0)>
#eq = affine_set<(d0) : (d0 mod 4 == 0)>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<8x32xi64>, %s: index) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %x = affine.apply affine_map<(d0) -> (d0 - 16)>(%t)
      %fd = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%x)
      %cd = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%x)[%s]
      %md = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%x)[%s]
      %mn = affine.min affine_map<(d0)[s0] -> (d0 * 2, 5, s0 - d0)>(%x)[%s]
      %mx = affine.max affine_map<(d0) -> (d0 * -3, d0 + 1)>(%x)
      %sum = affine.for %i = 0 to 5 iter_args(%acc = %x) -> (index) {
        %n = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%acc, %i)
        affine.yield %n : index
      }
      %sel = affine.if #set(%t)[%c7] -> index {
        affine.yield %fd : index
      } else {
        affine.yield %cd : index
      }
      %e = affine.if #eq(%x) -> index {
        affine.yield %c1 : index
      } else {
        affine.yield %c0 : index
      }
      %r0 = arith.index_cast %fd : index to i64
      %r1 = arith.index_cast %cd : index to i64
      %r2 = arith.index_cast %md : index to i64
      %r3 = arith.index_cast %mn : index to i64
      %r4 = arith.index_cast %mx : index to i64
      %r5 = arith.index_cast %sum : index to i64
      %r6 = arith.index_cast %sel : index to i64
      %r7 = arith.index_cast %e : index to i64
      affine.store %r0, %out[0, %t] : memref<8x32xi64>
      affine.store %r1, %out[1, %t] : memref<8x32xi64>
      affine.store %r2, %out[%c1 + 1, %t] : memref<8x32xi64>
      affine.store %r3, %out[3, %t] : memref<8x32xi64>
      affine.store %r4, %out[4, %t] : memref<8x32xi64>
      affine.store %r5, %out[5, %t] : memref<8x32xi64>
      affine.store %r6, %out[6, %t] : memref<8x32xi64>
      affine.store %r7, %out[7, %t] : memref<8x32xi64>
      gpu.return
    }
  }
  func.func @main() {
    %host = memref.alloc() : memref<8x32xi64>
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<8x32xi64>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<8x32xi64>, %c3 : index)
    gpu.memcpy %host, %d : memref<8x32xi64>, memref<8x32xi64>
    gpu.dealloc %d : memref<8x32xi64>
    %u = memref.cast %host : memref<8x32xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    %v = arith.constant dense<[1.5, -2.0, 3.25, 0.5]> : vector<4xf32>
    %w = arith.constant dense<2.0> : vector<4xf32>
    %p = vector.fma %v, %w, %v : vector<4xf32>
    %s = vector.shuffle %p, %v [7, 0, 2, 4] : vector<4xf32>, vector<4xf32>
    vector.print %s : vector<4xf32>
    %r = vector.reduction <maxnumf>, %p : vector<4xf32> into f32
    vector.print %r : f32
    return
  }
  func.func private @printMemrefI64(memref<*xi64>)
}
// CHECK: rank = 2 offset = 0 sizes = [8, 32] strides = [32, 1] data =
// CHECK-NEXT: [[-4,   -4,   -4,   -4,   -3,   -3,   -3,   -3,   -2,   -2,   -2,   -2,   -1,   -1,   -1,   -1,   0,   0,   0,   0,   1,   1,   1,   1,   2,   2,   2,   2,   3,   3,   3,   3],
// CHECK-NEXT:  [-5,   -5,   -4,   -4,   -4,   -3,   -3,   -3,   -2,   -2,   -2,   -1,   -1,   -1,   0,   0,   0,   1,   1,   1,   2,   2,   2,   3,   3,   3,   4,   4,   4,   5,   5,   5],
// CHECK-NEXT:  [2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0,   1,   2,   0],
// CHECK-NEXT:  [-32,   -30,   -28,   -26,   -24,   -22,   -20,   -18,   -16,   -14,   -12,   -10,   -8,   -6,   -4,   -2,   0,   2,   1,   0,   -1,   -2,   -3,   -4,   -5,   -6,   -7,   -8,   -9,   -10,   -11,   -12],
// CHECK-NEXT:  [48,   45,   42,   39,   36,   33,   30,   27,   24,   21,   18,   15,   12,   9,   6,   3,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16],
// CHECK-NEXT:  [4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35],
// CHECK-NEXT:  [-5,   -5,   -4,   -4,   -3,   -3,   -3,   -3,   -2,   -2,   -2,   -1,   -1,   -1,   0,   0,   0,   1,   1,   1,   2,   2,   2,   3,   3,   3,   4,   4,   4,   5,   5,   5],
// CHECK-NEXT:  [1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0,   1,   0,   0,   0]]
// CHECK-NEXT: ( 0.5, 4.5, 9.75, 1.5 )
// CHECK-NEXT: 9.75
