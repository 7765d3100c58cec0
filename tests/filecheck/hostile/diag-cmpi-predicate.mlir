// Out-of-range comparison predicates: MLIR's constraint error at the op (in
// the attribute dictionary) or its property conversion error (in `<{...}>`).
// RUN: not xgpu-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not xgpu-run %s 2>&1 | filecheck %s --check-prefix=RUNNER

func.func @main() {
  %a = arith.constant 1 : i32
  // CHECK: [[# @LINE + 1]]:8: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
  %0 = "arith.cmpi"(%a, %a) {predicate = 42 : i64} : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: f32) -> i1 {
  // xgpu-run reads the whole file: this parse error comes first.
  // RUNNER: [[# @LINE + 2]]:8: error: invalid properties {predicate = 16 : i64}
  // CHECK: [[# @LINE + 1]]:8: error: invalid properties {predicate = 16 : i64} for op arith.cmpf: Invalid attribute `predicate` in property conversion: 16 : i64
  %0 = "arith.cmpf"(%a, %a) <{predicate = 16 : i64}> : (f32, f32) -> i1
  return %0 : i1
}

// -----

func.func @g(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  // CHECK: [[# @LINE + 1]]:8: error: 'memref.atomic_rmw' op attribute 'kind' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
  %0 = "memref.atomic_rmw"(%v, %m, %i) {kind = 99 : i64} : (f32, memref<4xf32>, index) -> f32
  return %0 : f32
}
