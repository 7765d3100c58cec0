// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @execute
func.func @execute(%v: f32, %n: index, %w: !async.value<i32>) -> f32 {
  // A body with neither dependencies nor values: only the token.
  // CHECK-NEXT: %t0 = async.execute {
  // CHECK-NEXT:   async.yield
  // CHECK-NEXT: }
  // GENERIC: %{{.*}} = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
  // GENERIC-NEXT: "async.yield"() : () -> ()
  // GENERIC-NEXT: }) : () -> !async.token
  %t0 = async.execute {
    async.yield
  }
  // One dependency, one value result (a single type: no parentheses).
  // CHECK-NEXT: %t1, %r = async.execute [%t0] -> !async.value<f32> {
  // CHECK-NEXT:   async.yield %v : f32
  // CHECK-NEXT: }
  // GENERIC: "async.execute"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0>}> ({
  // GENERIC-NEXT: "async.yield"(%{{.*}}) : (f32) -> ()
  // GENERIC-NEXT: }) : (!async.token) -> (!async.token, !async.value<f32>)
  %t1, %r = async.execute [%t0] -> !async.value<f32> {
    async.yield %v : f32
  }
  // Two dependencies, values unwrapped into the body, two results, attributes.
  // CHECK-NEXT: %t2, %r2:2 = async.execute [%t0, %t1] (%r as %x: !async.value<f32>, %w as %y: !async.value<i32>) -> (!async.value<f32>, !async.value<index>) attributes {foo = 1 : i64} {
  // CHECK-NEXT:   async.yield %x, %n : f32, index
  // CHECK-NEXT: }
  // GENERIC: "async.execute"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 2>}> ({
  // GENERIC-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32):
  // GENERIC: }) {foo = 1 : i64} : (!async.token, !async.token, !async.value<f32>, !async.value<i32>) -> (!async.token, !async.value<f32>, !async.value<index>)
  %t2, %r2:2 = async.execute [%t0, %t1] (%r as %x: !async.value<f32>, %w as %y: !async.value<i32>) -> (!async.value<f32>, !async.value<index>) attributes {foo = 1} {
    async.yield %x, %n : f32, index
  }
  // A function type inside the value type takes no parentheses.
  // CHECK-NEXT: %t3, %f = async.execute -> !async.value<() -> ()> {
  %t3, %f = async.execute -> (!async.value<() -> ()>) {
    %u = "test.op"() : () -> (() -> ())
    async.yield %u : () -> ()
  }
  // CHECK: async.await %t2 : !async.token
  // GENERIC: "async.await"(%{{.*}}) : (!async.token) -> ()
  async.await %t2 : !async.token
  // CHECK-NEXT: %z = async.await %r2#0 : !async.value<f32>
  // GENERIC: "async.await"(%{{.*}}) : (!async.value<f32>) -> f32
  %z = async.await %r2#0 : !async.value<f32>
  // CHECK-NEXT: %z1 = async.await %r2#1 : !async.value<index> {tag}
  %z1 = async.await %r2#1 : !async.value<index> {tag}
  return %z : f32
}

// CHECK-LABEL: func.func @groups
func.func @groups(%n: index, %t: !async.token, %v: !async.value<f32>) {
  // CHECK-NEXT: %g = async.create_group %n : !async.group
  // GENERIC: "async.create_group"(%{{.*}}) : (index) -> !async.group
  %g = async.create_group %n : !async.group
  // CHECK-NEXT: %i = async.add_to_group %t, %g : !async.token
  // GENERIC: "async.add_to_group"(%{{.*}}, %{{.*}}) : (!async.token, !async.group) -> index
  %i = async.add_to_group %t, %g : !async.token
  // CHECK-NEXT: %j = async.add_to_group %v, %g : !async.value<f32>
  %j = async.add_to_group %v, %g : !async.value<f32>
  // CHECK-NEXT: async.await_all %g
  // GENERIC: "async.await_all"(%{{.*}}) : (!async.group) -> ()
  async.await_all %g
  return
}
