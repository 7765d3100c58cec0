// RUN: xgpu-opt %s --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | xgpu-opt --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref access ops in MLIR 22's custom form (as mlir-opt 22 prints them) and
// generic form: load/store (nontemporal = false is elided), atomic_rmw (every
// kind, stored as its integer value), generic_atomic_rmw, prefetch, copy, dim,
// rank, dma_start, dma_wait.

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

// CHECK: builtin.module {
// CHECK-NEXT: func.func @load_store(%m: memref<4x4xf32>, %z: memref<i32>, %n: index, %v: f32) {
// CHECK-NEXT: %x = memref.load %m[%n, %n] : memref<4x4xf32>
// CHECK-NEXT: %y = memref.load %m[%n, %n] {nontemporal = true} : memref<4x4xf32>
// CHECK-NEXT: %w = memref.load %m[%n, %n] {foo} : memref<4x4xf32>
// CHECK-NEXT: %k = memref.load %z[] : memref<i32>
// CHECK-NEXT: memref.store %x, %m[%n, %n] : memref<4x4xf32>
// CHECK-NEXT: memref.store %x, %m[%n, %n] {nontemporal = true} : memref<4x4xf32>
// CHECK-NEXT: memref.store %x, %m[%n, %n] : memref<4x4xf32>
// CHECK-NEXT: memref.store %k, %z[] {foo} : memref<i32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %x = "memref.load"(%m, %n, %n) : (memref<4x4xf32>, index, index) -> f32
// GENERIC: %y = "memref.load"(%m, %n, %n) <{nontemporal = true}> : (memref<4x4xf32>, index, index) -> f32
// GENERIC: %w = "memref.load"(%m, %n, %n) <{nontemporal = false}> {foo} : (memref<4x4xf32>, index, index) -> f32
// GENERIC: %k = "memref.load"(%z) : (memref<i32>) -> i32
// GENERIC: "memref.store"(%x, %m, %n, %n) : (f32, memref<4x4xf32>, index, index) -> ()
// GENERIC: "memref.store"(%x, %m, %n, %n) <{nontemporal = true}> : (f32, memref<4x4xf32>, index, index) -> ()
// GENERIC: "memref.store"(%x, %m, %n, %n) <{nontemporal = false}> : (f32, memref<4x4xf32>, index, index) -> ()
// GENERIC: "memref.store"(%k, %z) {foo} : (i32, memref<i32>) -> ()

// -----

func.func @dim_rank(%d: memref<?x4xf32>, %u: memref<*xf32>, %n: index) {
  %a = memref.dim %d, %n : memref<?x4xf32>
  %b = memref.dim {foo} %u, %n : memref<*xf32>
  %c = memref.rank %u : memref<*xf32>
  %e = memref.rank %d {foo} : memref<?x4xf32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @dim_rank(%d: memref<?x4xf32>, %u: memref<*xf32>, %n: index) {
// CHECK-NEXT: %a = memref.dim %d, %n : memref<?x4xf32>
// CHECK-NEXT: %b = memref.dim {foo} %u, %n : memref<*xf32>
// CHECK-NEXT: %c = memref.rank %u : memref<*xf32>
// CHECK-NEXT: %e = memref.rank %d {foo} : memref<?x4xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.dim"(%d, %n) : (memref<?x4xf32>, index) -> index
// GENERIC: %b = "memref.dim"(%u, %n) {foo} : (memref<*xf32>, index) -> index
// GENERIC: %c = "memref.rank"(%u) : (memref<*xf32>) -> index
// GENERIC: %e = "memref.rank"(%d) {foo} : (memref<?x4xf32>) -> index

// -----

func.func @copy(%a: memref<4xf32>, %d: memref<?xf32>, %u: memref<*xf32>) {
  memref.copy %a, %d : memref<4xf32> to memref<?xf32>
  memref.copy %u, %u {foo} : memref<*xf32> to memref<*xf32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @copy(%a: memref<4xf32>, %d: memref<?xf32>, %u: memref<*xf32>) {
// CHECK-NEXT: memref.copy %a, %d : memref<4xf32> to memref<?xf32>
// CHECK-NEXT: memref.copy %u, %u {foo} : memref<*xf32> to memref<*xf32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.copy"(%a, %d) : (memref<4xf32>, memref<?xf32>) -> ()
// GENERIC: "memref.copy"(%u, %u) {foo} : (memref<*xf32>, memref<*xf32>) -> ()

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

// CHECK: builtin.module {
// CHECK-NEXT: func.func @atomics(%f: memref<?xf32>, %i: memref<8xi32>, %n: index, %v: f32, %w: i32) {
// CHECK-NEXT: %a = memref.atomic_rmw addf %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %b = memref.atomic_rmw addi %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %c = memref.atomic_rmw assign %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %d = memref.atomic_rmw maximumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %e = memref.atomic_rmw maxs %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %g = memref.atomic_rmw maxu %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %h = memref.atomic_rmw minimumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %j = memref.atomic_rmw mins %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %k = memref.atomic_rmw minu %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %l = memref.atomic_rmw mulf %v, %f[%n] {foo} : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %m = memref.atomic_rmw muli %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %o = memref.atomic_rmw ori %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %p = memref.atomic_rmw andi %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %q = memref.atomic_rmw maxnumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %r = memref.atomic_rmw minnumf %v, %f[%n] : (f32, memref<?xf32>) -> f32
// CHECK-NEXT: %s = memref.atomic_rmw xori %w, %i[%n] : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.atomic_rmw"(%v, %f, %n) <{kind = 0 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %b = "memref.atomic_rmw"(%w, %i, %n) <{kind = 1 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %c = "memref.atomic_rmw"(%v, %f, %n) <{kind = 3 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %d = "memref.atomic_rmw"(%v, %f, %n) <{kind = 4 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %e = "memref.atomic_rmw"(%w, %i, %n) <{kind = 6 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %g = "memref.atomic_rmw"(%w, %i, %n) <{kind = 7 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %h = "memref.atomic_rmw"(%v, %f, %n) <{kind = 8 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %j = "memref.atomic_rmw"(%w, %i, %n) <{kind = 10 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %k = "memref.atomic_rmw"(%w, %i, %n) <{kind = 11 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %l = "memref.atomic_rmw"(%v, %f, %n) <{kind = 12 : i64}> {foo} : (f32, memref<?xf32>, index) -> f32
// GENERIC: %m = "memref.atomic_rmw"(%w, %i, %n) <{kind = 13 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %o = "memref.atomic_rmw"(%w, %i, %n) <{kind = 14 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %p = "memref.atomic_rmw"(%w, %i, %n) <{kind = 2 : i64}> : (i32, memref<8xi32>, index) -> i32
// GENERIC: %q = "memref.atomic_rmw"(%v, %f, %n) <{kind = 5 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %r = "memref.atomic_rmw"(%v, %f, %n) <{kind = 9 : i64}> : (f32, memref<?xf32>, index) -> f32
// GENERIC: %s = "memref.atomic_rmw"(%w, %i, %n) <{kind = 15 : i64}> : (i32, memref<8xi32>, index) -> i32

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

// CHECK: builtin.module {
// CHECK-NEXT: func.func @generic_atomic(%i: memref<8xi32>, %z: memref<f32>, %n: index, %w: i32) {
// CHECK-NEXT: %a = memref.generic_atomic_rmw %i[%n] : memref<8xi32> {
// CHECK-NEXT: ^bb0(%cur: i32):
// CHECK-NEXT: %s = arith.addi %cur, %w : i32
// CHECK-NEXT: memref.atomic_yield %s : i32
// CHECK-NEXT: }
// CHECK-NEXT: %b = memref.generic_atomic_rmw %z[] : memref<f32> {
// CHECK-NEXT: ^bb0(%cur: f32):
// CHECK-NEXT: memref.atomic_yield %cur : f32
// CHECK-NEXT: }
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.generic_atomic_rmw"(%i, %n) ({
// GENERIC: "memref.atomic_yield"(%s) : (i32) -> ()
// GENERIC: %b = "memref.generic_atomic_rmw"(%z) ({
// GENERIC: "memref.atomic_yield"(%cur) : (f32) -> ()

// -----

func.func @prefetch(%m: memref<4x4xf32>, %z: memref<f32>, %n: index) {
  memref.prefetch %m[%n, %n], read, locality<3>, data : memref<4x4xf32>
  memref.prefetch %m[%n, %n], write, locality<0>, instr : memref<4x4xf32>
  memref.prefetch %z[], read, locality<1>, data : memref<f32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @prefetch(%m: memref<4x4xf32>, %z: memref<f32>, %n: index) {
// CHECK-NEXT: memref.prefetch %m[%n, %n], read, locality<3>, data : memref<4x4xf32>
// CHECK-NEXT: memref.prefetch %m[%n, %n], write, locality<0>, instr : memref<4x4xf32>
// CHECK-NEXT: memref.prefetch %z[], read, locality<1>, data : memref<f32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.prefetch"(%m, %n, %n) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<4x4xf32>, index, index) -> ()
// GENERIC: "memref.prefetch"(%m, %n, %n) <{isDataCache = false, isWrite = true, localityHint = 0 : i32}> : (memref<4x4xf32>, index, index) -> ()
// GENERIC: "memref.prefetch"(%z) <{isDataCache = true, isWrite = false, localityHint = 1 : i32}> : (memref<f32>) -> ()

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

// CHECK: builtin.module {
// CHECK-NEXT: memref.global constant @k : memref<f32> {foo}
// CHECK-NEXT: memref.global "private" @z : memref<2x3xi16> = dense<[[1, 2, 3], [4, 5, 6]]> {alignment = 16 : i64}
// CHECK-NEXT: func.func @edges(%m: memref<4xf32>, %i: memref<8xi32>, %n: index, %v: f32, %w: i32) {
// CHECK-NEXT: %x = memref.load %m[%n] {alignment = 16 : i64} : memref<4xf32>
// CHECK-NEXT: memref.store %v, %m[%n] {alignment = 8 : i64, nontemporal = true} : memref<4xf32>
// CHECK-NEXT: %r = memref.atomic_rmw addi %w, %i[%n] {a = 1 : i64, b} : (i32, memref<8xi32>) -> i32
// CHECK-NEXT: %g = memref.generic_atomic_rmw %i[%n] : memref<8xi32> {
// CHECK-NEXT: ^bb0(%cur: i32):
// CHECK-NEXT: memref.atomic_yield %cur : i32
// CHECK-NEXT: } {foo}
// The terminator's attributes are not printed when it is elided (as mlir-opt).
// CHECK-NEXT: memref.alloca_scope  {
// CHECK-NEXT: }
// CHECK-NEXT: %a = memref.alloca() {alignment = 64 : i64, foo = "x"} : memref<2xf32, 3>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.global"() <{constant, sym_name = "k", type = memref<f32>}> {foo} : () -> ()
// GENERIC: "memref.global"() <{alignment = 16 : i64, initial_value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi16>, sym_name = "z", sym_visibility = "private", type = memref<2x3xi16>}> : () -> ()
// GENERIC: %x = "memref.load"(%m, %n) <{alignment = 16 : i64}> : (memref<4xf32>, index) -> f32
// GENERIC: "memref.store"(%v, %m, %n) <{alignment = 8 : i64, nontemporal = true}> : (f32, memref<4xf32>, index) -> ()
// GENERIC: %r = "memref.atomic_rmw"(%w, %i, %n) <{kind = 1 : i64}> {a = 1 : i64, b} : (i32, memref<8xi32>, index) -> i32
// GENERIC: %g = "memref.generic_atomic_rmw"(%i, %n) ({
// GENERIC: "memref.atomic_yield"(%cur) : (i32) -> ()
// GENERIC: "memref.alloca_scope"() ({
// GENERIC: "memref.alloca_scope.return"() {foo} : () -> ()
// GENERIC: %a = "memref.alloca"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> {foo = "x"} : () -> memref<2xf32, 3>

// -----

func.func @dma(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %z: memref<i32>, %n: index, %s: index) {
  memref.dma_start %a[%n, %n], %b[%n], %n, %t[%n] : memref<4x4xf32>, memref<16xf32, 1>, memref<1xi32>
  memref.dma_start %a[%n, %n], %b[%n], %n, %z[], %s, %n : memref<4x4xf32>, memref<16xf32, 1>, memref<i32>
  memref.dma_wait %t[%n], %n : memref<1xi32>
  memref.dma_wait %z[], %n {foo} : memref<i32>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @dma(%a: memref<4x4xf32>, %b: memref<16xf32, 1>, %t: memref<1xi32>, %z: memref<i32>, %n: index, %s: index) {
// CHECK-NEXT: memref.dma_start %a[%n, %n], %b[%n], %n, %t[%n] : memref<4x4xf32>, memref<16xf32, 1>, memref<1xi32>
// CHECK-NEXT: memref.dma_start %a[%n, %n], %b[%n], %n, %z[], %s, %n : memref<4x4xf32>, memref<16xf32, 1>, memref<i32>
// CHECK-NEXT: memref.dma_wait %t[%n], %n : memref<1xi32>
// CHECK-NEXT: memref.dma_wait %z[], %n {foo} : memref<i32>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.dma_start"(%a, %n, %n, %b, %n, %n, %t, %n) : (memref<4x4xf32>, index, index, memref<16xf32, 1>, index, index, memref<1xi32>, index) -> ()
// GENERIC: "memref.dma_start"(%a, %n, %n, %b, %n, %n, %z, %s, %n) : (memref<4x4xf32>, index, index, memref<16xf32, 1>, index, index, memref<i32>, index, index) -> ()
// GENERIC: "memref.dma_wait"(%t, %n, %n) : (memref<1xi32>, index, index) -> ()
// GENERIC: "memref.dma_wait"(%z, %n) {foo} : (memref<i32>, index) -> ()
