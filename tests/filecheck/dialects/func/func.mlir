// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Declarations keep the attributes of their arguments and results; no `-> ()`.
// CHECK:      func.func private @decl(memref<?xf32> {llvm.noalias}, i32 {my.a = 1 : i32}) -> (i32 {my.r})
// GENERIC:    "func.func"() <{arg_attrs = [{llvm.noalias}, {my.a = 1 : i32}], function_type = (memref<?xf32>, i32) -> i32, res_attrs = [{my.r}], sym_name = "decl", sym_visibility = "private"}>
func.func private @decl(memref<?xf32> {llvm.noalias}, i32 {my.a = 1 : i32}) -> (i32 {my.r})

// Named arguments of a declaration print as types; empty dictionaries vanish.
// CHECK-NEXT: func.func private @named_decl(i32 {my.b}, f32)
// GENERIC:    arg_attrs = [{my.b}, {}], function_type = (i32, f32) -> (), sym_name = "named_decl"
func.func private @named_decl(%x: i32 {my.b}, %y: f32 {})

// CHECK-NEXT: func.func private @no_attrs(i32, f32) -> (i32, f32) attributes {a.z, b.y = 2 : i64}
// GENERIC:    "func.func"() <{function_type = (i32, f32) -> (i32, f32), sym_name = "no_attrs", sym_visibility = "private"}> ({
// GENERIC-NEXT: }) {a.z, b.y = 2 : i64} : () -> ()
func.func private @no_attrs(i32, f32) -> (i32, f32) attributes {b.y = 2, a.z}

// A single function-typed result keeps its parentheses.
// CHECK-NEXT: func.func private @fn_result() -> ((i32) -> i32)
func.func private @fn_result() -> ((i32) -> i32)

// CHECK-NEXT: func.func @def(%{{.*}}: memref<?xf32> {llvm.noalias}) -> (i32 {my.res = "x"}) attributes {my.attr = 3 : i64} {
// GENERIC:    "func.func"() <{arg_attrs = [{llvm.noalias}], function_type = (memref<?xf32>) -> i32, res_attrs = [{my.res = "x"}], sym_name = "def"}> ({
func.func @def(%a: memref<?xf32> {llvm.noalias}) -> (i32 {my.res = "x"}) attributes {my.attr = 3 : i64} {
  // CHECK-NEXT: %{{.*}} = func.call @callee(%{{.*}}) {no_inline} : (memref<?xf32>) -> i32
  // GENERIC:    "func.call"(%{{.*}}) <{callee = @callee, no_inline}> : (memref<?xf32>) -> i32
  %s = func.call @callee(%a) {no_inline} : (memref<?xf32>) -> i32
  // CHECK-NEXT: %{{.*}} = func.call @callee(%{{.*}}) {arg_attrs = [{my.c}], res_attrs = [{my.d}]} : (memref<?xf32>) -> i32
  // GENERIC:    "func.call"(%{{.*}}) <{arg_attrs = [{my.c}], callee = @callee, res_attrs = [{my.d}]}> : (memref<?xf32>) -> i32
  %t = func.call @callee(%a) {arg_attrs = [{my.c}], res_attrs = [{my.d}]} : (memref<?xf32>) -> i32
  // CHECK-NEXT: func.return %{{.*}} : i32
  func.return %s : i32
}

// CHECK:      func.func nested @callee(%{{.*}}: memref<?xf32>) -> i32 {
// GENERIC:    sym_name = "callee", sym_visibility = "nested"
func.func nested @callee(%a: memref<?xf32>) -> i32 {
  // CHECK-NEXT: %[[F:.*]] = func.constant @callee : (memref<?xf32>) -> i32
  // GENERIC:    "func.constant"() <{value = @callee}> : () -> ((memref<?xf32>) -> i32)
  %f = func.constant @callee : (memref<?xf32>) -> i32
  // CHECK-NEXT: %{{.*}} = func.call_indirect %[[F]](%{{.*}}) : (memref<?xf32>) -> i32
  // GENERIC:    "func.call_indirect"(%{{.*}}, %{{.*}}) : ((memref<?xf32>) -> i32, memref<?xf32>) -> i32
  %r = func.call_indirect %f(%a) : (memref<?xf32>) -> i32
  // CHECK-NEXT: %{{.*}} = func.constant {my.e} @callee : (memref<?xf32>) -> i32
  // GENERIC:    "func.constant"() <{value = @callee}> {my.e} : () -> ((memref<?xf32>) -> i32)
  %g = func.constant {my.e} @callee : (memref<?xf32>) -> i32
  // CHECK-NEXT: func.call_indirect %{{.*}}(%{{.*}}) {arg_attrs = [{my.f}], my.g} : (memref<?xf32>) -> i32
  // GENERIC:    "func.call_indirect"(%{{.*}}, %{{.*}}) <{arg_attrs = [{my.f}]}> {my.g} : ((memref<?xf32>) -> i32, memref<?xf32>) -> i32
  %u = func.call_indirect %g(%a) {arg_attrs = [{my.f}], my.g} : (memref<?xf32>) -> i32
  func.return %r : i32
}

// CHECK:      func.func public @pub() {
// CHECK-NEXT:   %[[H:.*]] = func.constant @pub : () -> ()
// CHECK-NEXT:   func.call_indirect %[[H]]() : () -> ()
// GENERIC:    sym_name = "pub", sym_visibility = "public"
func.func public @pub() {
  %h = func.constant @pub : () -> ()
  func.call_indirect %h() : () -> ()
  func.return
}

// A definition with unnamed arguments and an explicit entry block.
// CHECK:      func.func @unnamed(%{{.*}}: i32) {
// CHECK-NEXT:   func.return
func.func @unnamed(i32) {
^bb0(%a: i32):
  func.return
}
