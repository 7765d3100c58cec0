// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// xDSL 0.75 has no custom syntax for memref.cast, memref.copy,
// memref.rank and memref.atomic_rmw: they are written in generic form.

// A memref.cast of a ranked memref is bypassed by load, store (as the
// memref) and dim; dim of a static size is a constant.

func.func @cast_into_users(%m: memref<4xf32>, %i: index, %v: f32) -> (f32, index) {
  %c = "memref.cast"(%m) : (memref<4xf32>) -> memref<?xf32>
  %x = memref.load %c[%i] : memref<?xf32>
  memref.store %v, %c[%i] : memref<?xf32>
  %c0 = arith.constant 0 : index
  %d = memref.dim %c, %c0 : memref<?xf32>
  return %x, %d : f32, index
}

// -----

// A cast of a cast is one cast; a cast back to the source type is the
// source.

func.func @cast_chain(%m: memref<4xf32>) -> (memref<4xf32>, memref<?xf32>) {
  %c = "memref.cast"(%m) : (memref<4xf32>) -> memref<?xf32>
  %d = "memref.cast"(%c) : (memref<?xf32>) -> memref<4xf32>
  %e = "memref.cast"(%d) : (memref<4xf32>) -> memref<?xf32>
  return %d, %e : memref<4xf32>, memref<?xf32>
}

// -----

// dim of an alloc (or alloca) is its size operand or a constant; an index
// out of range or not constant is left alone.

func.func @dim_of_alloc(%n: index, %k: index, %j: index) -> (index, index, index, index, index, index) {
  %a = memref.alloc(%n, %k) : memref<?x8x?xf32>
  %b = memref.alloca(%k) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = memref.dim %a, %c0 : memref<?x8x?xf32>
  %1 = memref.dim %a, %c1 : memref<?x8x?xf32>
  %2 = memref.dim %a, %c2 : memref<?x8x?xf32>
  %3 = memref.dim %b, %c0 : memref<?xf32>
  %4 = memref.dim %a, %c3 : memref<?x8x?xf32>
  %5 = memref.dim %a, %j : memref<?x8x?xf32>
  "test.use"(%a, %b) : (memref<?x8x?xf32>, memref<?xf32>) -> ()
  return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}

// -----

// dim of a gpu.alloc dynamic size is the size operand (gpu's
// SimplifyDimOfAllocOp, listed after memref.dim's own patterns).

func.func @dim_of_gpu_alloc(%n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = gpu.alloc (%n) : memref<?x16xf32>
  %0 = memref.dim %a, %c0 : memref<?x16xf32>
  %1 = memref.dim %a, %c1 : memref<?x16xf32>
  "test.use"(%a) : (memref<?x16xf32>) -> ()
  return %0, %1 : index, index
}

// -----

// An allocation only stored into and deallocated goes with its users; an
// unused one goes; one stored somewhere as a value stays.

func.func @dead_alloc(%n: index, %v: f32, %out: memref<1xmemref<4xf32>>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  memref.store %v, %a[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloca() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  memref.store %d, %out[%c0] : memref<1xmemref<4xf32>>
  memref.dealloc %d : memref<4xf32>
  return
}

// -----

// Constant sizes move into the allocated type (a cast restores the old
// type); negative or non-constant sizes stay dynamic.

func.func @alloc_constant_sizes(%n: index) -> (memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>) {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cm1 = arith.constant -1 : index
  %a = memref.alloc(%c4, %c16) : memref<?x?xf32>
  %b = memref.alloc(%n, %c4) {alignment = 64 : i64} : memref<?x?xf32>
  %c = memref.alloc(%cm1) : memref<?xf32>
  return %a, %b, %c : memref<?x?xf32>, memref<?x?xf32>, memref<?xf32>
}

// -----

// A kernel allocates a buffer of a constant size, fills it and reads it
// back: the size folds into the type, loads and stores go through the cast.

func.func @shared_buffer(%v: f32, %i: index) -> f32 {
  %c64 = arith.constant 64 : index
  %buf = memref.alloca(%c64) : memref<?xf32>
  memref.store %v, %buf[%i] : memref<?xf32>
  %x = memref.load %buf[%i] : memref<?xf32>
  return %x : f32
}

// -----

// memref.copy: casts that only make the type more dynamic are bypassed; a
// copy onto itself or of an empty memref goes.

func.func @copy(%a: memref<4xf32>, %b: memref<4xf32>, %e: memref<0xf32>, %f: memref<0xf32>) {
  %c = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  %d = "memref.cast"(%b) : (memref<4xf32>) -> memref<?xf32>
  "memref.copy"(%c, %d) : (memref<?xf32>, memref<?xf32>) -> ()
  "memref.copy"(%a, %a) : (memref<4xf32>, memref<4xf32>) -> ()
  "memref.copy"(%e, %f) : (memref<0xf32>, memref<0xf32>) -> ()
  return
}

// -----

// dealloc and atomic_rmw bypass casts too; a cast to an unranked memref is
// not bypassed.

func.func @dealloc_atomic(%n: index, %a: memref<4xf32>, %v: f32, %i: index) -> f32 {
  %m = memref.alloc(%n) : memref<?xf32>
  %u = "memref.cast"(%m) : (memref<?xf32>) -> memref<*xf32>
  "test.use"(%u) : (memref<*xf32>) -> ()
  %s = "memref.cast"(%m) : (memref<?xf32>) -> memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  %c = "memref.cast"(%a) : (memref<4xf32>) -> memref<?xf32>
  %r = "memref.atomic_rmw"(%v, %c, %i) <{kind = 0 : i64}> : (f32, memref<?xf32>, index) -> f32
  return %r : f32
}

// -----

// rank of a ranked memref is a constant; a repeated assume_alignment with
// the same alignment is the first one.

func.func @rank_align(%a: memref<4x?xf32>, %b: memref<4xf32>) -> (index, memref<4xf32>, memref<4xf32>) {
  %r = "memref.rank"(%a) : (memref<4x?xf32>) -> index
  %0 = memref.assume_alignment %b, 16 : memref<4xf32>
  %1 = memref.assume_alignment %0, 16 : memref<4xf32>
  %2 = memref.assume_alignment %0, 32 : memref<4xf32>
  return %r, %1, %2 : index, memref<4xf32>, memref<4xf32>
}

// -----

// A subview of a subview is not composed by canonicalize (xDSL does it,
// MLIR does not).

func.func @subview(%a: memref<16x16xf32>) -> memref<4x4xf32, strided<[16, 1], offset: 34>> {
  %s = memref.subview %a[1, 1][8, 8][1, 1] : memref<16x16xf32> to memref<8x8xf32, strided<[16, 1], offset: 17>>
  %t = memref.subview %s[1, 1][4, 4][1, 1] : memref<8x8xf32, strided<[16, 1], offset: 17>> to memref<4x4xf32, strided<[16, 1], offset: 34>>
  return %t : memref<4x4xf32, strided<[16, 1], offset: 34>>
}
