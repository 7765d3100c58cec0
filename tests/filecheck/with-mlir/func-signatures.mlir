// RUN: %mlir-diff %s
// RUN: %mlir-opt %s --split-input-file | filecheck %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// CHECK: func.func private @decl(memref<?xf32> {llvm.noalias}, i32 {my.a = 1 : i32}) -> (i32 {my.r})
func.func private @decl(memref<?xf32> {llvm.noalias}, i32 {my.a = 1 : i32}) -> (i32 {my.r})
// CHECK: func.func private @named_decl(i32 {my.b}, f32)
func.func private @named_decl(%x: i32 {my.b}, %y: f32 {})
// CHECK: func.func private @no_attrs(i32, f32) -> (i32, f32) attributes {a.z, b.y = 2 : i64}
func.func private @no_attrs(i32, f32) -> (i32, f32) attributes {b.y = 2, a.z}
// CHECK: func.func private @fn_result() -> ((i32) -> i32)
func.func private @fn_result() -> ((i32) -> i32)
// CHECK: func.func private @empty_results(i32)
func.func private @empty_results(i32) -> ()

// -----

// CHECK: func.func @def(%{{.*}}: memref<?xf32> {llvm.noalias}) -> (i32 {my.res = "x"}) attributes {my.attr = 3 : i64} {
func.func @def(%a: memref<?xf32> {llvm.noalias}) -> (i32 {my.res = "x"}) attributes {my.attr = 3 : i64} {
  // CHECK: call @callee(%{{.*}}) {no_inline} : (memref<?xf32>) -> i32
  %s = func.call @callee(%a) {no_inline} : (memref<?xf32>) -> i32
  %t = func.call @callee(%a) {arg_attrs = [{my.c}], res_attrs = [{my.d}]} : (memref<?xf32>) -> i32
  func.return %s : i32
}
// CHECK: func.func nested @callee(
func.func nested @callee(%a: memref<?xf32>) -> i32 {
  // CHECK: constant @callee : (memref<?xf32>) -> i32
  %f = func.constant @callee : (memref<?xf32>) -> i32
  // CHECK: call_indirect %{{.*}}(%{{.*}}) : (memref<?xf32>) -> i32
  %r = func.call_indirect %f(%a) : (memref<?xf32>) -> i32
  %g = func.constant {my.e} @callee : (memref<?xf32>) -> i32
  %u = func.call_indirect %g(%a) {arg_attrs = [{my.f}], my.g} : (memref<?xf32>) -> i32
  func.return %r : i32
}
func.func public @pub() {
  %h = func.constant @pub : () -> ()
  func.call_indirect %h() : () -> ()
  func.return
}
func.func @unnamed(i32) {
^bb0(%a: i32):
  func.return
}
