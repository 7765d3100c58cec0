// memref.load/store with the wrong number of indices: MLIR's messages (xDSL
// 0.75's verifiers raise a plain exception there). Also compared with
// mlir-opt by tests/unit/test_diagnostics_vs_mlir.py.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @load(%m: memref<4x4xi32>, %t: index) {
  // expected-error @+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 1}}
  %v = memref.load %m[%t] : memref<4x4xi32>
  return
}

// -----

func.func @store(%m: memref<4x4xi32>, %t: index, %x: i32) {
  // expected-error @+1 {{'memref.store' op store index operand count not equal to memref rank}}
  memref.store %x, %m[%t, %t, %t] : memref<4x4xi32>
  return
}
