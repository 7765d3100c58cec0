// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// Grid-size arithmetic: (n + 63) / 64 stays, identities go (x + 0, x * 1,
// x / 1, x - 0), a constant left operand of a commutative op moves right.

func.func @grid_size(%n: index) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c63 = arith.constant 63 : index
  %c64 = arith.constant 64 : index
  %0 = arith.addi %n, %c63 : index
  %1 = arith.divui %0, %c64 : index
  %2 = arith.addi %c0, %1 : index
  %3 = arith.muli %2, %c1 : index
  %4 = arith.divsi %3, %c1 : index
  %5 = arith.subi %4, %c0 : index
  %6 = arith.ceildivui %n, %c64 : index
  %7 = arith.muli %c64, %n : index
  return %5, %6, %7, %2 : index, index, index, index
}

// -----

// Thread index math: bid * bdim + tid keeps its shape, `+ 0` goes.

func.func @thread_index(%bid: index, %bdim: index, %tid: index) -> index {
  %c0 = arith.constant 0 : index
  %0 = arith.muli %bid, %bdim : index
  %1 = arith.addi %0, %tid : index
  %2 = arith.addi %1, %c0 : index
  return %2 : index
}

// -----

// Constant folding wraps at the type's width (index is 64 bits); the folded
// constants are hoisted to the entry block, the dead ones erased.

func.func @wrap() -> (i8, i8, i8, index, i32, i1) {
  %c100 = arith.constant 100 : i8
  %c127 = arith.constant 127 : i8
  %cm128 = arith.constant -128 : i8
  %0 = arith.addi %c100, %c100 : i8
  %1 = arith.muli %c127, %c127 : i8
  %2 = arith.subi %cm128, %c100 : i8
  %max = arith.constant 9223372036854775807 : index
  %one = arith.constant 1 : index
  %3 = arith.addi %max, %one : index
  %a = arith.constant 2147483647 : i32
  %4 = arith.muli %a, %a : i32
  %t = arith.constant true
  %5 = arith.addi %t, %t : i1
  return %0, %1, %2, %3, %4, %5 : i8, i8, i8, index, i32, i1
}

// -----

// Signed and unsigned division and remainder of constants: divsi/remsi
// truncate toward zero, floordivsi/ceildivsi round down/up, the unsigned ops
// see -7 as 4294967289.

func.func @div_rem() -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %cm7 = arith.constant -7 : i32
  %c7 = arith.constant 7 : i32
  %c2 = arith.constant 2 : i32
  %cm2 = arith.constant -2 : i32
  %0 = arith.divsi %cm7, %c2 : i32
  %1 = arith.remsi %cm7, %c2 : i32
  %2 = arith.floordivsi %cm7, %c2 : i32
  %3 = arith.ceildivsi %cm7, %c2 : i32
  %4 = arith.ceildivsi %c7, %cm2 : i32
  %5 = arith.divui %cm7, %c2 : i32
  %6 = arith.remui %cm7, %c2 : i32
  %7 = arith.ceildivui %c7, %c2 : i32
  %8 = arith.floordivsi %c7, %cm2 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// No fold where MLIR refuses one: division by zero (every division and
// remainder), INT_MIN / -1 (signed overflow). INT_MIN % -1 is 0.

func.func @no_fold_div(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %min = arith.constant -2147483648 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.divsi %c7, %c0 : i32
  %1 = arith.divui %c7, %c0 : i32
  %2 = arith.remsi %c7, %c0 : i32
  %3 = arith.remui %c7, %c0 : i32
  %4 = arith.ceildivui %c7, %c0 : i32
  %5 = arith.divsi %min, %m1 : i32
  %6 = arith.floordivsi %min, %m1 : i32
  %7 = arith.ceildivsi %min, %m1 : i32
  %8 = arith.remsi %min, %m1 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// x % 1 is 0; (a * b) / b is a when the muli has nuw (divui) or nsw
// (divsi), not otherwise.

func.func @div_mul(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %0 = arith.remui %x, %c1 : i32
  %1 = arith.remsi %x, %c1 : i32
  %m = arith.muli %x, %y overflow<nuw> : i32
  %2 = arith.divui %m, %y : i32
  %3 = arith.divsi %m, %y : i32
  %n = arith.muli %x, %y overflow<nsw> : i32
  %4 = arith.divsi %n, %x : i32
  %p = arith.muli %x, %y : i32
  %5 = arith.divui %p, %y : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// -----

// Shifts fold for amounts below the width only.

func.func @shifts(%x: i32) -> (i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %cm8 = arith.constant -8 : i32
  %0 = arith.shli %x, %c0 : i32
  %1 = arith.shli %cm8, %c3 : i32
  %2 = arith.shrui %cm8, %c3 : i32
  %3 = arith.shrsi %cm8, %c3 : i32
  %4 = arith.shli %c3, %c32 : i32
  %5 = arith.shrui %cm8, %c32 : i32
  return %0, %1, %2, %3, %4, %5 : i32, i32, i32, i32, i32, i32
}

// -----

// x - x and x ^ x are 0, x & x and x | x are x; and/or with 0 and -1.

func.func @bitwise_identities(%x: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %m1 = arith.constant -1 : i32
  %0 = arith.subi %x, %x : i32
  %1 = arith.xori %x, %x : i32
  %2 = arith.andi %x, %x : i32
  %3 = arith.ori %x, %x : i32
  %4 = arith.andi %x, %c0 : i32
  %5 = arith.andi %x, %m1 : i32
  %6 = arith.ori %x, %c0 : i32
  %7 = arith.ori %x, %m1 : i32
  %8 = arith.xori %x, %c0 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// x & ~x is 0, x | ~x is -1, (x ^ y) ^ y is x, x & (x & y) is x & y,
// (a - b) + b is a, (a + b) - b is a, (a + b) - a is b.

func.func @bitwise_chains(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32, i32, i32) {
  %m1 = arith.constant -1 : i32
  %n = arith.xori %x, %m1 : i32
  %0 = arith.andi %x, %n : i32
  %1 = arith.andi %n, %x : i32
  %2 = arith.ori %x, %n : i32
  %q = arith.xori %x, %y : i32
  %3 = arith.xori %q, %y : i32
  %4 = arith.xori %y, %q : i32
  %xy = arith.andi %x, %y : i32
  %5 = arith.andi %x, %xy : i32
  %s = arith.subi %x, %y : i32
  %6 = arith.addi %s, %y : i32
  %a = arith.addi %x, %y : i32
  %7 = arith.subi %a, %y : i32
  %8 = arith.subi %a, %x : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i32, i32, i32, i32, i32, i32, i32, i32, i32
}

// -----

// Chains with constants are reassociated; overflow flags are kept only
// where both ops have them.

func.func @reassociate(%x: i32) -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %a = arith.addi %x, %c1 overflow<nsw> : i32
  %0 = arith.addi %a, %c2 overflow<nsw> : i32
  %b = arith.subi %x, %c5 overflow<nuw> : i32
  %1 = arith.addi %b, %c7 : i32
  %c = arith.subi %c5, %x : i32
  %2 = arith.addi %c, %c7 : i32
  %d = arith.muli %x, %c5 : i32
  %3 = arith.muli %d, %c7 : i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// subi with constants on either side of an addi or subi operand.

func.func @sub_constants(%x: i64, %y: i64) -> (i64, i64, i64, i64, i64, i64, i64) {
  %c3 = arith.constant 3 : i64
  %c10 = arith.constant 10 : i64
  %a = arith.addi %x, %c3 : i64
  %0 = arith.subi %a, %c10 : i64
  %1 = arith.subi %c10, %a : i64
  %s = arith.subi %x, %c3 : i64
  %2 = arith.subi %s, %c10 : i64
  %t = arith.subi %c3, %x : i64
  %3 = arith.subi %t, %c10 : i64
  %4 = arith.subi %c10, %s : i64
  %5 = arith.subi %c10, %t : i64
  %u = arith.subi %x, %y : i64
  %6 = arith.subi %u, %x : i64
  return %0, %1, %2, %3, %4, %5, %6 : i64, i64, i64, i64, i64, i64, i64
}

// -----

// x + y * -1 is x - y.

func.func @add_mul_minus_one(%x: i32, %y: i32) -> (i32, i32) {
  %m1 = arith.constant -1 : i32
  %m = arith.muli %y, %m1 : i32
  %0 = arith.addi %x, %m : i32
  %1 = arith.addi %m, %x : i32
  return %0, %1 : i32, i32
}

// -----

// max/min against the extreme values of the type and constant folding.

func.func @min_max(%x: i8) -> (i8, i8, i8, i8, i8, i8, i8, i8, i8, i8) {
  %max = arith.constant 127 : i8
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %c0 = arith.constant 0 : i8
  %c5 = arith.constant 5 : i8
  %0 = arith.maxsi %x, %max : i8
  %1 = arith.maxsi %x, %min : i8
  %2 = arith.minsi %x, %min : i8
  %3 = arith.minsi %x, %max : i8
  %4 = arith.maxui %x, %m1 : i8
  %5 = arith.maxui %x, %c0 : i8
  %6 = arith.minui %x, %c0 : i8
  %7 = arith.minui %x, %m1 : i8
  %8 = arith.maxui %c5, %m1 : i8
  %9 = arith.minsi %c5, %m1 : i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i8, i8, i8, i8, i8, i8, i8, i8, i8, i8
}

// -----

// cmpi: equal operands, constants (signed and unsigned), a constant left
// operand swapped with the predicate, i1 comparisons with false/true.

func.func @cmpi(%x: i32, %b: i1) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  %c5 = arith.constant 5 : i32
  %cm1 = arith.constant -1 : i32
  %f = arith.constant false
  %t = arith.constant true
  %0 = arith.cmpi sle, %x, %x : i32
  %1 = arith.cmpi ult, %x, %x : i32
  %2 = arith.cmpi slt, %cm1, %c5 : i32
  %3 = arith.cmpi ult, %cm1, %c5 : i32
  %4 = arith.cmpi slt, %c5, %x : i32
  %5 = arith.cmpi ne, %b, %f : i1
  %6 = arith.cmpi eq, %b, %t : i1
  %7 = arith.cmpi uge, %c5, %x : i32
  return %0, %1, %2, %3, %4, %5, %6, %7 : i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// cmpi of extended operands: `ext(i1) != 0` is the i1, eq/ne of two
// extsi/extui compare the narrow values (not slt); not(cmpi) inverts it.

func.func @cmpi_ext(%b: i1, %s: i8, %t: i8, %x: i32, %y: i32) -> (i1, i1, i1, i1, i1, i1) {
  %c0 = arith.constant 0 : i32
  %true = arith.constant true
  %e = arith.extui %b : i1 to i32
  %0 = arith.cmpi ne, %e, %c0 : i32
  %es = arith.extsi %b : i1 to i32
  %1 = arith.cmpi ne, %es, %c0 : i32
  %a1 = arith.extsi %s : i8 to i32
  %a2 = arith.extsi %t : i8 to i32
  %2 = arith.cmpi eq, %a1, %a2 : i32
  %3 = arith.cmpi slt, %a1, %a2 : i32
  %u1 = arith.extui %s : i8 to i32
  %u2 = arith.extui %t : i8 to i32
  %4 = arith.cmpi ne, %u1, %u2 : i32
  %c = arith.cmpi ugt, %x, %y : i32
  %5 = arith.xori %c, %true : i1
  return %0, %1, %2, %3, %4, %5 : i1, i1, i1, i1, i1, i1
}

// -----

// select: constant or negated condition, equal operands, i1 true/false,
// nested selects on the same condition, 1/0 to extui, a cmpi eq/ne of the
// two operands.

func.func @select(%c: i1, %d: i1, %x: i32, %y: i32, %z: i32) -> (i32, i32, i32, i1, i1, i32, i32, i32, i32, i32, i32, i32) {
  %t = arith.constant true
  %f = arith.constant false
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.select %c, %x, %x : i32
  %1 = arith.select %t, %x, %y : i32
  %2 = arith.select %f, %x, %y : i32
  %3 = arith.select %c, %t, %f : i1
  %4 = arith.select %c, %f, %t : i1
  %eq = arith.cmpi eq, %x, %y : i32
  %5 = arith.select %eq, %x, %y : i32
  %ne = arith.cmpi ne, %x, %y : i32
  %6 = arith.select %ne, %x, %y : i32
  %nc = arith.xori %c, %t : i1
  %7 = arith.select %nc, %x, %y : i32
  %s1 = arith.select %c, %x, %y : i32
  %8 = arith.select %c, %s1, %z : i32
  %9 = arith.select %c, %z, %s1 : i32
  %10 = arith.select %d, %c1, %c0 : i32
  %11 = arith.select %d, %c0, %c1 : i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : i32, i32, i32, i1, i1, i32, i32, i32, i32, i32, i32, i32
}

// -----

// Integer casts: ext of ext, extsi of extui, trunci of ext (to the source
// type, between, below), trunci of trunci, trunci of a sign-bit shift,
// index_cast of extsi, bitcast round trip.

func.func @int_casts(%a: i8, %b: i16, %x: i64, %f: f32) -> (i64, i64, i64, i16, i32, i32, i8, i16, index, i32, f32) {
  %p0 = arith.extui %a : i8 to i16
  %0 = arith.extui %p0 : i16 to i64
  %p1 = arith.extsi %a : i8 to i16
  %1 = arith.extsi %p1 : i16 to i64
  %2 = arith.extsi %p0 : i16 to i64
  %p3 = arith.extsi %b : i16 to i64
  %3 = arith.trunci %p3 : i64 to i16
  %4 = arith.trunci %p3 : i64 to i32
  %p5 = arith.extui %b : i16 to i64
  %5 = arith.trunci %p5 : i64 to i32
  %6 = arith.trunci %p5 : i64 to i8
  %p7 = arith.trunci %x : i64 to i32
  %7 = arith.trunci %p7 : i32 to i16
  %p8 = arith.extsi %b : i16 to i32
  %8 = arith.index_cast %p8 : i32 to index
  %c32 = arith.constant 32 : i64
  %p9 = arith.shrsi %x, %c32 : i64
  %9 = arith.trunci %p9 : i64 to i32
  %p10 = arith.bitcast %f : f32 to i32
  %10 = arith.bitcast %p10 : i32 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i64, i64, i64, i16, i32, i32, i8, i16, index, i32, f32
}

// -----

// index_cast folds constants (sign-extending or truncating) and, as MLIR 22
// does, index_cast(index_cast(x)) back to x's type even through i32.

func.func @index_cast(%i: index, %n: i32) -> (index, i32, i64, index, i32) {
  %c = arith.constant -3 : i32
  %0 = arith.index_cast %c : i32 to index
  %big = arith.constant -5000000000 : index
  %1 = arith.index_cast %big : index to i32
  %2 = arith.index_cast %big : index to i64
  %p3 = arith.index_cast %i : index to i32
  %3 = arith.index_cast %p3 : i32 to index
  %p4 = arith.index_cast %n : i32 to index
  %4 = arith.index_cast %p4 : index to i32
  return %0, %1, %2, %3, %4 : index, i32, i64, index, i32
}

// -----

// Constant casts: extui/extsi/trunci, int to float (exact rounding),
// float to int (toward zero; out of range: no fold), bitcast, truncf only
// when exact.

func.func @const_casts() -> (i64, i64, i8, f32, f64, i32, i32, f32, f16, f16, i32, f32, f32) {
  %c = arith.constant -3 : i8
  %0 = arith.extui %c : i8 to i64
  %1 = arith.extsi %c : i8 to i64
  %big = arith.constant 1000 : i32
  %2 = arith.trunci %big : i32 to i8
  %3 = arith.sitofp %c : i8 to f32
  %4 = arith.uitofp %c : i8 to f64
  %fl = arith.constant -2.75 : f32
  %5 = arith.fptosi %fl : f32 to i32
  %6 = arith.bitcast %fl : f32 to i32
  %bits = arith.constant 1065353216 : i32
  %7 = arith.bitcast %bits : i32 to f32
  %d = arith.constant 1.0e-1 : f32
  %8 = arith.truncf %d : f32 to f16
  %h = arith.constant 0.5 : f32
  %9 = arith.truncf %h : f32 to f16
  %large = arith.constant 3.0e10 : f32
  %10 = arith.fptosi %large : f32 to i32
  %m = arith.constant 16777217 : i32
  %11 = arith.sitofp %m : i32 to f32
  %u = arith.constant -1 : i32
  %12 = arith.uitofp %u : i32 to f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : i64, i64, i8, f32, f64, i32, i32, f32, f16, f16, i32, f32, f32
}

// -----

// Float identities follow IEEE signed zeros: x + -0.0 and x - 0.0 are x,
// x + 0.0 and x - -0.0 are not; x * 1.0 and x / 1.0 are x; x * 0.0 is 0.0
// only under fastmath nnan and nsz.

func.func @float_identities(%x: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.addf %x, %z : f32
  %1 = arith.addf %x, %nz : f32
  %2 = arith.subf %x, %z : f32
  %3 = arith.subf %x, %nz : f32
  %4 = arith.mulf %x, %one : f32
  %5 = arith.divf %x, %one : f32
  %6 = arith.mulf %x, %z fastmath<nnan,nsz> : f32
  %7 = arith.mulf %x, %z : f32
  return %0, %1, %2, %3, %4, %5, %6, %7 : f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// negf(negf(x)) is x; products and quotients of two negf drop them;
// maximumf with -inf, minimumf with +inf, maxnumf/minnumf with NaN are x.

func.func @float_neg_minmax(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32) {
  %ninf = arith.constant 0xFF800000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %n = arith.negf %x : f32
  %0 = arith.negf %n : f32
  %ny = arith.negf %y : f32
  %1 = arith.mulf %n, %ny fastmath<fast> : f32
  %2 = arith.divf %n, %ny : f32
  %3 = arith.maximumf %x, %ninf : f32
  %4 = arith.minimumf %x, %pinf : f32
  %5 = arith.maxnumf %x, %nan : f32
  %6 = arith.minnumf %nan, %x : f32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, f32, f32
}

// -----

// Float constant folding rounds to the type (f32 here), divides by zero
// into infinities and NaN, orders signed zeros in min/max, compares with
// NaN as unordered.

func.func @float_fold() -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i1, i1, f16) {
  %a = arith.constant 1.1 : f32
  %b = arith.constant 2.2 : f32
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %b : f32
  %3 = arith.divf %a, %b : f32
  %4 = arith.divf %a, %nz : f32
  %5 = arith.divf %z, %z : f32
  %6 = arith.negf %a : f32
  %7 = arith.maximumf %z, %nz : f32
  %8 = arith.minimumf %z, %nz : f32
  %9 = arith.minnumf %nan, %b : f32
  %10 = arith.cmpf olt, %a, %b : f32
  %11 = arith.cmpf ult, %nan, %b : f32
  %h = arith.constant 6.0e4 : f16
  %12 = arith.addf %h, %h : f16
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i1, i1, f16
}

// -----

// cmpf of an integer converted to float against a constant becomes an
// integer comparison (or a constant) when no precision is lost.

func.func @cmpf_int(%a: i8, %b: i32, %c: i64) -> (i1, i1, i1, i1, i1, i1, i1) {
  %fa = arith.sitofp %a : i8 to f32
  %c1 = arith.constant 4.4 : f32
  %0 = arith.cmpf olt, %fa, %c1 : f32
  %1 = arith.cmpf oeq, %fa, %c1 : f32
  %big = arith.constant 1000.0 : f32
  %2 = arith.cmpf ogt, %fa, %big : f32
  %ua = arith.uitofp %a : i8 to f32
  %neg = arith.constant -4.4 : f32
  %3 = arith.cmpf uge, %ua, %neg : f32
  %4 = arith.cmpf ord, %ua, %neg : f32
  %fc = arith.sitofp %c : i64 to f32
  %c2 = arith.constant 2.0 : f32
  %5 = arith.cmpf oge, %fc, %c2 : f32
  %fb = arith.sitofp %b : i32 to f64
  %c3 = arith.constant -3.5 : f64
  %6 = arith.cmpf ole, %fb, %c3 : f64
  return %0, %1, %2, %3, %4, %5, %6 : i1, i1, i1, i1, i1, i1, i1
}

// -----

// truncf of sitofp is sitofp; truncf of extf to the source type is the
// source.

func.func @truncf_of(%a: i32, %b: f16) -> (f16, f32, f16) {
  %p0 = arith.sitofp %a : i32 to f64
  %0 = arith.truncf %p0 : f64 to f16
  %p1 = arith.extf %b : f16 to f64
  %1 = arith.truncf %p1 : f64 to f32
  %2 = arith.truncf %p1 : f64 to f16
  return %0, %1, %2 : f16, f32, f16
}

// -----

// Extended arithmetic: unused overflow or high halves turn into addi and
// muli, x * 1 (signed) high half is the sign, constants fold.

func.func @extended(%x: i32, %y: i32) -> (i32, i32, i1, i32, i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %cm1 = arith.constant -1 : i32
  %s, %o = arith.addui_extended %x, %c0 : i32, i1
  %s2, %o2 = arith.addui_extended %x, %y : i32, i1
  %l, %h = arith.mulsi_extended %x, %c1 : i32
  %l2, %h2 = arith.mului_extended %cm1, %c7 : i32
  %l3, %h3 = arith.mului_extended %x, %y : i32
  return %s, %s2, %o, %h, %l2, %h2, %l3, %l : i32, i32, i1, i32, i32, i32, i32, i32
}

// -----

// Vector splats fold like scalars.

func.func @vector(%x: vector<4xi32>) -> (vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xf32>) {
  %c0 = arith.constant dense<0> : vector<4xi32>
  %c2 = arith.constant dense<2> : vector<4xi32>
  %c3 = arith.constant dense<3> : vector<4xi32>
  %0 = arith.addi %x, %c0 : vector<4xi32>
  %1 = arith.muli %c2, %c3 : vector<4xi32>
  %2 = arith.subi %x, %x : vector<4xi32>
  %f = arith.constant dense<1.5> : vector<4xf32>
  %3 = arith.addf %f, %f : vector<4xf32>
  return %0, %1, %2, %3 : vector<4xi32>, vector<4xi32>, vector<4xi32>, vector<4xf32>
}

// -----

// Unused pure ops are erased (casts and remainders included).

func.func @dead(%x: i32, %y: i8, %f: f32) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %x, %c3 : i32
  %1 = arith.extsi %y : i8 to i32
  %2 = arith.remui %x, %c3 : i32
  %3 = arith.divsi %x, %c3 : i32
  %4 = arith.mulf %f, %f : f32
  %5 = arith.cmpi slt, %0, %1 : i32
  %6 = arith.select %5, %2, %3 : i32
  return %x : i32
}
