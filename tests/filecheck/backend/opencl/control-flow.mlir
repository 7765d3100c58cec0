// scf and cf to C statements; device functions and calls.
// RUN: xgpu-opt -t 'opencl{checked=false}' %s | filecheck %s

gpu.module @cf {
  func.func @fact(%n: i64) -> i64 {
    %one = arith.constant 1 : i64
    cf.br ^loop(%n, %one : i64, i64)
  ^loop(%k: i64, %acc: i64):
    %done = arith.cmpi sle, %k, %one : i64
    cf.cond_br %done, ^exit, ^body
  ^body:
    %acc2 = arith.muli %acc, %k : i64
    %k2 = arith.subi %k, %one : i64
    cf.br ^loop(%k2, %acc2 : i64, i64)
  ^exit:
    return %acc : i64
  }
  gpu.func @k(%out: memref<?xi64>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i64
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i64) {
      %ii = arith.index_cast %i : index to i64
      %f = func.call @fact(%ii) : (i64) -> i64
      %a = arith.addi %acc, %f : i64
      scf.yield %a : i64
    }
    %w = scf.while (%x = %s) : (i64) -> i64 {
      %big = arith.cmpi sgt, %x, %z : i64
      scf.condition(%big) %x : i64
    } do {
    ^bb0(%y: i64):
      %two = arith.constant 2 : i64
      %h = arith.shrsi %y, %two : i64
      scf.yield %h : i64
    }
    memref.store %w, %out[%c0] : memref<?xi64>
    gpu.return
  }
}

// CHECK:      long xg0_fact(long a0_n);
// CHECK:      long xg0_fact(long a0_n) {
// CHECK-NEXT:   long v0_k;
// CHECK-NEXT:   long v1_acc;
// CHECK-NEXT:   uchar v2_done;
// CHECK-NEXT:   long v3_acc2;
// CHECK-NEXT:   long v4_k2;
// CHECK-NEXT:   v0_k = a0_n;
// CHECK-NEXT:   v1_acc = 1L;
// CHECK-NEXT:   goto bb0;
// CHECK-NEXT: bb0: ;
// CHECK-NEXT:   v2_done = (uchar)(v0_k <= 1L);
// CHECK-NEXT:   if (v2_done) {
// CHECK-NEXT:     goto bb2;
// CHECK-NEXT:   } else {
// CHECK-NEXT:     goto bb1;
// CHECK-NEXT:   }
// CHECK-NEXT: bb1: ;
// CHECK:        goto bb0;
// CHECK-NEXT: bb2: ;
// CHECK-NEXT:   return v1_acc;
// CHECK-NEXT: }

// CHECK:      __kernel void xg1_k(__global long* a0_out, long a0_out_off, long a0_out_size0, long a0_out_stride0, long a1_n) {
// CHECK-NEXT:   long v0_s = 0L;
// CHECK-NEXT:   for (long v1_i = 0L; v1_i < a1_n; v1_i += 1L) {
// CHECK-NEXT:     long v2_ii = (long)v1_i;
// CHECK-NEXT:     long v3_f = xg0_fact(v2_ii);
// CHECK-NEXT:     long v4_a = (long)((ulong)v0_s + (ulong)v3_f);
// CHECK-NEXT:     v0_s = v4_a;
// CHECK-NEXT:   }
// CHECK-NEXT:   long v5_x = v0_s;
// CHECK-NEXT:   long v6_w;
// CHECK-NEXT:   for (;;) {
// CHECK-NEXT:     uchar v7_big = (uchar)(v5_x > 0L);
// CHECK-NEXT:     v6_w = v5_x;
// CHECK-NEXT:     if (!v7_big) break;
// CHECK-NEXT:     long v8_h = (long)(v6_w >> (ulong)2L);
// CHECK-NEXT:     v5_x = v8_h;
// CHECK-NEXT:   }
// CHECK-NEXT:   a0_out[a0_out_off] = v6_w;
// CHECK-NEXT: }
