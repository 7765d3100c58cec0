// RUN: xgpu-opt %s --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | xgpu-opt --split-input-file | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

// memref allocation ops in MLIR 22's custom form (as mlir-opt 22 prints them) and
// generic form: globals, alloc/alloca (alignment, symbol operands), realloc,
// dealloc, alloca_scope (the terminator is printed only when it returns values).

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

// CHECK: builtin.module {
// CHECK-NEXT: memref.global "private" constant @c : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global @g : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global "public" @h : memref<f32> = dense<0.000000e+00>
// CHECK-NEXT: memref.global "private" @e : memref<3xi8>
// CHECK-NEXT: memref.global @s : memref<2x2xf32, 3> = dense<1.000000e+00> {foo}
// CHECK-NEXT: memref.global "nested" @n : memref<2xi32> = dense<[1, 2]>
// CHECK-NEXT: func.func @get() -> memref<2xf32> {
// CHECK-NEXT: %g = memref.get_global @c : memref<2xf32>
// CHECK-NEXT: %h = memref.get_global @h : memref<f32> {foo}
// CHECK-NEXT: func.return %g : memref<2xf32>
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>, sym_name = "c", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
// GENERIC: "memref.global"() <{initial_value, sym_name = "g", type = memref<4xi32>}> : () -> ()
// GENERIC: "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<f32>, sym_name = "h", sym_visibility = "public", type = memref<f32>}> : () -> ()
// GENERIC: "memref.global"() <{sym_name = "e", sym_visibility = "private", type = memref<3xi8>}> : () -> ()
// GENERIC: "memref.global"() <{initial_value = dense<1.000000e+00> : tensor<2x2xf32>, sym_name = "s", type = memref<2x2xf32, 3>}> {foo} : () -> ()
// GENERIC: "memref.global"() <{initial_value = dense<[1, 2]> : tensor<2xi32>, sym_name = "n", sym_visibility = "nested", type = memref<2xi32>}> : () -> ()
// GENERIC: %g = "memref.get_global"() <{name = @c}> : () -> memref<2xf32>
// GENERIC: %h = "memref.get_global"() <{name = @h}> {foo} : () -> memref<f32>

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

// CHECK: #map = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK: builtin.module {
// CHECK-NEXT: func.func @alloc(%n: index) {
// CHECK-NEXT: %a = memref.alloc() : memref<4xf32>
// CHECK-NEXT: %b = memref.alloc(%n) {alignment = 16 : i64} : memref<?xf32>
// CHECK-NEXT: %c = memref.alloc(%n)[%n] : memref<?xf32, #map>
// CHECK-NEXT: %d = memref.alloc(%n, %n) {alignment = 8 : i64, foo} : memref<?x4x?xf32, 1>
// CHECK-NEXT: %e = memref.alloca() : memref<4xf32>
// CHECK-NEXT: %f = memref.alloca(%n) {alignment = 32 : i64} : memref<?xf32>
// CHECK-NEXT: %g = memref.alloca()[%n] : memref<4xf32, #map>
// CHECK-NEXT: %h = memref.realloc %b(%n) : memref<?xf32> to memref<?xf32>
// CHECK-NEXT: %i = memref.realloc %a {alignment = 8 : i64} : memref<4xf32> to memref<8xf32>
// CHECK-NEXT: memref.dealloc %d : memref<?x4x?xf32, 1>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC: %b = "memref.alloc"(%n) <{alignment = 16 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
// GENERIC: %c = "memref.alloc"(%n, %n) <{operandSegmentSizes = array<i32: 1, 1>}> : (index, index) -> memref<?xf32, #map>
// GENERIC: %d = "memref.alloc"(%n, %n) <{alignment = 8 : i64, operandSegmentSizes = array<i32: 2, 0>}> {foo} : (index, index) -> memref<?x4x?xf32, 1>
// GENERIC: %e = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC: %f = "memref.alloca"(%n) <{alignment = 32 : i64, operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
// GENERIC: %g = "memref.alloca"(%n) <{operandSegmentSizes = array<i32: 0, 1>}> : (index) -> memref<4xf32, #map>
// GENERIC: %h = "memref.realloc"(%b, %n) : (memref<?xf32>, index) -> memref<?xf32>
// GENERIC: %i = "memref.realloc"(%a) <{alignment = 8 : i64}> : (memref<4xf32>) -> memref<8xf32>
// GENERIC: "memref.dealloc"(%d) : (memref<?x4x?xf32, 1>) -> ()

// -----

func.func @dealloc(%u: memref<*xf32>, %m: memref<4xf32, #gpu.address_space<global>>) {
  memref.dealloc %u : memref<*xf32>
  memref.dealloc %m {foo} : memref<4xf32, #gpu.address_space<global>>
  return
}

// CHECK: builtin.module {
// CHECK-NEXT: func.func @dealloc(%u: memref<*xf32>, %m: memref<4xf32, #gpu.address_space<global>>) {
// CHECK-NEXT: memref.dealloc %u : memref<*xf32>
// CHECK-NEXT: memref.dealloc %m {foo} : memref<4xf32, #gpu.address_space<global>>
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.dealloc"(%u) : (memref<*xf32>) -> ()
// GENERIC: "memref.dealloc"(%m) {foo} : (memref<4xf32, #gpu.address_space<global>>) -> ()

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

// CHECK: builtin.module {
// CHECK-NEXT: func.func @scopes(%v: f32) -> f32 {
// CHECK-NEXT: memref.alloca_scope  {
// CHECK-NEXT: %q = memref.alloca() : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: memref.alloca_scope  {
// CHECK-NEXT: %q = memref.alloca() : memref<4xf32>
// CHECK-NEXT: } {foo}
// CHECK-NEXT: %a = memref.alloca_scope  -> (f32) {
// CHECK-NEXT: memref.alloca_scope.return %v : f32
// CHECK-NEXT: }
// CHECK-NEXT: %b:2 = memref.alloca_scope  -> (f32, f32) {
// CHECK-NEXT: memref.alloca_scope.return %v, %v : f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: func.return %a : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// GENERIC: "memref.alloca_scope"() ({
// GENERIC: %q = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC: "memref.alloca_scope.return"() : () -> ()
// GENERIC: "memref.alloca_scope"() ({
// GENERIC: %q = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
// GENERIC: "memref.alloca_scope.return"() : () -> ()
// GENERIC: %a = "memref.alloca_scope"() ({
// GENERIC: "memref.alloca_scope.return"(%v) : (f32) -> ()
// GENERIC: %b:2 = "memref.alloca_scope"() ({
// GENERIC: "memref.alloca_scope.return"(%v, %v) : (f32, f32) -> ()
