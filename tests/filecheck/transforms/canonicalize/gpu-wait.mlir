// RUN: xgpu-opt -p canonicalize --split-input-file %s | filecheck %s

// The canonicalization patterns of gpu.wait (EraseRedundantGpuWaitOpPairs,
// then SimplifyGpuWaitOp), as mlir-opt 22 applies them.

// A token of `gpu.wait async` without dependencies is dropped from the
// dependencies of a wait, but not from those of another async op.
// CHECK-LABEL: func.func @pairs(
// CHECK-SAME:      %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[W:.*]] = gpu.wait async{{$}}
// CHECK-NEXT:    %{{.*}}, %[[T1:.*]] = gpu.alloc async [%[[W]], %[[T]]] () : memref<4xf32>
// CHECK-NEXT:    gpu.wait [%[[T1]]]{{$}}
// CHECK-NEXT:    func.return
func.func @pairs(%t: !gpu.async.token) {
  %0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%0, %t] () : memref<4xf32>
  gpu.wait [%0, %t1]
  return
}

// -----

// An async wait on a single token is that token.
// CHECK-LABEL: func.func @forward(
// CHECK-SAME:      %[[T0:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[T0]] : !gpu.async.token
func.func @forward(%t0: !gpu.async.token) -> !gpu.async.token {
  %t1 = gpu.wait async [%t0]
  return %t1 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @forward_chain(
// CHECK-SAME:      %[[T0:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[T0]] : !gpu.async.token
func.func @forward_chain(%t0: !gpu.async.token) -> !gpu.async.token {
  %t1 = gpu.wait async [%t0]
  %t2 = gpu.wait async [%t1]
  %t3 = gpu.wait async [%t2]
  return %t3 : !gpu.async.token
}

// -----

// An async wait whose token is unused is erased, whatever its dependencies.
// CHECK-LABEL: func.func @unused(
// CHECK-NEXT:    func.return
func.func @unused(%a: !gpu.async.token, %b: !gpu.async.token) {
  %t = gpu.wait async [%a, %b]
  return
}

// -----

// A join of two tokens that is used is kept.
// CHECK-LABEL: func.func @join(
// CHECK-SAME:      %[[A:[^:]*]]: !gpu.async.token, %[[B:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[J:.*]] = gpu.wait async [%[[A]], %[[B]]]
// CHECK-NEXT:    func.return %[[J]] : !gpu.async.token
func.func @join(%a: !gpu.async.token, %b: !gpu.async.token) -> !gpu.async.token {
  %t = gpu.wait async [%a, %b]
  return %t : !gpu.async.token
}

// -----

// A blocking wait on nothing is erased.
// CHECK-LABEL: func.func @noop(
// CHECK-NEXT:    func.return
func.func @noop() {
  gpu.wait
  gpu.wait []
  return
}

// -----

// Blocking waits on tokens are kept.
// CHECK-LABEL: func.func @sync_kept(
// CHECK-SAME:      %[[A:[^:]*]]: !gpu.async.token, %[[B:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    gpu.wait [%[[A]]]
// CHECK-NEXT:    gpu.wait [%[[A]], %[[B]]]
// CHECK-NEXT:    func.return
func.func @sync_kept(%a: !gpu.async.token, %b: !gpu.async.token) {
  gpu.wait [%a]
  gpu.wait [%a, %b]
  return
}

// -----

// The pairs pattern runs first: %1 loses %0 (and stays an async wait, now
// without dependencies), then %0 is unused and erased.
// CHECK-LABEL: func.func @fold_order(
// CHECK-NEXT:    %[[W:.*]] = gpu.wait async{{$}}
// CHECK-NEXT:    func.return %[[W]] : !gpu.async.token
func.func @fold_order() -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async [%0]
  return %1 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @fold_all(
// CHECK-NEXT:    func.return
func.func @fold_all() {
  %1 = gpu.wait async
  gpu.wait []
  %3 = gpu.wait async
  gpu.wait [%3]
  return
}

// -----

// A fresh token used by another async op is kept.
// CHECK-LABEL: func.func @fresh_token_used(
// CHECK-NEXT:    %[[W:.*]] = gpu.wait async{{$}}
// CHECK-NEXT:    %{{.*}}, %[[T:.*]] = gpu.alloc async [%[[W]]] () : memref<4xf32>
// CHECK-NEXT:    func.return %[[T]] : !gpu.async.token
func.func @fresh_token_used() -> !gpu.async.token {
  %0 = gpu.wait async
  %m, %t = gpu.alloc async [%0] () : memref<4xf32>
  return %t : !gpu.async.token
}

// -----

// Dropping the fresh tokens leaves a single dependency, which is forwarded.
// CHECK-LABEL: func.func @join_partial(
// CHECK-SAME:      %[[A:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[A]] : !gpu.async.token
func.func @join_partial(%a: !gpu.async.token) -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async [%a, %0]
  return %1 : !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @join_two_fresh(
// CHECK-SAME:      %[[A:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    func.return %[[A]] : !gpu.async.token
func.func @join_two_fresh(%a: !gpu.async.token) -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async
  %2 = gpu.wait async [%0, %a, %1]
  return %2 : !gpu.async.token
}

// -----

// Waits in nested regions.
// CHECK-LABEL: func.func @nested(
// CHECK-SAME:      %[[C:[^:]*]]: i1, %[[A:[^:]*]]: !gpu.async.token, %[[M:[^:]*]]: memref<4xf32>, %[[V:[^:]*]]: f32
// CHECK-NEXT:    scf.if %[[C]] {
// CHECK-NEXT:      %[[S:.*]] = gpu.memset async [%[[A]]] %[[M]], %[[V]] : memref<4xf32>, f32
// CHECK-NEXT:      gpu.wait [%[[S]]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      gpu.wait [%[[A]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
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
