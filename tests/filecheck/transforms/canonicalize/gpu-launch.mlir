// RUN: xgpu-opt -p canonicalize --split-input-file %s | filecheck %s

// FoldLaunchArguments: a block (thread) id whose grid (block) size is the
// constant 1 is replaced by a constant 0, created in the body and hoisted to
// the function's entry block; the size arguments are left alone.

// CHECK-LABEL: func.func @fold_ids(
// CHECK-SAME:      %[[N:[^:]*]]: index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch blocks(%[[BX:[^ ,)]*]], %{{[^ ,)]*}}, %{{[^ ,)]*}}) in (%[[GX:[^ ,)]*]] = %[[N]], %[[GY:[^ ,)]*]] = %[[C1]], %{{[^ ,)]*}} = %[[C1]]) threads(%{{[^ ,)]*}}, %[[TY:[^ ,)]*]], %{{[^ ,)]*}}) in (%[[SX:[^ ,)]*]] = %[[C1]], %{{[^ ,)]*}} = %[[N]], %{{[^ ,)]*}} = %[[C1]]) {
// CHECK-NEXT:      func.call @use(%[[BX]], %[[C0]], %[[C0]], %[[C0]], %[[TY]], %[[C0]], %[[GX]], %[[GY]], %[[SX]])
// CHECK-NEXT:      gpu.terminator
func.func private @use(index, index, index, index, index, index, index, index, index)
func.func @fold_ids(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %c1) {
    func.call @use(%bx, %by, %bz, %tx, %ty, %tz, %gx, %gy, %sx) : (index, index, index, index, index, index, index, index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// No size is 1: nothing changes.
// CHECK-LABEL: func.func @no_fold(
// CHECK-NEXT:    arith.constant 2 : index
// CHECK-NEXT:    gpu.launch blocks(%[[BX:[^ ,)]*]], %[[BY:[^ ,)]*]], %[[BZ:[^ ,)]*]]) in ({{.*}}) threads(%[[TX:[^ ,)]*]], %[[TY:[^ ,)]*]], %[[TZ:[^ ,)]*]]) in ({{.*}}) {
// CHECK-NEXT:      func.call @use(%[[BX]], %[[BY]], %[[BZ]], %[[TX]], %[[TY]], %[[TZ]])
func.func private @use(index, index, index, index, index, index)
func.func @no_fold(%n: index) {
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c2, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %n, %sz = %n) {
    func.call @use(%bx, %by, %bz, %tx, %ty, %tz) : (index, index, index, index, index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// Sizes of 1 but the ids are unused: no constant is created.
// CHECK-LABEL: func.func @unused_ids(
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    gpu.launch blocks({{.*}}) in (%[[GX:[^ ]*]] = %[[C1]], {{.*}}) threads
// CHECK-NEXT:      func.call @use(%[[GX]]) : (index) -> ()
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     arith.constant
func.func private @use(index)
func.func @unused_ids(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    func.call @use(%gx) : (index) -> ()
    gpu.terminator
  }
  return
}

// -----

// An async launch nested in a loop, with an id used in a nested region: the
// zero constant goes to the function's entry block, merged with the one there.
// CHECK-LABEL: func.func @nested(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %{{.*}} = scf.for %[[I:.*]] = %[[C0]] to
// CHECK-NEXT:      %{{[^ ,)]*}} = gpu.launch async
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          func.call @use(%[[C0]]) : (index) -> ()
// CHECK-NEXT:        }
// CHECK-NEXT:        func.call @use(%[[C0]]) : (index) -> ()
// CHECK-NEXT:        func.call @use(%[[I]]) : (index) -> ()
// CHECK-NEXT:        gpu.terminator
func.func private @use(index)
func.func @nested(%n: index, %t: !gpu.async.token, %c: i1) -> !gpu.async.token {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tok = %t) -> (!gpu.async.token) {
    %t2 = gpu.launch async [%tok] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %n, %gz = %n)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %c1) {
      scf.if %c {
        func.call @use(%bx) : (index) -> ()
      }
      func.call @use(%tz) : (index) -> ()
      func.call @use(%i) : (index) -> ()
      gpu.terminator
    }
    scf.yield %t2 : !gpu.async.token
  }
  return %r : !gpu.async.token
}

// -----

// Cluster sizes of 1 do not matter, only grid and block sizes.
// CHECK-LABEL: func.func @clusters(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    gpu.launch clusters(%[[CX:[^ ,)]*]], %{{[^ ,)]*}}, %{{[^ ,)]*}}) in ({{.*}}) blocks(%[[BX:[^ ,)]*]], %{{[^ ,)]*}}, %{{[^ ,)]*}}) in
// CHECK-NEXT:      func.call @use(%[[CX]], %[[BX]], %[[C0]])
func.func private @use(index, index, index)
func.func @clusters(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ux = %c1, %uy = %c1, %uz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %n) {
    func.call @use(%cx, %bx, %tx) : (index, index, index) -> ()
    gpu.terminator
  }
  return
}
