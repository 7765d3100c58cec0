// MLIR's -verify-diagnostics contract: met expectations pass silently...
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics
// ...and a wrong expectation fails, naming both sides.
// RUN: sed -e 's/no results}}/no result at all}}/' %s > %t.mlir
// RUN: not xgpu-opt %t.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=WRONG

func.func @f() {
  // expected-error @+1 {{cannot name an operation with no results}}
  %t = gpu.wait
}
// WRONG: error: unexpected error: cannot name an operation with no results
// WRONG: error: expected error "cannot name an operation with no result at all" was not produced

// -----

func.func @g() {
  // expected-error @below {{needs to be named when marked 'async'}}
  gpu.wait async
}

// -----

// A chunk without errors is fine too.
func.func @h(%t: !gpu.async.token) {
  gpu.wait [%t]
  func.return
}
