// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The async ops in both forms, through xgpu and mlir-opt.
func.func @f(%v: f32, %n: index) -> f32 {
  %t0 = async.execute {
    async.yield
  }
  %t1, %r = async.execute [%t0] -> !async.value<f32> {
    async.yield %v : f32
  }
  %t2, %r2:2 = async.execute [%t0, %t1] (%r as %x: !async.value<f32>) -> (!async.value<f32>, !async.value<index>) attributes {foo = 1} {
    async.yield %x, %n : f32, index
  }
  async.await %t2 : !async.token
  %z = async.await %r2#0 : !async.value<f32>
  %g = async.create_group %n : !async.group
  %rk = async.add_to_group %t1, %g : !async.token
  %rk2 = async.add_to_group %r, %g : !async.value<f32>
  async.await_all %g
  return %z : f32
}

// -----

func.func @shapes(%v: !async.value<i32>, %w: !async.value<memref<?xf32>>, %t: !async.token) {
  %a, %r:3 = async.execute [%t] (%v as %x: !async.value<i32>, %w as %m: !async.value<memref<?xf32>>) -> (!async.value<i32>, !async.value<memref<?xf32>>, !async.value<!gpu.async.token>) {
    %g = gpu.wait async
    async.yield %x, %m, %g : i32, memref<?xf32>, !gpu.async.token
  }
  %b, %f = async.execute -> !async.value<() -> ()> attributes {a, b = "x"} {
    %u = "test.op"() : () -> (() -> ())
    async.yield %u : () -> ()
  }
  %c = async.execute [] () {
    async.yield
  }
  %m2 = async.await %r#1 : !async.value<memref<?xf32>> {tag}
  async.await %a : !async.token
  return
}

// -----

// The runtime and coroutine ops.
func.func @rt(%n: index, %h: !async.coro.handle, %v: f32) {
  %t = async.runtime.create : !async.token
  %val = async.runtime.create {x} : !async.value<f32>
  %g = async.runtime.create_group %n : !async.group
  async.runtime.set_available %t : !async.token
  async.runtime.set_error %val : !async.value<f32>
  %e = async.runtime.is_error %g : !async.group
  async.runtime.await %t : !async.token
  async.runtime.resume %h
  async.runtime.await_and_resume %val, %h : !async.value<f32>
  async.runtime.store %v, %val : !async.value<f32>
  %l = async.runtime.load %val : !async.value<f32>
  %r = async.runtime.add_to_group %t, %g : !async.token
  async.runtime.add_ref %t {count = 2 : i64} : !async.token
  async.runtime.drop_ref %g {count = 1 : i64} : !async.group
  %w = async.runtime.num_worker_threads : index
  %id = async.coro.id
  %hd = async.coro.begin %id
  %s = async.coro.save %hd
  async.coro.end %hd
  async.coro.free %id, %hd
  return
}
// -----
func.func @suspend(%s: !async.coro.state) {
  async.coro.suspend %s, ^bb1, ^bb2, ^bb3
^bb1:
  return
^bb2:
  return
^bb3:
  return
}

// -----

// Async functions and calls.
async.func @f0(%a: i32) -> !async.token {
  return
}
async.func @f1(%a: i32) -> (!async.token, !async.value<i32>) attributes {foo} {
  %b = arith.addi %a, %a : i32
  async.return %b : i32
}
async.func private @decl(i32) -> !async.value<f32>
func.func @main(%x: i32) {
  %t = async.call @f0(%x) : (i32) -> !async.token
  %t2, %v = async.call @f1(%x) {bar} : (i32) -> (!async.token, !async.value<i32>)
  return
}
