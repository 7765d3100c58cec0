// Remarks (not warnings) for synchronization that does nothing.
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s

// A single-token `gpu.wait async` is an alias of its dependency; a join of
// several tokens is not.
func.func @alias(%a: !gpu.async.token, %b: !gpu.async.token) -> !gpu.async.token {
  // expected-remark @below {{this gpu.wait async is an alias of %a; it synchronizes nothing}}
  %x = gpu.wait async [%a]
  %j = gpu.wait async [%x, %b]
  return %j : !gpu.async.token
}

// -----

// A blocking wait on work already completed by an earlier wait, or by a
// synchronous op that depends on it.
func.func @completed(%dev: memref<?xf32>, %host: memref<?xf32>, %v: f32) {
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  // expected-note @below {{the work was completed by this gpu.wait}}
  gpu.wait [%t2]
  // expected-remark @below {{this gpu.wait synchronizes nothing: %t1 has already completed}}
  gpu.wait [%t1]
  %t3 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  // expected-note @below {{the work was completed by this gpu.memcpy}}
  gpu.memcpy [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
  // expected-remark @below {{this gpu.wait synchronizes nothing: %t3 has already completed}}
  gpu.wait [%t3]
  return
}

// -----

// Tokens that stand for no work, waits without dependencies, and waits of
// which only some dependencies do something.
func.func @no_work(%dev: memref<?xf32>, %v: f32) {
  %t0 = gpu.wait async
  // expected-remark @below {{this gpu.wait synchronizes nothing: %t0 stands for no GPU work}}
  gpu.wait [%t0]
  // expected-remark @below {{gpu.wait without dependencies waits for nothing}}
  gpu.wait
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  // expected-remark @below {{waiting for %t0 does nothing: %t0 stands for no GPU work}}
  gpu.wait [%t0, %t1]
  return
}

// -----

// Not useless: the work may still be in flight on some path.
func.func @maybe_in_flight(%dev: memref<?xf32>, %v: f32, %c: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  scf.if %c {
    gpu.wait [%t1]
  }
  gpu.wait [%t1]
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    gpu.wait [%t]
    %t2 = gpu.memset async [%t] %dev, %v : memref<?xf32>, f32
    scf.yield %t2 : !gpu.async.token
  }
  gpu.wait [%r]
  return
}

// -----

// The token of an scf.if that yields the work of either branch.
func.func @either(%dev: memref<?xf32>, %v: f32, %c: i1) {
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  %r = scf.if %c -> (!gpu.async.token) {
    gpu.wait [%t1]
    %t2 = gpu.wait async
    scf.yield %t2 : !gpu.async.token
  } else {
    scf.yield %t1 : !gpu.async.token
  }
  // Does something on the else path.
  gpu.wait [%r]
  return
}
