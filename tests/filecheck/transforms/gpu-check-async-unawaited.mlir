// Bug class 4: async work whose token is never awaited before the function
// returns (unless the token, or one depending on it, is returned).
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s

func.func @never(%dev: memref<?xf32>, %host: memref<?xf32>) {
  %t0 = gpu.wait async
  // expected-warning @below {{gpu.memcpy is never awaited: nothing waits for %t1 before the function returns (line 12)}}
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<?xf32>, memref<?xf32>
  // expected-warning @below {{gpu.dealloc is never awaited: nothing waits for %t2 before the function returns (line 12)}}
  %t2 = gpu.dealloc async [%t1] %dev : memref<?xf32>
  // expected-note @below 2 {{the function returns here}}
  return
}

// -----

// Awaited through tokens that depend on it, returned, or handed to a call.

func.func private @consume(!gpu.async.token)

func.func @awaited(%dev: memref<?xf32>, %a: memref<?xf32>, %b: memref<?xf32>) -> !gpu.async.token {
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %a, %dev : memref<?xf32>, memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %b, %dev : memref<?xf32>, memref<?xf32>
  gpu.wait [%t2]
  %t3 = gpu.memcpy async [%t0] %a, %dev : memref<?xf32>, memref<?xf32>
  func.call @consume(%t3) : (!gpu.async.token) -> ()
  %t4 = gpu.memcpy async [%t3] %b, %dev : memref<?xf32>, memref<?xf32>
  %t5 = gpu.wait async [%t4, %t0]
  return %t5 : !gpu.async.token
}

// -----

// A wait on one branch only.

func.func @one_branch(%dev: memref<?xf32>, %host: memref<?xf32>, %c: i1) {
  %t0 = gpu.wait async
  // expected-warning @below {{gpu.memcpy is never awaited: nothing waits for %t1 before the function returns (line 45)}}
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
  scf.if %c {
    gpu.wait [%t1]
  }
  // expected-note @below {{the function returns here}}
  return
}

// -----

// Several returns: only the path that skips the wait is reported.

func.func @early_return(%dev: memref<?xf32>, %host: memref<?xf32>, %c: i1) {
  %t0 = gpu.wait async
  // expected-warning @below {{gpu.memcpy is never awaited: nothing waits for %t1 before the function returns (line 59)}}
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
  cf.cond_br %c, ^early, ^late
^early:
  // expected-note @below {{the function returns here}}
  return
^late:
  gpu.wait [%t1]
  return
}

// -----

// A loop that only awaits its last iteration.

func.func @last_only(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    // expected-warning @below {{the earlier runs of this gpu.alloc (previous loop iterations) are never awaited}}
    %b, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    scf.yield %t1 : !gpu.async.token
  }
  gpu.wait [%r]
  // expected-note @below {{the function returns here}}
  return
}
