// RUN: %mlir-diff --pass gpu-async-region %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-async-region' %s

// gpu-async-region on programs with async.execute: each chunk is compared with
// `mlir-opt --gpu-async-region`. Cases written for xgpu (not MLIR's tests).

// Two executes in a row, the second depending on the first, then awaited: the
// trailing gpu.wait of each body moves out; the second execute receives the
// first's gpu token as a body operand, and the await gets one of its own.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @chain(%n : index) {
    %a = async.execute {
      gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
      async.yield
    }
    %b = async.execute [%a] {
      gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
      async.yield
    }
    async.await %b : !async.token
    return
  }
}

// -----

// An op with effects after the gpu work keeps the gpu.wait in the body; a
// token that is not used, or used by something other than execute/await
// (here: returned), keeps it too.
func.func private @host()
func.func @blocked(%m : memref<?xf32>, %v : f32) -> !async.token {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    func.call @host() : () -> ()
    async.yield
  }
  async.await %a : !async.token
  %b = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %c = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %c : !async.token
  return %c : !async.token
}

// -----

// Values: the execute's own results stay first, the gpu tokens are appended
// (the result types are rebuilt, attributes of the old op are dropped as by
// MLIR's builder), and pure host ops after the gpu work do not block it.
func.func @values(%m : memref<?xf32>, %v : f32, %n : index) -> index {
  %a, %r = async.execute -> !async.value<index> attributes {tag = "dropped"} {
    %x = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %x, %m : memref<?xf32>, memref<?xf32>
    %s = arith.addi %n, %n : index
    async.yield %s : index
  }
  %k = async.await %r : !async.value<index>
  async.await %a : !async.token
  %c0 = arith.constant 0 : index
  %l = memref.load %m[%c0] : memref<?xf32>
  return %k : index
}

// -----

// A fork: two executes depend on one; the gpu token it yields is duplicated so
// that each use has its own result (the first user in MLIR's use order keeps
// the original). Their own trailing waits stay (their tokens are not used).
func.func @fork(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %b = async.execute [%a] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %c = async.execute [%a] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %d = async.execute [%a] {
    %z = arith.constant 0.0 : f32
    async.yield
  }
  return
}

// -----

// Pass-through: an execute without gpu work whose dependency is deferred gets
// a gpu.wait before its yield, which is deferred in turn to the await.
func.func @pass_through(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %b = async.execute [%a] {
    async.yield
  }
  %c = async.execute [%b] {
    %z = arith.constant 0.0 : f32
    async.yield
  }
  async.await %c : !async.token
  return
}

// -----

// Two deferred sources into one execute (their tokens join the first gpu op
// of its body), and an await of the same token twice.
func.func @join(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %b = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %c = async.execute [%a, %b] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %c : !async.token
  async.await %c : !async.token
  return
}

// -----

// Executes nested in control flow and in other executes; the host chain
// around them (gpu ops outside) is closed before an execute with effects.
func.func @nested(%m : memref<?xf32>, %v : f32, %n : index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memset %m, %v : memref<?xf32>, f32
  scf.for %i = %c0 to %n step %c1 {
    %a = async.execute {
      gpu.memset %m, %v : memref<?xf32>, f32
      async.yield
    }
    async.await %a : !async.token
  }
  %o = async.execute {
    %i = async.execute {
      gpu.memset %m, %v : memref<?xf32>, f32
      async.yield
    }
    async.await %i : !async.token
    async.yield
  }
  async.await %o : !async.token
  return
}

// -----

// Groups and values around the gpu work: add_to_group uses the token (so no
// deferral there), and the execute with a value operand keeps it first.
func.func @groups(%m : memref<?xf32>, %v : f32, %n : index) {
  %g = async.create_group %n : !async.group
  %a, %r = async.execute -> !async.value<f32> {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield %v : f32
  }
  %i = async.add_to_group %a, %g : !async.token
  %b = async.execute [%a] (%r as %x : !async.value<f32>) {
    gpu.memset %m, %x : memref<?xf32>, f32
    async.yield
  }
  %c, %s = async.execute -> !async.value<f32> {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield %v : f32
  }
  %e = async.execute [%c] (%s as %y : !async.value<f32>) {
    gpu.memset %m, %y : memref<?xf32>, f32
    async.yield
  }
  async.await %e : !async.token
  async.await_all %g
  return
}

// -----

// Executes with gpu work already async, and a body that ends with an async
// gpu.wait (not deferred: only a blocking wait is).
func.func @already_async(%m : memref<?xf32>, %v : f32) -> !gpu.async.token {
  %a, %r = async.execute -> !async.value<!gpu.async.token> {
    %t = gpu.wait async
    %t1 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
    async.yield %t1 : !gpu.async.token
  }
  %b = async.execute [%a] (%r as %t : !async.value<!gpu.async.token>) {
    %t2 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
    %t3 = gpu.wait async [%t2]
    async.yield
  }
  async.await %b : !async.token
  %x = async.await %r : !async.value<!gpu.async.token>
  return %x : !gpu.async.token
}

// -----

// A deferred blocking gpu.wait without dependencies (the execute is rebuilt
// all the same, without its attributes), two tokens deferred at once, a gpu op
// after the await (it takes the token), an await in a branch (the wait moves
// into the branch), and three awaits of one value.
func.func @empty_wait(%m : memref<?xf32>, %v : f32) {
  %a = async.execute attributes {x} {
    gpu.wait
    async.yield
  }
  async.await %a : !async.token
  %c0 = arith.constant 0 : index
  return
}
// -----
func.func @two_results(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    %t = gpu.wait async
    %t1 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
    %t2 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
    gpu.wait [%t1, %t2]
    async.yield
  }
  %b = async.execute [%a] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %a : !async.token
  async.await %b : !async.token
  return
}
// -----
func.func @await_then_gpu(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %a : !async.token
  gpu.memset %m, %v : memref<?xf32>, f32
  return
}
// -----
func.func @cf(%m : memref<?xf32>, %v : f32, %p : i1) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  scf.if %p {
    async.await %a : !async.token
  }
  return
}
// -----
func.func @multi_await(%m : memref<?xf32>, %v : f32) {
  %a, %r = async.execute -> !async.value<!gpu.async.token> {
    %t = gpu.wait async
    %t1 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
    async.yield %t1 : !gpu.async.token
  }
  %x = async.await %r : !async.value<!gpu.async.token>
  %y = async.await %r : !async.value<!gpu.async.token>
  %z = async.await %r : !async.value<!gpu.async.token>
  gpu.wait [%x, %y, %z]
  return
}

// -----

// More users: a token returned and awaited (not deferred), executes in an
// scf.if, a three-level chain, a group, values forked to two executes, an
// execute nested in another one that awaits an outer token.
func.func @mixed(%m : memref<?xf32>, %v : f32) -> !async.token {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %a : !async.token
  return %a : !async.token
}
// -----
func.func @in_if(%m : memref<?xf32>, %v : f32, %p : i1) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  scf.if %p {
    %b = async.execute [%a] {
      gpu.memset %m, %v : memref<?xf32>, f32
      async.yield
    }
    async.await %b : !async.token
  }
  return
}
// -----
func.func @chain3(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %b = async.execute [%a] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %c = async.execute [%a, %b] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %d = async.execute [%c, %a] {
    async.yield
  }
  async.await %d : !async.token
  async.await %a : !async.token
  return
}
// -----
func.func @group(%m : memref<?xf32>, %v : f32, %n : index) {
  %g = async.create_group %n : !async.group
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %i = async.add_to_group %a, %g : !async.token
  async.await_all %g
  return
}
// -----
func.func @values_fork(%m : memref<?xf32>, %v : f32) {
  %a, %r = async.execute -> !async.value<f32> {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield %v : f32
  }
  %b = async.execute [%a] (%r as %x : !async.value<f32>) {
    gpu.memset %m, %x : memref<?xf32>, f32
    async.yield
  }
  %c = async.execute [%a] (%r as %y : !async.value<f32>) {
    gpu.memset %m, %y : memref<?xf32>, f32
    async.yield
  }
  %d = async.execute [%b, %c] {
    async.yield
  }
  async.await %d : !async.token
  %z = async.await %r : !async.value<f32>
  return
}
// -----
func.func @execute_in_execute_deps(%m : memref<?xf32>, %v : f32) {
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %o = async.execute {
    %i = async.execute [%a] {
      gpu.memset %m, %v : memref<?xf32>, f32
      async.yield
    }
    async.await %i : !async.token
    async.await %a : !async.token
    async.yield
  }
  async.await %o : !async.token
  return
}

// -----

// An execute that receives a deferred token first (its operands are
// reallocated), then another one: the order of its uses follows.
func.func @realloc(%m : memref<?xf32>, %v : f32) -> !async.token {
  %z = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %a = async.execute {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %b = async.execute [%a, %z] {
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  async.await %a : !async.token
  return %b : !async.token
}

// -----

// An execute with room for a second appended operand (MLIR grows operand
// storage to the next power of two above capacity + 2): the second append
// does not move its other operands in their use lists.
func.func private @host()
func.func @f(%m : memref<?xf32>, %v : f32, %p : i1) {
  %e0, %r0 = async.execute -> !async.value<f32> {
    gpu.memset %m, %v : memref<?xf32>, f32
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield %v : f32
  }
  %e1, %r1 = async.execute [%e0] -> !async.value<f32> {
    async.yield %v : f32
  }
  async.await %e1 : !async.token
  gpu.memset %m, %v : memref<?xf32>, f32
  %e2 = async.execute [%e1] (%r1 as %x2_0 : !async.value<f32>) {
    %z34879 = arith.constant 1.0 : f32
    async.yield
  }
  %e3 = async.execute [%e0, %e1] (%r0 as %x3_0 : !async.value<f32>) {
    async.yield
  }
  async.await %e0 : !async.token
  async.await %e1 : !async.token
  return
}

// -----

func.func private @host()
func.func @f(%m : memref<?xf32>, %v : f32, %p : i1) {
  %e0, %r0 = async.execute -> !async.value<f32> {
    %z933230 = arith.constant 1.0 : f32
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield %v : f32
  }
  async.await %e0 : !async.token
  %e1 = async.execute [%e0] (%r0 as %x1_0 : !async.value<f32>) {
    gpu.memset %m, %v : memref<?xf32>, f32
    gpu.memset %m, %v : memref<?xf32>, f32
    async.yield
  }
  %e2 = async.execute [%e0, %e1] (%r0 as %x2_0 : !async.value<f32>) {
    %z780927 = arith.constant 1.0 : f32
    async.yield
  }
  gpu.memset %m, %v : memref<?xf32>, f32
  %e3 = async.execute [%e1, %e2] {
    func.call @host() : () -> ()
    async.yield
  }
  async.await %e1 : !async.token
  %w0 = async.await %r0 : !async.value<f32>
  return
}
