// An scf.if whose else region yields nothing: rejected by the verifier (MLIR's
// message, at the op, exit 1) before canonicalize or xgpu-run look at it.
// RUN: not xgpu-opt %s -p canonicalize 2>&1 | filecheck %s
// RUN: not xgpu-run %s 2>&1 | filecheck %s

func.func @main() {
  %c = arith.constant true
  // CHECK: diag-scf-if-else.mlir:[[# @LINE + 1]]:8: error: 'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs
  %0 = scf.if %c -> (i32) {
    %1 = arith.constant 1 : i32
    scf.yield %1 : i32
  } else {
    // CHECK: diag-scf-if-else.mlir:[[# @LINE + 1]]:5: note: region branch point
    scf.yield
  }
  %p = arith.cmpi eq, %0, %0 : i32
  return
}
// CHECK-NOT: Traceback
