// A loop with a step of 0 (undefined behaviour in MLIR) is an error at the loop.
// RUN: not xgpu-run --backend sim %s 2>&1 | filecheck %s
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c0 {
  }
  return
}
// CHECK: error-step.mlir:6:3: error: undefined behavior: a loop with a step of 0
