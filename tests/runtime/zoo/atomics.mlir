// Atomics from 64 work-items in 2 blocks: a histogram of i % 4 (atomic addi
// on i32), a sum in i64 and in f32 (exact: small integers), the largest
// i * 7 mod 64 (maxs on i64) and a generic_atomic_rmw that keeps the
// smallest odd value seen; results are the same in every order.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @count(%hist: memref<4xi32>, %sum: memref<1xi64>, %fsum: memref<1xf32>, %top: memref<1xi64>, %odd: memref<1xi32>) kernel {
      %i = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %b = arith.remui %i, %c4 : index
      %one = arith.constant 1 : i32
      %h = memref.atomic_rmw addi %one, %hist[%b] : (i32, memref<4xi32>) -> i32
      %i64 = arith.index_cast %i : index to i64
      %s = memref.atomic_rmw addi %i64, %sum[%c0] : (i64, memref<1xi64>) -> i64
      %f = arith.sitofp %i64 : i64 to f32
      %fs = memref.atomic_rmw addf %f, %fsum[%c0] : (f32, memref<1xf32>) -> f32
      %c7 = arith.constant 7 : i64
      %c64 = arith.constant 64 : i64
      %m = arith.muli %i64, %c7 : i64
      %r = arith.remui %m, %c64 : i64
      %t = memref.atomic_rmw maxs %r, %top[%c0] : (i64, memref<1xi64>) -> i64
      %i32 = arith.index_cast %i : index to i32
      %two = arith.constant 2 : i32
      %bit = arith.remui %i32, %two : i32
      %isodd = arith.cmpi eq, %bit, %one : i32
      %o = memref.generic_atomic_rmw %odd[%c0] : memref<1xi32> {
      ^bb0(%cur: i32):
        %less = arith.cmpi slt, %i32, %cur : i32
        %new = arith.select %less, %i32, %cur : i32
        %pick = arith.select %isodd, %new, %cur : i32
        memref.atomic_yield %pick : i32
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %hist = memref.alloc() : memref<4xi32>
    %sum = memref.alloc() : memref<1xi64>
    %fsum = memref.alloc() : memref<1xf32>
    %top = memref.alloc() : memref<1xi64>
    %odd = memref.alloc() : memref<1xi32>
    %z32 = arith.constant 0 : i32
    %z64 = arith.constant 0 : i64
    %zf = arith.constant 0.0 : f32
    %big = arith.constant 1000 : i32
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    scf.for %k = %c0 to %c3 step %c1 {
      memref.store %z32, %hist[%k] : memref<4xi32>
    }
    memref.store %z32, %hist[%c3] : memref<4xi32>
    memref.store %z64, %sum[%c0] : memref<1xi64>
    memref.store %zf, %fsum[%c0] : memref<1xf32>
    memref.store %z64, %top[%c0] : memref<1xi64>
    memref.store %big, %odd[%c0] : memref<1xi32>
    %dh = gpu.alloc () : memref<4xi32>
    %ds = gpu.alloc () : memref<1xi64>
    %df = gpu.alloc () : memref<1xf32>
    %dt = gpu.alloc () : memref<1xi64>
    %do = gpu.alloc () : memref<1xi32>
    gpu.memcpy %dh, %hist : memref<4xi32>, memref<4xi32>
    gpu.memcpy %ds, %sum : memref<1xi64>, memref<1xi64>
    gpu.memcpy %df, %fsum : memref<1xf32>, memref<1xf32>
    gpu.memcpy %dt, %top : memref<1xi64>, memref<1xi64>
    gpu.memcpy %do, %odd : memref<1xi32>, memref<1xi32>
    gpu.launch_func @k::@count blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%dh : memref<4xi32>, %ds : memref<1xi64>, %df : memref<1xf32>, %dt : memref<1xi64>, %do : memref<1xi32>)
    gpu.memcpy %hist, %dh : memref<4xi32>, memref<4xi32>
    gpu.memcpy %sum, %ds : memref<1xi64>, memref<1xi64>
    gpu.memcpy %fsum, %df : memref<1xf32>, memref<1xf32>
    gpu.memcpy %top, %dt : memref<1xi64>, memref<1xi64>
    gpu.memcpy %odd, %do : memref<1xi32>, memref<1xi32>
    %uh = memref.cast %hist : memref<4xi32> to memref<*xi32>
    %us = memref.cast %sum : memref<1xi64> to memref<*xi64>
    %uf = memref.cast %fsum : memref<1xf32> to memref<*xf32>
    %ut = memref.cast %top : memref<1xi64> to memref<*xi64>
    %uo = memref.cast %odd : memref<1xi32> to memref<*xi32>
    call @printMemrefI32(%uh) : (memref<*xi32>) -> ()
    call @printMemrefI64(%us) : (memref<*xi64>) -> ()
    call @printMemrefF32(%uf) : (memref<*xf32>) -> ()
    call @printMemrefI64(%ut) : (memref<*xi64>) -> ()
    call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefF32(memref<*xf32>)
}
// CHECK: data =
// CHECK-NEXT: [16,  16,  16,  16]
// CHECK: data =
// CHECK-NEXT: [2016]
// CHECK: data =
// CHECK-NEXT: [2016]
// CHECK: data =
// CHECK-NEXT: [63]
// CHECK: data =
// CHECK-NEXT: [1]
