// Correct programs: gpu-check-async reports nothing (no warning, no remark).
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s
// RUN: xgpu-opt -p gpu-check-async --split-input-file %s 2>&1 >/dev/null | filecheck %s --allow-empty
// CHECK-NOT: {{warning|remark|error}}
// The forum program gets its remark only.
// RUN: xgpu-opt -p gpu-check-async %S/../../../examples/forum.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=FORUM
// FORUM-NOT: warning
// FORUM: remark: this gpu.wait async is an alias of %343; it synchronizes nothing
// FORUM-NOT: warning
// Without expectations, --verify-diagnostics fails on an unexpected warning.
// RUN: not xgpu-opt -p gpu-check-async --verify-diagnostics %S/../../../examples/forum_missing_dep.mlir 2>&1 | filecheck %s --check-prefix=UNEXPECTED
// UNEXPECTED: error: unexpected warning: gpu.launch_func reads and writes %dev while gpu.launch_func

// The classic chain: alloc, copy in, kernel, copy out, dealloc, wait; then
// the host reads the result.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rw(%b: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<?xf32>
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
    gpu.func @read(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %in[%c0] : memref<?xf32>
      memref.store %v, %out[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @chain(%host: memref<?xf32>, %n: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %t3 = gpu.launch_func async [%t2] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>)
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<?xf32>
    gpu.wait [%t5]
    %x = memref.load %host[%c0] : memref<?xf32>
    return %x : f32
  }

  // Fork/join through a multi-token wait; concurrent readers of one buffer.
  func.func @fork_join(%in: memref<?xf32>, %a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %x, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %y, %t2 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t3 = gpu.memcpy async [%t1] %x, %in : memref<?xf32>, memref<?xf32>
    %t4 = gpu.memcpy async [%t2] %y, %in : memref<?xf32>, memref<?xf32>
    %j = gpu.wait async [%t3, %t4]
    %r1 = gpu.launch_func async [%j] @k::@read blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    %r2 = gpu.launch_func async [%t3] @k::@read blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %a : memref<?xf32>)
    %r3 = gpu.memcpy async [%t3] %b, %x : memref<?xf32>, memref<?xf32>
    %done = gpu.wait async [%r1, %r2, %r3]
    %f1 = gpu.dealloc async [%done] %x : memref<?xf32>
    %f2 = gpu.dealloc async [%done] %y : memref<?xf32>
    gpu.wait [%f1, %f2]
    return
  }

  // Chains in loops (dynamic bounds, nested, two carried tokens).
  func.func @loops(%host: memref<?xf32>, %a: memref<?xf32>, %b: memref<?xf32>, %n: index, %m: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%ta = %t0, %tb = %t0) -> (!gpu.async.token, !gpu.async.token) {
      %inner = scf.for %j = %c0 to %m step %c1 iter_args(%t = %ta) -> (!gpu.async.token) {
        %t1 = gpu.launch_func async [%t] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
        scf.yield %t1 : !gpu.async.token
      }
      %t2 = gpu.launch_func async [%tb] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
      scf.yield %inner, %t2 : !gpu.async.token, !gpu.async.token
    }
    %t3 = gpu.memcpy async [%r#0] %host, %a : memref<?xf32>, memref<?xf32>
    gpu.wait [%t3, %r#1]
    %x = memref.load %host[%c0] : memref<?xf32>
    %y = memref.load %b[%c0] : memref<?xf32>
    return
  }

  // A loop that waits for each iteration before the host reads.
  func.func @wait_each_iteration(%host: memref<?xf32>, %dev: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %t0 = gpu.wait async
      %t1 = gpu.launch_func async [%t0] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>)
      %t2 = gpu.memcpy async [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
      gpu.wait [%t2]
      %x = memref.load %host[%c0] : memref<?xf32>
    }
    return
  }
}

// -----

// Buffers carried across iterations: a rolling buffer freed one iteration
// after its allocation, and two buffers swapped (ping-pong).
func.func @rolling(%host: memref<?xf32>, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %b0, %ta = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%prev = %b0, %t = %ta) -> (memref<?xf32>, !gpu.async.token) {
    %b, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %b, %prev : memref<?xf32>, memref<?xf32>
    %t3 = gpu.dealloc async [%t2] %prev : memref<?xf32>
    scf.yield %b, %t3 : memref<?xf32>, !gpu.async.token
  }
  %t4 = gpu.memcpy async [%r#1] %host, %r#0 : memref<?xf32>, memref<?xf32>
  %t5 = gpu.dealloc async [%t4] %r#0 : memref<?xf32>
  gpu.wait [%t5]
  return
}

func.func @pingpong(%host: memref<?xf32>, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %a, %ta = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %b, %tb = gpu.alloc async [%t0] (%n) : memref<?xf32>
  %j = gpu.wait async [%ta, %tb]
  %r:3 = scf.for %i = %c0 to %steps step %c1 iter_args(%src = %a, %dst = %b, %t = %j) -> (memref<?xf32>, memref<?xf32>, !gpu.async.token) {
    %t1 = gpu.memcpy async [%t] %dst, %src : memref<?xf32>, memref<?xf32>
    scf.yield %dst, %src, %t1 : memref<?xf32>, memref<?xf32>, !gpu.async.token
  }
  %t4 = gpu.memcpy async [%r#2] %host, %r#0 : memref<?xf32>, memref<?xf32>
  %t5 = gpu.dealloc async [%t4] %a : memref<?xf32>
  %t6 = gpu.dealloc async [%t4] %b : memref<?xf32>
  gpu.wait [%t5, %t6]
  return
}

// -----

// Synchronous ops only.
func.func @synchronous(%host: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %dev = gpu.alloc (%n) : memref<?xf32>
  gpu.memset %dev, %v : memref<?xf32>, f32
  gpu.memcpy %host, %dev : memref<?xf32>, memref<?xf32>
  %x = memref.load %host[%c0] : memref<?xf32>
  gpu.dealloc %dev : memref<?xf32>
  return
}

// -----

// Synchronous ops with dependencies complete them.
func.func @sync_with_deps(%host: memref<?xf32>, %dev: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  gpu.memcpy [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  %x = memref.load %host[%c0] : memref<?xf32>
  return
}

// -----

// Tokens passed in, returned, and yielded by either branch of an scf.if.
func.func @tokens_in_and_out(%dev: memref<?xf32>, %v: f32, %c: i1, %t: !gpu.async.token) -> !gpu.async.token {
  %r = scf.if %c -> (!gpu.async.token) {
    %a = gpu.memset async [%t] %dev, %v : memref<?xf32>, f32
    scf.yield %a : !gpu.async.token
  } else {
    %b = gpu.wait async [%t, %t]
    scf.yield %b : !gpu.async.token
  }
  %x = gpu.memset async [%r] %dev, %v : memref<?xf32>, f32
  return %x : !gpu.async.token
}

// -----

// Host-registered memory written by a kernel, read after the wait.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%b: memref<?xf32>, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @registered(%host: memref<?xf32>, %v: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %u = "memref.cast"(%host) : (memref<?xf32>) -> memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%host : memref<?xf32>, %v : f32)
    gpu.wait [%t1]
    %x = memref.load %host[%c0] : memref<?xf32>
    gpu.host_unregister %u : memref<*xf32>
    return %x : f32
  }
}

// -----

// gpu.launch with a body: its effects come from the body.
func.func @inline_launch(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%c0] : memref<?xf32>
    memref.store %v, %b[%c0] : memref<?xf32>
    gpu.terminator
  }
  %x = memref.load %a[%c0] : memref<?xf32>
  gpu.wait [%t1]
  memref.store %x, %b[%c0] : memref<?xf32>
  return
}
