// RUN: xgpu-opt -p gpu-async-simplify --split-input-file --allow-unregistered-dialect %s | filecheck %s
// The result is a fixed point and still verifies.
// RUN: xgpu-opt -p gpu-async-simplify --split-input-file --allow-unregistered-dialect %s | xgpu-opt -p gpu-async-simplify --split-input-file --allow-unregistered-dialect | filecheck %s

// Rule 1: duplicates go, and so does a dependency that another one implies
// (the op producing %b depends on %a).
// CHECK-LABEL: func.func @reduce(
// CHECK-NEXT:    %b = gpu.memcpy async [%a] %m, %m
// CHECK-NEXT:    %c = gpu.memset async [%b] %m, %v
// CHECK-NEXT:    %d = gpu.memset async [%a, %t] %m, %v
// CHECK-NEXT:    func.return %c, %d
func.func @reduce(%a: !gpu.async.token, %t: !gpu.async.token, %m: memref<4xf32>, %v: f32) -> (!gpu.async.token, !gpu.async.token) {
  %b = gpu.memcpy async [%a, %a] %m, %m : memref<4xf32>, memref<4xf32>
  %c = gpu.memset async [%a, %b, %a] %m, %v : memref<4xf32>, f32
  // Independent tokens: both stay.
  %d = gpu.memset async [%a, %t] %m, %v : memref<4xf32>, f32
  return %c, %d : !gpu.async.token, !gpu.async.token
}

// -----

// Implication goes through joins, and a join is implied when each of its
// dependencies is; the join left without users is erased.
// CHECK-LABEL: func.func @joins(
// CHECK-NEXT:    %x = gpu.memset async [%a] %m, %v
// CHECK-NEXT:    %y = gpu.memset async [%b] %m, %v
// CHECK-NEXT:    %z = gpu.memset async [%x, %y] %m, %v
// CHECK-NEXT:    func.return %z
func.func @joins(%a: !gpu.async.token, %b: !gpu.async.token, %m: memref<4xf32>, %v: f32) -> !gpu.async.token {
  %j = gpu.wait async [%a, %b]
  %x = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  %y = gpu.memset async [%b] %m, %v : memref<4xf32>, f32
  %z = gpu.memset async [%j, %x, %y, %a] %m, %v : memref<4xf32>, f32
  return %z : !gpu.async.token
}

// -----

// Loop-carried tokens are opaque: %acc may or may not stand for %a's work.
// CHECK-LABEL: func.func @loop_carried(
// CHECK:         gpu.memset async [%acc, %a]
// CHECK:         gpu.memset async [%r, %a]
func.func @loop_carried(%a: !gpu.async.token, %m: memref<4xf32>, %v: f32, %n: index) -> !gpu.async.token {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (!gpu.async.token) {
    %x = gpu.memset async [%acc, %a] %m, %v : memref<4xf32>, f32
    scf.yield %x : !gpu.async.token
  }
  %z = gpu.memset async [%r, %a] %m, %v : memref<4xf32>, f32
  return %z : !gpu.async.token
}

// -----

// Rule 2: a join used only by a blocking wait is folded into it; adjacent
// blocking waits merge (side-effect-free ops between them do not matter).
// CHECK-LABEL: func.func @fold_and_merge(
// CHECK-NEXT:    %c3 = arith.constant 3 : index
// CHECK-NEXT:    gpu.wait [%a, %b, %c]
// CHECK-NEXT:    func.return
func.func @fold_and_merge(%a: !gpu.async.token, %b: !gpu.async.token, %c: !gpu.async.token) {
  %j = gpu.wait async [%b, %c]
  gpu.wait [%a]
  %c3 = arith.constant 3 : index
  gpu.wait [%j]
  return
}

// -----

// Negative cases: a join with another user, and waits separated by host work.
// CHECK-LABEL: func.func @no_fold_no_merge(
// CHECK-NEXT:    %j = gpu.wait async [%a, %b]
// CHECK-NEXT:    gpu.wait [%j]
// CHECK-NEXT:    "test.observe"
// CHECK-NEXT:    gpu.wait [%c]
// CHECK-NEXT:    func.return %j
func.func @no_fold_no_merge(%a: !gpu.async.token, %b: !gpu.async.token, %c: !gpu.async.token) -> !gpu.async.token {
  %j = gpu.wait async [%a, %b]
  gpu.wait [%j]
  "test.observe"() : () -> ()
  gpu.wait [%c]
  return %j : !gpu.async.token
}

// -----

// Rule 3: a blocking wait completes its dependencies and all they depend on;
// later ops of the block (and of regions nested in it) drop them. A wait that
// has nothing left to wait for is erased.
// CHECK-LABEL: func.func @completed_by_wait(
// CHECK-NEXT:    %b = gpu.memset async [%a] %m, %v
// CHECK-NEXT:    gpu.wait [%b]
// CHECK-NEXT:    %x = gpu.memset async %m, %v
// CHECK-NEXT:    %y = gpu.memset async [%t] %m, %v
// CHECK-NEXT:    scf.if %cond {
// CHECK-NEXT:      %z = gpu.memset async %m, %v
// CHECK:         func.return
func.func @completed_by_wait(%a: !gpu.async.token, %t: !gpu.async.token, %m: memref<4xf32>, %v: f32, %cond: i1) {
  %b = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  gpu.wait [%b]
  %x = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  %y = gpu.memset async [%b, %t] %m, %v : memref<4xf32>, f32
  gpu.wait [%a]
  scf.if %cond {
    %z = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  }
  return
}

// -----

// A synchronous op completes its own dependencies (and what they depend on)
// and itself, not other work.
// CHECK-LABEL: func.func @completed_by_sync_op(
// CHECK-NEXT:    %b = gpu.memset async [%a] %m, %v
// CHECK-NEXT:    gpu.memcpy [%b] %m, %m
// CHECK-NEXT:    gpu.memcpy %m, %m
// CHECK-NEXT:    %x = gpu.memset async [%t] %m, %v
// CHECK-NEXT:    func.return %x
func.func @completed_by_sync_op(%a: !gpu.async.token, %t: !gpu.async.token, %m: memref<4xf32>, %v: f32) -> !gpu.async.token {
  %b = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  gpu.memcpy [%b] %m, %m : memref<4xf32>, memref<4xf32>
  gpu.memcpy %m, %m : memref<4xf32>, memref<4xf32>
  %x = gpu.memset async [%a, %t] %m, %v : memref<4xf32>, f32
  return %x : !gpu.async.token
}

// -----

// A wait on one branch of an scf.if completes nothing after the if; a wait
// in a loop body completes nothing after the loop (it may run zero times)
// but does in the rest of the body.
// CHECK-LABEL: func.func @regions(
// CHECK:         scf.if %cond {
// CHECK-NEXT:      gpu.wait [%a]
// CHECK-NEXT:    }
// CHECK-NEXT:    %x = gpu.memset async [%a] %m, %v
// CHECK:         scf.for
// CHECK-NEXT:      %y = gpu.memset async [%b] %m, %v
// CHECK-NEXT:      gpu.wait [%b]
// CHECK-NEXT:      %w = gpu.memset async %m, %v
// CHECK-NEXT:    }
// CHECK-NEXT:    %z = gpu.memset async [%b] %m, %v
func.func @regions(%a: !gpu.async.token, %b: !gpu.async.token, %m: memref<4xf32>, %v: f32, %cond: i1, %n: index) -> (!gpu.async.token, !gpu.async.token) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.if %cond {
    gpu.wait [%a]
  }
  %x = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  scf.for %i = %c0 to %n step %c1 {
    %y = gpu.memset async [%b] %m, %v : memref<4xf32>, f32
    gpu.wait [%b]
    %w = gpu.memset async [%b] %m, %v : memref<4xf32>, f32
  }
  %z = gpu.memset async [%b] %m, %v : memref<4xf32>, f32
  return %x, %z : !gpu.async.token, !gpu.async.token
}

// -----

// Rule 4: a token that stands for no work (a gpu.wait async without
// dependencies) is dropped from waits and when another dependency remains;
// an op keeps it as its only dependency (its stream, for gpu-to-llvm).
// CHECK-LABEL: func.func @no_work(
// CHECK-NEXT:    %s = gpu.wait async
// CHECK-NEXT:    %m, %x = gpu.alloc async [%s] ()
// CHECK-NEXT:    %y = gpu.memset async [%x] %m, %v
// CHECK-NEXT:    gpu.wait [%y]
// CHECK-NEXT:    func.return
func.func @no_work(%v: f32) {
  %s = gpu.wait async
  %m, %x = gpu.alloc async [%s] () : memref<4xf32>
  %y = gpu.memset async [%s, %x] %m, %v : memref<4xf32>, f32
  gpu.wait [%s]
  gpu.wait [%y, %s]
  return
}

// -----

// The forum program's pattern: an alias join, then waits.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %t0 = gpu.wait async
// CHECK-NEXT:    %buf, %t1 = gpu.alloc async [%t0] (%n)
// CHECK-NEXT:    %t2 = gpu.memcpy async [%t1] %buf, %host
// CHECK-NEXT:    %t3 = gpu.launch_func async [%t2] @kernels::@k
// CHECK-NEXT:    %t4 = gpu.wait async [%t3]
// CHECK-NEXT:    %t5 = gpu.launch_func async [%t4] @kernels::@k
// CHECK-NEXT:    gpu.wait [%t5]
// CHECK-NEXT:    func.return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @chain(%n: index, %host: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %buf, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1, %t0] %buf, %host : memref<?xf32>, memref<?xf32>
    %t3 = gpu.launch_func async [%t2, %t1] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<?xf32>)
    %t4 = gpu.wait async [%t3]
    %t5 = gpu.launch_func async [%t4, %t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<?xf32>)
    %t6 = gpu.wait async [%t5, %t4]
    gpu.wait [%t6]
    gpu.wait [%t3]
    return
  }
}
