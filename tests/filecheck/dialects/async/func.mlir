// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// In an async.func, `return` is `async.return` (the async dialect is the
// default one there); xgpu prints the full name, as it prints `func.return`.
// CHECK:      async.func @f0(%a: i32) -> !async.token {
// CHECK-NEXT:   async.return
// CHECK-NEXT: }
// GENERIC: "async.func"() <{function_type = (i32) -> !async.token, sym_name = "f0"}> ({
// GENERIC-NEXT: ^bb0(%{{.*}}: i32):
// GENERIC-NEXT: "async.return"() : () -> ()
async.func @f0(%a: i32) -> !async.token {
  return
}
// CHECK:      async.func @f1(%a: i32) -> (!async.token, !async.value<i32>) attributes {foo} {
// CHECK-NEXT:   %b = arith.addi %a, %a : i32
// CHECK-NEXT:   async.return %b : i32
// CHECK-NEXT: }
async.func @f1(%a: i32) -> (!async.token, !async.value<i32>) attributes {foo} {
  %b = arith.addi %a, %a : i32
  async.return %b : i32
}
// CHECK: async.func private @decl(i32) -> !async.value<f32>
// GENERIC: "async.func"() <{function_type = (i32) -> !async.value<f32>, sym_name = "decl", sym_visibility = "private"}> ({
async.func private @decl(i32) -> !async.value<f32>
// CHECK-LABEL: func.func @main
func.func @main(%x: i32) {
  // CHECK-NEXT: %t = async.call @f0(%x) : (i32) -> !async.token
  // GENERIC: "async.call"(%{{.*}}) <{callee = @f0}> : (i32) -> !async.token
  %t = async.call @f0(%x) : (i32) -> !async.token
  // CHECK-NEXT: %t2, %v = async.call @f1(%x) {bar} : (i32) -> (!async.token, !async.value<i32>)
  // GENERIC: "async.call"(%{{.*}}) <{callee = @f1}> {bar} : (i32) -> (!async.token, !async.value<i32>)
  %t2, %v = async.call @f1(%x) {bar} : (i32) -> (!async.token, !async.value<i32>)
  %w = async.call @decl(%x) : (i32) -> !async.value<f32>
  return
}
