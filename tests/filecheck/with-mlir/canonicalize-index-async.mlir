// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// canonicalize on the index and async dialects.

// index constants are uniqued per dialect and hoisted to the entry block of
// the nearest isolated region, as arith constants are (an execute body and a
// gpu.launch body are not isolated).
module attributes {gpu.container_module} {
  func.func @f(%n: index, %m: memref<?xf32>, %v: f32) {
    %a = async.execute {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
        %c = index.constant 3
        %i = index.add %tx, %c
        memref.store %v, %m[%i] : memref<?xf32>
        gpu.terminator
      }
      async.yield
    }
    async.await %a : !async.token
    return
  }
}

// -----

func.func @unique(%a: index, %b: index) -> (index, index, index, i1, i1) {
  %c = index.constant 3
  %d = index.constant 3
  %e = arith.constant 3 : index
  %0 = index.mul %a, %c
  %1 = index.maxs %b, %d
  %2 = arith.addi %1, %e : index
  %t = index.bool.constant true
  %t2 = index.bool.constant true
  %p = index.cmp slt(%a, %b)
  %q = arith.andi %p, %t : i1
  return %0, %1, %2, %t2, %q : index, index, index, i1, i1
}

// -----

// Constant folding: on 64 bits where the low 32 bits cannot differ (add, sub,
// mul, and, or, xor, shl by less than 32), otherwise only when the 64-bit and
// the 32-bit results agree; never a division by zero or a shift by 32.
func.func @fold(%x: index) -> (index, index, index, index, index, index, index, index, index, index, index, index, index, index) {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %c7 = index.constant 7
  %m2 = index.constant -2
  %c32 = index.constant 32
  %big = index.constant 4294967296
  %0 = index.add %c7, %m2
  %1 = index.mul %big, %c7
  %2 = index.divs %c7, %m2
  %3 = index.divu %c7, %m2
  %4 = index.divu %big, %c7
  %5 = index.ceildivs %c7, %m2
  %6 = index.floordivs %c7, %m2
  %7 = index.rems %c7, %c0
  %8 = index.remu %c7, %m2
  %9 = index.shl %c7, %c32
  %10 = index.shrs %m2, %c1
  %11 = index.maxu %big, %c7
  %12 = index.mins %m2, %c7
  %13 = index.xor %big, %c1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : index, index, index, index, index, index, index, index, index, index, index, index, index, index
}

// -----

// Identities, the constant moved right in commutative ops, and constants
// reassociated: add(add(x, 3), 4) -> add(x, 7).
func.func @identities(%x: index, %y: index) -> (index, index, index, index, index, index, index) {
  %c0 = index.constant 0
  %c1 = index.constant 1
  %c3 = index.constant 3
  %c4 = index.constant 4
  %0 = index.add %x, %c0
  %1 = index.sub %y, %c0
  %2 = index.mul %c1, %x
  %3 = index.mul %y, %c0
  %4 = index.add %c3, %x
  %5 = index.add %4, %c4
  %6 = index.maxs %x, %c3
  %7 = index.maxs %6, %c4
  %8 = index.sub %x, %c3
  %9 = index.sub %8, %c4
  return %0, %1, %2, %3, %5, %7, %9 : index, index, index, index, index, index, index
}

// -----

// Casts of constants, when the result does not depend on the width of index.
func.func @casts(%x: index) -> (index, index, i32, i64, i64, i48, i8) {
  %m1 = arith.constant -1 : i32
  %big = index.constant 4294967296
  %m2 = index.constant -2
  %0 = index.casts %m1 : i32 to index
  %1 = index.castu %m1 : i32 to index
  %2 = index.casts %big : index to i32
  %3 = index.casts %big : index to i64
  %4 = index.castu %m2 : index to i64
  %5 = index.casts %m2 : index to i48
  %6 = index.castu %m2 : index to i8
  return %0, %1, %2, %3, %4, %5, %6 : index, index, i32, i64, i64, i48, i8
}

// -----

// cmp: constants (when 32 and 64 bits agree), the same operand twice, a
// min/max whose range decides the comparison, and cmp(sub(x, y), 0).
func.func @cmp(%x: index, %y: index) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %c0 = index.constant 0
  %c5 = index.constant 5
  %c9 = index.constant 9
  %big = index.constant 4294967296
  %0 = index.cmp slt(%c5, %c9)
  %1 = index.cmp eq(%big, %c0)
  %2 = index.cmp ule(%x, %x)
  %3 = index.cmp ne(%y, %y)
  %m = index.mins %x, %c5
  %4 = index.cmp slt(%m, %c9)
  %n = index.maxu %x, %c9
  %5 = index.cmp uge(%n, %c5)
  %6 = index.cmp sgt(%m, %c0)
  %s = index.sub %x, %y
  %7 = index.cmp slt(%s, %c0)
  return %0, %1, %2, %3, %4, %5, %6, %7 : i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// A group only awaited is erased with its awaits; one with something added
// stays.
func.func @f(%n: index, %t: !async.token) {
  %g = async.create_group %n : !async.group
  async.await_all %g
  async.await_all %g
  %h = async.create_group %n : !async.group
  %r = async.add_to_group %t, %h : !async.token
  async.await_all %h
  %e = async.execute {
    %k = async.create_group %n : !async.group
    async.await_all %k
    async.yield
  }
  return
}
