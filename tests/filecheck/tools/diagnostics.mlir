// Parse and verifier errors are printed as mlir-opt prints them, with the
// source line and a caret, and make xgpu-opt exit with status 1.
// RUN: not xgpu-opt %s --split-input-file 2>&1 | filecheck %s

func.func @named_sync_wait() {
  %t = gpu.wait
  func.return
}
// CHECK: diagnostics.mlir:6:3: error: cannot name an operation with no results
// CHECK-NEXT: {{^}}  %t = gpu.wait
// CHECK-NEXT: {{^}}  ^

// -----

func.func @unnamed_async_wait() {
  gpu.wait async
  func.return
}
// CHECK: diagnostics.mlir:16:12: error: custom op 'gpu.wait' needs to be named when marked 'async'

// -----

func.func @bad_return() -> i32 {
  %c = arith.constant 0 : i64
  func.return %c : i64
}
// CHECK: diagnostics.mlir:25:3: error: type of return operand 0 ('i64') doesn't match function result type ('i32') in function @bad_return
// CHECK: diagnostics.mlir:25:3: note: see current operation: "func.return"
