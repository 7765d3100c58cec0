// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// Canonicalization of the scf forms that xDSL 0.75 could not read (the
// `unsigned` scf.for, no_inline, scf.if results without parentheses), as
// mlir-opt 22 does it.

// An unsigned loop from 0 to -1 (2^32 - 1) runs; the signed one never does.
func.func @unsigned_trip_count(%a: memref<4xi32>) {
  %lb = arith.constant 0 : i32
  %ub = arith.constant -1 : i32
  %st = arith.constant 8 : i32
  %c0 = arith.constant 0 : index
  scf.for unsigned %i = %lb to %ub step %st : i32 {
    memref.store %i, %a[%c0] : memref<4xi32>
  }
  scf.for %i = %lb to %ub step %st : i32 {
    memref.store %i, %a[%c0] : memref<4xi32>
  }
  return
}

// -----

// One unsigned trip (4 to 7 step 8) is inlined; the unused iter_arg goes.
func.func @unsigned_one_trip(%a: memref<4xi32>, %x: i32) -> i32 {
  %lb = arith.constant 4 : i32
  %ub = arith.constant 7 : i32
  %st = arith.constant 8 : i32
  %c0 = arith.constant 0 : index
  %r = scf.for unsigned %i = %lb to %ub step %st iter_args(%s = %x) -> i32 : i32 {
    memref.store %i, %a[%c0] : memref<4xi32>
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  return %r : i32
}

// -----

func.func @execute_regions(%x: i32, %c: i1) -> (i32, i32) {
  %a = scf.execute_region -> i32 no_inline {
    scf.yield %x : i32
  }
  %b = scf.if %c -> i32 {
    %e = scf.execute_region -> i32 {
      scf.yield %a : i32
    }
    scf.yield %e : i32
  } else {
    scf.yield %x : i32
  }
  return %a, %b : i32, i32
}

// -----

func.func @while_and_switch(%x: i32, %c: i1) -> i32 {
  %k = arith.constant 2 : index
  %w = scf.while (%a = %x) : (i32) -> i32 {
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%b: i32):
    scf.yield %b : i32
  }
  %s = scf.index_switch %k -> i32
  case 2 {
    scf.yield %w : i32
  }
  default {
    scf.yield %x : i32
  }
  return %s : i32
}
