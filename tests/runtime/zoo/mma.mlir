// Subgroup MMA on f16: two blocks of one 32-lane subgroup each; block b
// computes D = M x M + C + 0.5 on columns 16b..16b+15 of a 16x32 f16 buffer
// (leadDimension 32), where M[i][k] = (i + 2k) mod 7 - 3 and C[i][j] = j
// before the kernel. The second block loads M transposed as its B operand.
// Every value is a small multiple of 0.5, exact in f16, so the expected
// output is numpy's `M @ M + j + 0.5` (block 0) and `M @ M.T + j + 0.5`
// (block 1) with no rounding.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%in: memref<16x16xf16>, %out: memref<16x32xf16>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %half = arith.constant 0.5 : f16
      %b = gpu.block_id x
      %col = arith.muli %b, %c16 : index
      %a = gpu.subgroup_mma_load_matrix %in[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %first = arith.cmpi eq, %b, %c0 : index
      %m = scf.if %first -> (!gpu.mma_matrix<16x16xf16, "BOp">) {
        %m0 = gpu.subgroup_mma_load_matrix %in[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        scf.yield %m0 : !gpu.mma_matrix<16x16xf16, "BOp">
      } else {
        %m1 = gpu.subgroup_mma_load_matrix %in[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        scf.yield %m1 : !gpu.mma_matrix<16x16xf16, "BOp">
      }
      %c = gpu.subgroup_mma_load_matrix %out[%c0, %col] {leadDimension = 32 : index} : memref<16x32xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %d = gpu.subgroup_mma_compute %a, %m, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      %h = gpu.subgroup_mma_constant_matrix %half : !gpu.mma_matrix<16x16xf16, "COp">
      %e = gpu.subgroup_mma_elementwise addf %d, %h : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %e, %out[%c0, %col] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x32xf16>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : i32
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %in = memref.alloc() : memref<16x16xf16>
    %out = memref.alloc() : memref<16x32xf16>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %k2 = arith.muli %k, %c2 : index
        %s = arith.addi %i, %k2 : index
        %r = arith.remui %s, %c7 : index
        %ri = arith.index_cast %r : index to i32
        %v = arith.subi %ri, %c3 : i32
        %f = arith.sitofp %v : i32 to f16
        memref.store %f, %in[%i, %k] : memref<16x16xf16>
      }
      scf.for %j = %c0 to %c32 step %c1 {
        %ji = arith.index_cast %j : index to i32
        %f = arith.sitofp %ji : i32 to f16
        memref.store %f, %out[%i, %j] : memref<16x32xf16>
      }
    }
    %din = gpu.alloc () : memref<16x16xf16>
    %dout = gpu.alloc () : memref<16x32xf16>
    gpu.memcpy %din, %in : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %dout, %out : memref<16x32xf16>, memref<16x32xf16>
    gpu.launch_func @k::@mma blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%din : memref<16x16xf16>, %dout : memref<16x32xf16>)
    gpu.memcpy %out, %dout : memref<16x32xf16>, memref<16x32xf16>
    %wide = memref.alloc() : memref<16x32xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %h = memref.load %out[%i, %j] : memref<16x32xf16>
        %x = arith.extf %h : f16 to f32
        memref.store %x, %wide[%i, %j] : memref<16x32xf32>
      }
    }
    %u = memref.cast %wide : memref<16x32xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %din : memref<16x16xf16>
    gpu.dealloc %dout : memref<16x32xf16>
    return
  }
}
// CHECK: rank = 2 offset = 0 sizes = [16, 32] strides = [32, 1] data =
// CHECK-NEXT: [[39.5,   4.5,   -16.5,   -16.5,   11.5,   32.5,   -30.5,   46.5,   11.5,   -9.5,   -9.5,   18.5,   39.5,   -23.5,   53.5,   18.5,   82.5,   37.5,   6.5,   -10.5,   -13.5,   4.5,   29.5,   89.5,   44.5,   13.5,   -3.5,   -6.5,   11.5,   36.5,   96.5,   51.5],
// CHECK-NEXT:  [34.5,   -24.5,   28.5,   -2.5,   -5.5,   -8.5,   2.5,   41.5,   -17.5,   35.5,   4.5,   1.5,   -1.5,   9.5,   48.5,   -10.5,   36.5,   77.5,   34.5,   5.5,   -9.5,   -10.5,   2.5,   43.5,   84.5,   41.5,   12.5,   -2.5,   -3.5,   9.5,   50.5,   91.5],
// CHECK-NEXT:  [-12.5,   2.5,   31.5,   -30.5,   33.5,   6.5,   -6.5,   -5.5,   9.5,   38.5,   -23.5,   40.5,   13.5,   0.5,   1.5,   16.5,   4.5,   33.5,   76.5,   35.5,   8.5,   -11.5,   -10.5,   11.5,   40.5,   83.5,   42.5,   15.5,   -4.5,   -3.5,   18.5,   47.5],
// CHECK-NEXT:  [-3.5,   -12.5,   -7.5,   -2.5,   30.5,   -20.5,   40.5,   3.5,   -5.5,   -0.5,   4.5,   37.5,   -13.5,   47.5,   10.5,   1.5,   -13.5,   3.5,   34.5,   79.5,   40.5,   1.5,   -9.5,   -6.5,   10.5,   41.5,   86.5,   47.5,   8.5,   -2.5,   0.5,   17.5],
// CHECK-NEXT:  [-36.5,   28.5,   9.5,   -16.5,   -14.5,   8.5,   45.5,   -29.5,   35.5,   16.5,   -9.5,   -7.5,   15.5,   52.5,   -22.5,   42.5,   -17.5,   -12.5,   6.5,   39.5,   86.5,   28.5,   5.5,   -10.5,   -5.5,   13.5,   46.5,   93.5,   35.5,   12.5,   -3.5,   1.5],
// CHECK-NEXT:  [0.5,   27.5,   -29.5,   46.5,   3.5,   -11.5,   -12.5,   7.5,   34.5,   -22.5,   53.5,   10.5,   -4.5,   -5.5,   14.5,   41.5,   -0.5,   -14.5,   -14.5,   -0.5,   27.5,   90.5,   48.5,   6.5,   -7.5,   -7.5,   6.5,   34.5,   97.5,   55.5,   13.5,   -0.5],
// CHECK-NEXT:  [-18.5,   -15.5,   1.5,   46.5,   -27.5,   31.5,   6.5,   -11.5,   -8.5,   8.5,   53.5,   -20.5,   38.5,   13.5,   -4.5,   -1.5,   23.5,   -2.5,   -14.5,   -12.5,   3.5,   47.5,   91.5,   30.5,   4.5,   -7.5,   -5.5,   10.5,   54.5,   98.5,   37.5,   11.5],
// CHECK-NEXT:  [39.5,   4.5,   -16.5,   -16.5,   11.5,   32.5,   -30.5,   46.5,   11.5,   -9.5,   -9.5,   18.5,   39.5,   -23.5,   53.5,   18.5,   82.5,   37.5,   6.5,   -10.5,   -13.5,   4.5,   29.5,   89.5,   44.5,   13.5,   -3.5,   -6.5,   11.5,   36.5,   96.5,   51.5],
// CHECK-NEXT:  [34.5,   -24.5,   28.5,   -2.5,   -5.5,   -8.5,   2.5,   41.5,   -17.5,   35.5,   4.5,   1.5,   -1.5,   9.5,   48.5,   -10.5,   36.5,   77.5,   34.5,   5.5,   -9.5,   -10.5,   2.5,   43.5,   84.5,   41.5,   12.5,   -2.5,   -3.5,   9.5,   50.5,   91.5],
// CHECK-NEXT:  [-12.5,   2.5,   31.5,   -30.5,   33.5,   6.5,   -6.5,   -5.5,   9.5,   38.5,   -23.5,   40.5,   13.5,   0.5,   1.5,   16.5,   4.5,   33.5,   76.5,   35.5,   8.5,   -11.5,   -10.5,   11.5,   40.5,   83.5,   42.5,   15.5,   -4.5,   -3.5,   18.5,   47.5],
// CHECK-NEXT:  [-3.5,   -12.5,   -7.5,   -2.5,   30.5,   -20.5,   40.5,   3.5,   -5.5,   -0.5,   4.5,   37.5,   -13.5,   47.5,   10.5,   1.5,   -13.5,   3.5,   34.5,   79.5,   40.5,   1.5,   -9.5,   -6.5,   10.5,   41.5,   86.5,   47.5,   8.5,   -2.5,   0.5,   17.5],
// CHECK-NEXT:  [-36.5,   28.5,   9.5,   -16.5,   -14.5,   8.5,   45.5,   -29.5,   35.5,   16.5,   -9.5,   -7.5,   15.5,   52.5,   -22.5,   42.5,   -17.5,   -12.5,   6.5,   39.5,   86.5,   28.5,   5.5,   -10.5,   -5.5,   13.5,   46.5,   93.5,   35.5,   12.5,   -3.5,   1.5],
// CHECK-NEXT:  [0.5,   27.5,   -29.5,   46.5,   3.5,   -11.5,   -12.5,   7.5,   34.5,   -22.5,   53.5,   10.5,   -4.5,   -5.5,   14.5,   41.5,   -0.5,   -14.5,   -14.5,   -0.5,   27.5,   90.5,   48.5,   6.5,   -7.5,   -7.5,   6.5,   34.5,   97.5,   55.5,   13.5,   -0.5],
// CHECK-NEXT:  [-18.5,   -15.5,   1.5,   46.5,   -27.5,   31.5,   6.5,   -11.5,   -8.5,   8.5,   53.5,   -20.5,   38.5,   13.5,   -4.5,   -1.5,   23.5,   -2.5,   -14.5,   -12.5,   3.5,   47.5,   91.5,   30.5,   4.5,   -7.5,   -5.5,   10.5,   54.5,   98.5,   37.5,   11.5],
// CHECK-NEXT:  [39.5,   4.5,   -16.5,   -16.5,   11.5,   32.5,   -30.5,   46.5,   11.5,   -9.5,   -9.5,   18.5,   39.5,   -23.5,   53.5,   18.5,   82.5,   37.5,   6.5,   -10.5,   -13.5,   4.5,   29.5,   89.5,   44.5,   13.5,   -3.5,   -6.5,   11.5,   36.5,   96.5,   51.5],
// CHECK-NEXT:  [34.5,   -24.5,   28.5,   -2.5,   -5.5,   -8.5,   2.5,   41.5,   -17.5,   35.5,   4.5,   1.5,   -1.5,   9.5,   48.5,   -10.5,   36.5,   77.5,   34.5,   5.5,   -9.5,   -10.5,   2.5,   43.5,   84.5,   41.5,   12.5,   -2.5,   -3.5,   9.5,   50.5,   91.5]]
