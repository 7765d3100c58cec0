// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @runtime
func.func @runtime(%n: index, %h: !async.coro.handle, %v: f32) {
  // CHECK-NEXT: %t = async.runtime.create : !async.token
  // GENERIC: "async.runtime.create"() : () -> !async.token
  %t = async.runtime.create : !async.token
  // CHECK-NEXT: %val = async.runtime.create {x} : !async.value<f32>
  %val = async.runtime.create {x} : !async.value<f32>
  // CHECK-NEXT: %g = async.runtime.create_group %n : !async.group
  // GENERIC: "async.runtime.create_group"(%{{.*}}) : (index) -> !async.group
  %g = async.runtime.create_group %n : !async.group
  // CHECK-NEXT: async.runtime.set_available %t : !async.token
  async.runtime.set_available %t : !async.token
  // CHECK-NEXT: async.runtime.set_error %val : !async.value<f32>
  async.runtime.set_error %val : !async.value<f32>
  // CHECK-NEXT: %e = async.runtime.is_error %g : !async.group
  // GENERIC: "async.runtime.is_error"(%{{.*}}) : (!async.group) -> i1
  %e = async.runtime.is_error %g : !async.group
  // CHECK-NEXT: async.runtime.await %t : !async.token
  async.runtime.await %t : !async.token
  // CHECK-NEXT: async.runtime.resume %h
  async.runtime.resume %h
  // CHECK-NEXT: async.runtime.await_and_resume %val, %h : !async.value<f32>
  async.runtime.await_and_resume %val, %h : !async.value<f32>
  // The storage type prints stripped, as MLIR prints a type of a known kind.
  // CHECK-NEXT: async.runtime.store %v, %val : <f32>
  // GENERIC: "async.runtime.store"(%{{.*}}, %{{.*}}) : (f32, !async.value<f32>) -> ()
  async.runtime.store %v, %val : !async.value<f32>
  // CHECK-NEXT: %l = async.runtime.load %val : <f32>
  // GENERIC: "async.runtime.load"(%{{.*}}) : (!async.value<f32>) -> f32
  %l = async.runtime.load %val : <f32>
  // CHECK-NEXT: %r = async.runtime.add_to_group %t, %g : !async.token
  %r = async.runtime.add_to_group %t, %g : !async.token
  // CHECK-NEXT: async.runtime.add_ref %t {count = 2 : i64} : !async.token
  // GENERIC: "async.runtime.add_ref"(%{{.*}}) <{count = 2 : i64}> : (!async.token) -> ()
  async.runtime.add_ref %t {count = 2} : !async.token
  // CHECK-NEXT: async.runtime.drop_ref %g {count = 1 : i64} : !async.group
  async.runtime.drop_ref %g {count = 1 : i64} : !async.group
  // CHECK-NEXT: %w = async.runtime.num_worker_threads : index
  %w = async.runtime.num_worker_threads : index
  // CHECK-NEXT: %id = async.coro.id
  // GENERIC: "async.coro.id"() : () -> !async.coro.id
  %id = async.coro.id
  // CHECK-NEXT: %hd = async.coro.begin %id
  %hd = async.coro.begin %id
  // CHECK-NEXT: %s = async.coro.save %hd
  // GENERIC: "async.coro.save"(%{{.*}}) : (!async.coro.handle) -> !async.coro.state
  %s = async.coro.save %hd
  // CHECK-NEXT: async.coro.end %hd
  async.coro.end %hd
  // CHECK-NEXT: async.coro.free %id, %hd
  async.coro.free %id, %hd
  // CHECK-NEXT: async.coro.suspend %s, ^bb1, ^bb2, ^bb3
  // (xgpu's generic printer puts a space before the successors; mlir-opt does not.)
  // GENERIC: "async.coro.suspend"(%{{.*}}){{ ?}}[^bb1, ^bb2, ^bb3] : (!async.coro.state) -> ()
  async.coro.suspend %s, ^bb1, ^bb2, ^bb3
^bb1:
  return
^bb2:
  return
^bb3:
  return
}
