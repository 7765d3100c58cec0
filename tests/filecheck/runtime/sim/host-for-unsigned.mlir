// RUN: xgpu-run --backend sim %s | filecheck %s
// Host scf.for unsigned: bounds read as unsigned numbers of their width (i32:
// -2 is 2^32 - 2, above 2), the induction variable keeps its signed value.
// CHECK: [0,  4,  -2147483646,  3]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %m2 = arith.constant -2 : i32
  %p2 = arith.constant 2 : i32
  %unsigned = scf.for unsigned %i = %m2 to %p2 step %one iter_args(%k = %zero) -> (i32) : i32 {
    %k2 = arith.addi %k, %one : i32
    scf.yield %k2 : i32
  }
  %signed = scf.for %i = %m2 to %p2 step %one iter_args(%k = %zero) -> (i32) : i32 {
    %k2 = arith.addi %k, %one : i32
    scf.yield %k2 : i32
  }
  %lo = arith.constant -2147483648 : i32
  %hi = arith.constant -2147483645 : i32
  %last:2 = scf.for unsigned %i = %lo to %hi step %one iter_args(%k = %zero, %n = %zero) -> (i32, i32) : i32 {
    %n2 = arith.addi %n, %one : i32
    scf.yield %i, %n2 : i32, i32
  }
  %m = memref.alloc() : memref<4xi32>
  memref.store %unsigned, %m[%c0] : memref<4xi32>
  memref.store %signed, %m[%c1] : memref<4xi32>
  memref.store %last#0, %m[%c2] : memref<4xi32>
  memref.store %last#1, %m[%c3] : memref<4xi32>
  %u = memref.cast %m : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
