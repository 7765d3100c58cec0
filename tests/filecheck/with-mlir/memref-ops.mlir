// Every memref op in MLIR's custom form: xgpu-opt and mlir-opt 22 must agree
// on both forms (see xgpu.tools.mlir_diff).
// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64}
memref.global @g : memref<4xi32> = uninitialized
memref.global "public" @h : memref<f32> = dense<0.0>
memref.global "private" @e : memref<3xi8>
memref.global @s : memref<2x2xf32, 3> = dense<1.0> {foo}
memref.global "nested" @n : memref<2xi32> = dense<[1, 2]>
func.func @get() -> memref<2xf32> {
  %g = memref.get_global @c : memref<2xf32>
  %h = memref.get_global @h : memref<f32> {foo}
  return %g : memref<2xf32>
}

// -----

func.func @alloc(%n: index) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc(%n) {alignment = 16} : memref<?xf32>
  %c = memref.alloc(%n)[%n] : memref<?xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  %d = memref.alloc(%n, %n) {foo, alignment = 8 : i64} : memref<?x4x?xf32, 1>
  %e = memref.alloca() : memref<4xf32>
  %f = memref.alloca(%n) {alignment = 32 : i64} : memref<?xf32>
  %g = memref.alloca()[%n] : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  %h = memref.realloc %b(%n) : memref<?xf32> to memref<?xf32>
  %i = memref.realloc %a {alignment = 8} : memref<4xf32> to memref<8xf32>
  memref.dealloc %d : memref<?x4x?xf32, 1>
  return
}

// -----

func.func @dealloc(%u: memref<*xf32>, %m: memref<4xf32, #gpu.address_space<global>>) {
  memref.dealloc %u : memref<*xf32>
  memref.dealloc %m {foo} : memref<4xf32, #gpu.address_space<global>>
  return
}

// -----

func.func @load_store(%m: memref<4x4xf32>, %z: memref<i32>, %n: index, %v: f32) {
  %x = memref.load %m[%n, %n] : memref<4x4xf32>
  %y = memref.load %m[%n, %n] {nontemporal = true} : memref<4x4xf32>
  %w = memref.load %m[%n, %n] {nontemporal = false, foo} : memref<4x4xf32>
  %k = memref.load %z[] : memref<i32>
  memref.store %x, %m[%n, %n] : memref<4x4xf32>
  memref.store %x, %m[%n, %n] {nontemporal = true} : memref<4x4xf32>
  memref.store %x, %m[%n, %n] {nontemporal = false} : memref<4x4xf32>
  memref.store %k, %z[] {foo} : memref<i32>
  return
}

// -----

func.func @dim_rank(%d: memref<?x4xf32>, %u: memref<*xf32>, %n: index) {
  %a = memref.dim %d, %n : memref<?x4xf32>
  %b = memref.dim {foo} %u, %n : memref<*xf32>
  %c = memref.rank %u : memref<*xf32>
  %e = memref.rank %d {foo} : memref<?x4xf32>
  return
}

// -----

func.func @casts(%d: memref<?xf32>, %u: memref<*xf32>, %s: memref<4xf32, strided<[1], offset: ?>>) {
  %a = memref.cast %d : memref<?xf32> to memref<*xf32>
  %b = memref.cast %u : memref<*xf32> to memref<4xf32>
  %c = memref.cast %d {foo} : memref<?xf32> to memref<4xf32>
  %e = memref.cast %s : memref<4xf32, strided<[1], offset: ?>> to memref<?xf32, strided<[1], offset: ?>>
  %f = memref.memory_space_cast %d : memref<?xf32> to memref<?xf32, 1>
  %g = memref.memory_space_cast %u {foo} : memref<*xf32> to memref<*xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy(%a: memref<4xf32>, %d: memref<?xf32>, %u: memref<*xf32>) {
  memref.copy %a, %d : memref<4xf32> to memref<?xf32>
  memref.copy %u, %u {foo} : memref<*xf32> to memref<*xf32>
  return
}

// -----

func.func @atomics(%f: memref<?xf32>, %i: memref<8xi32>, %n: index, %v: f32, %w: i32) {
  %a = memref.atomic_rmw addf %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %b = memref.atomic_rmw addi %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %c = memref.atomic_rmw assign %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %d = memref.atomic_rmw maximumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %e = memref.atomic_rmw maxs %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %g = memref.atomic_rmw maxu %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %h = memref.atomic_rmw minimumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %j = memref.atomic_rmw mins %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %k = memref.atomic_rmw minu %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %l = memref.atomic_rmw mulf %v, %f[%n] {foo} : (f32, memref<?xf32>) -> f32
  %m = memref.atomic_rmw muli %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %o = memref.atomic_rmw ori %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %p = memref.atomic_rmw andi %w, %i[%n] : (i32, memref<8xi32>) -> i32
  %q = memref.atomic_rmw maxnumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %r = memref.atomic_rmw minnumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
  %s = memref.atomic_rmw xori %w, %i[%n] : (i32, memref<8xi32>) -> i32
  return
}

// -----

func.func @generic_atomic(%i: memref<8xi32>, %z: memref<f32>, %n: index, %w: i32) {
  %a = memref.generic_atomic_rmw %i[%n] : memref<8xi32> {
  ^bb0(%cur: i32):
    %s = arith.addi %cur, %w : i32
    memref.atomic_yield %s : i32
  }
  %b = memref.generic_atomic_rmw %z[] : memref<f32> {
  ^bb0(%cur: f32):
    memref.atomic_yield %cur : f32
  }
  return
}

// -----

func.func @prefetch(%m: memref<4x4xf32>, %z: memref<f32>, %n: index) {
  memref.prefetch %m[%n, %n], read, locality<3>, data : memref<4x4xf32>
  memref.prefetch %m[%n, %n], write, locality<0>, instr : memref<4x4xf32>
  memref.prefetch %z[], read, locality<1>, data : memref<f32>
  return
}

// -----

func.func @pointers(%d: memref<?xf32>, %m: memref<4x4xf32>) {
  %p = memref.extract_aligned_pointer_as_index %d : memref<?xf32> -> index
  %x, %y = memref.distinct_objects %d, %m : memref<?xf32>, memref<4x4xf32>
  %z = memref.distinct_objects %d {foo} : memref<?xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<4x4xf32> -> memref<f32>, index, index, index, index, index
  %b0, %o0 = memref.extract_strided_metadata %base : memref<f32> -> memref<f32>, index
  %aa = memref.assume_alignment %d, 16 : memref<?xf32>
  return
}

// -----

func.func @subview(%m: memref<4x4xf32>, %n: index) {
  %a = memref.subview %m[0, 1][2, 2][1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 1>>
  %b = memref.subview %m[%n, 0][2, %n][1, 2] : memref<4x4xf32> to memref<2x?xf32, strided<[4, 2], offset: ?>>
  %c = memref.subview %m[0, 0][1, 4][1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1]>>
  %d = memref.subview %m[%n, %n][%n, %n][%n, %n] {foo} : memref<4x4xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  return
}

// -----

func.func @reinterpret(%d: memref<?xf32>, %u: memref<*xf32>, %n: index) {
  %a = memref.reinterpret_cast %d to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<?xf32> to memref<4x4xf32>
  %b = memref.reinterpret_cast %d to offset: [%n], sizes: [%n], strides: [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  %c = memref.reinterpret_cast %u to offset: [0], sizes: [%n, 4], strides: [4, 1] {foo} : memref<*xf32> to memref<?x4xf32>
  return
}

// -----

func.func @reshapes(%a: memref<4xf32>, %d: memref<?xf32>, %m: memref<4x4xf32>, %s: memref<1xi32>, %n: index) {
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  %f = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  %g = memref.expand_shape %a [[0, 1, 2]] output_shape [1, 4, 1] {foo} : memref<4xf32> into memref<1x4x1xf32>
  %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  %h = memref.collapse_shape %g [[0], [1, 2]] {foo} : memref<1x4x1xf32> into memref<1x4xf32>
  %r = memref.reshape %d(%s) : (memref<?xf32>, memref<1xi32>) -> memref<?xf32>
  return
}

// -----

func.func @view_transpose(%b: memref<64xi8>, %m: memref<4x8xf32>, %n: index) {
  %v = memref.view %b[%n][] : memref<64xi8> to memref<4x4xf32>
  %w = memref.view %b[%n][%n] {foo} : memref<64xi8> to memref<?x4xf32>
  %t = memref.transpose %m (i, j) -> (j, i) : memref<4x8xf32> to memref<8x4xf32, strided<[1, 8]>>
  return
}

// -----

func.func @scopes(%v: f32) -> f32 {
  memref.alloca_scope {
    %q = memref.alloca() : memref<4xf32>
  }
  memref.alloca_scope {
    %q = memref.alloca() : memref<4xf32>
    memref.alloca_scope.return
  } {foo}
  %a = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return %v : f32
  }
  %b:2 = memref.alloca_scope -> (f32, f32) {
    memref.alloca_scope.return %v, %v : f32, f32
  }
  return %a : f32
}

// -----

memref.global constant @k : memref<f32> {foo}
memref.global "private" @z : memref<2x3xi16> = dense<[[1, 2, 3], [4, 5, 6]]> {alignment = 16 : i64}
func.func @edges(%m: memref<4xf32>, %i: memref<8xi32>, %n: index, %v: f32, %w: i32) {
  %x = memref.load %m[%n] {alignment = 16} : memref<4xf32>
  memref.store %v, %m[%n] {alignment = 8, nontemporal = true} : memref<4xf32>
  %r = memref.atomic_rmw addi %w, %i[%n] {b, a = 1} : (i32, memref<8xi32>) -> i32
  %g = memref.generic_atomic_rmw %i[%n] : memref<8xi32> {
  ^bb0(%cur: i32):
    memref.atomic_yield %cur : i32
  } {foo}
  memref.alloca_scope {
    memref.alloca_scope.return {foo}
  }
  %a = memref.alloca() {alignment = 64, foo = "x"} : memref<2xf32, 3>
  return
}

// -----

func.func @dma(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %z: memref<i32>, %n: index, %s: index) {
  memref.dma_start %a[%n, %n], %b[%n], %n, %t[%n] : memref<4x4xf32>, memref<16xf32, 1>, memref<1xi32>
  memref.dma_start %a[%n, %n], %b[%n], %n, %z[], %s, %n : memref<4x4xf32>, memref<16xf32, 1>, memref<i32>
  memref.dma_wait %t[%n], %n : memref<1xi32>
  memref.dma_wait %z[], %n {foo} : memref<i32>
  return
}
