// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// The token of a dependency-free `gpu.wait async` is dropped from the
// dependencies of a wait, but not from those of other async ops.
func.func @pairs(%t: !gpu.async.token) {
  %0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%0, %t] () : memref<4xf32>
  gpu.wait [%0, %t1]
  return
}

// -----

func.func @forward(%t0: !gpu.async.token) -> !gpu.async.token {
  %t1 = gpu.wait async [%t0]
  return %t1 : !gpu.async.token
}

// -----

func.func @forward_chain(%t0: !gpu.async.token) -> !gpu.async.token {
  %t1 = gpu.wait async [%t0]
  %t2 = gpu.wait async [%t1]
  %t3 = gpu.wait async [%t2]
  return %t3 : !gpu.async.token
}

// -----

func.func @unused(%a: !gpu.async.token, %b: !gpu.async.token) {
  %t = gpu.wait async [%a, %b]
  return
}

// -----

func.func @join(%a: !gpu.async.token, %b: !gpu.async.token) -> !gpu.async.token {
  %t = gpu.wait async [%a, %b]
  return %t : !gpu.async.token
}

// -----

func.func @noop() {
  gpu.wait
  gpu.wait []
  return
}

// -----

func.func @sync_kept(%a: !gpu.async.token, %b: !gpu.async.token) {
  gpu.wait [%a]
  gpu.wait [%a, %b]
  return
}

// -----

// The pairs pattern runs first: %1 loses %0 and stays an async wait.
func.func @fold_order() -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async [%0]
  return %1 : !gpu.async.token
}

// -----

func.func @fold_all() {
  %1 = gpu.wait async
  gpu.wait []
  %3 = gpu.wait async
  gpu.wait [%3]
  return
}

// -----

// A fresh token used by a later op is kept.
func.func @fresh_token_used() -> !gpu.async.token {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] () : memref<4xf32>
  return %t : !gpu.async.token
}

// -----

func.func @join_partial(%a: !gpu.async.token) -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async [%a, %0]
  return %1 : !gpu.async.token
}

// -----

func.func @join_two_fresh(%a: !gpu.async.token) -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async
  %2 = gpu.wait async [%0, %a, %1]
  return %2 : !gpu.async.token
}

// -----

// Waits in nested regions.
func.func @nested(%c: i1, %a: !gpu.async.token, %m: memref<4xf32>, %v: f32) {
  scf.if %c {
    %1 = gpu.wait async [%a]
    %2 = gpu.memset async [%1] %m, %v : memref<4xf32>, f32
    gpu.wait [%2]
  } else {
    %0 = gpu.wait async
    gpu.wait [%0, %a]
  }
  return
}
