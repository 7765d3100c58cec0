// RUN: xgpu-opt -p gpu-async-region --split-input-file --allow-unregistered-dialect %s | filecheck %s
// The output verifies and parses back.
// RUN: xgpu-opt -p gpu-async-region --split-input-file --allow-unregistered-dialect %s | xgpu-opt --split-input-file --allow-unregistered-dialect > /dev/null

// Straight-line host code: `gpu.wait async` starts the chain, each sync op is
// re-created async on the current token (gpu.alloc keeps its memref result
// and name), a pure op leaves the chain open, a side-effecting host op closes
// it with a blocking `gpu.wait`, and so does the terminator.
// CHECK-LABEL: func.func @straight(
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %m, %[[T1:.*]] = gpu.alloc async [%[[T0]]] (%n) : memref<?xf32>
// CHECK-NEXT:    %[[T2:.*]] = gpu.memcpy async [%[[T1]]] %m, %h
// CHECK-NEXT:    %x = arith.addf %v, %v : f32
// CHECK-NEXT:    %[[T3:.*]] = gpu.memset async [%[[T2]]] %m, %x
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    func.call @host(%h)
// CHECK-NEXT:    %[[T4:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T5:.*]] = gpu.dealloc async [%[[T4]]] %m
// CHECK-NEXT:    gpu.wait [%[[T5]]]
// CHECK-NEXT:    func.return
func.func private @host(memref<?xf32>)
func.func @straight(%n: index, %h: memref<?xf32>, %v: f32) {
  %m = gpu.alloc (%n) : memref<?xf32>
  gpu.memcpy %m, %h : memref<?xf32>, memref<?xf32>
  %x = arith.addf %v, %v : f32
  gpu.memset %m, %x : memref<?xf32>, f32
  func.call @host(%h) : (memref<?xf32>) -> ()
  gpu.dealloc %m : memref<?xf32>
  return
}

// -----

// Async ops join the chain: the current token goes first in their
// dependencies (not twice); a `gpu.wait async` continues the chain, a
// blocking `gpu.wait` ends it, and nothing is inserted before the memref.load
// that follows.
// CHECK-LABEL: func.func @existing(
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %m, %t1 = gpu.alloc async [%[[T0]], %t] (%n)
// CHECK-NEXT:    %t2 = gpu.memcpy async [%t1] %m, %h
// CHECK-NEXT:    %t3 = gpu.wait async [%t2, %t]
// CHECK-NEXT:    %[[T4:.*]] = gpu.dealloc async [%t3] %m
// CHECK-NEXT:    gpu.wait [%[[T4]], %t3]
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %l = memref.load %h[%c0]
// CHECK-NEXT:    func.return
func.func @existing(%n: index, %h: memref<?xf32>, %t: !gpu.async.token) {
  %m, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  %t2 = gpu.memcpy async [%t1] %m, %h : memref<?xf32>, memref<?xf32>
  %t3 = gpu.wait async [%t]
  gpu.dealloc %m : memref<?xf32>
  gpu.wait [%t3]
  %c0 = arith.constant 0 : index
  %l = memref.load %h[%c0] : memref<?xf32>
  return
}

// -----

// Region bodies get chains of their own, closed before their terminator; a
// loop with a pure body does not close the outer chain, one holding gpu ops
// does.
// CHECK-LABEL: func.func @regions(
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.memset async [%[[T0]]] %h, %v
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      arith.addi
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[L0:.*]] = gpu.wait async
// CHECK-NEXT:      %[[L1:.*]] = gpu.memset async [%[[L0]]] %h, %v
// CHECK-NEXT:      gpu.wait [%[[L1]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      %[[I0:.*]] = gpu.wait async
// CHECK-NEXT:      %[[I1:.*]] = gpu.memset async [%[[I0]]] %h, %v
// CHECK-NEXT:      gpu.wait [%[[I1]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @regions(%n: index, %h: memref<?xf32>, %v: f32, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.memset %h, %v : memref<?xf32>, f32
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.addi %i, %i : index
  }
  scf.for %i = %c0 to %n step %c1 {
    gpu.memset %h, %v : memref<?xf32>, f32
  }
  scf.if %c {
    gpu.memset %h, %v : memref<?xf32>, f32
  }
  return
}

// -----

// Each cf block has its own chain, closed before its branch.
// CHECK-LABEL: func.func @blocks(
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.memset async [%[[T0]]] %h, %v
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    cf.cond_br %c, ^[[BB1:.*]], ^[[BB2:.*]]
// CHECK-NEXT:  ^[[BB1]]:
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T3:.*]] = gpu.memset async [%[[T2]]] %h, %v
// CHECK-NEXT:    gpu.wait [%[[T3]]]
// CHECK-NEXT:    cf.br ^[[BB2]]
// CHECK-NEXT:  ^[[BB2]]:
// CHECK-NEXT:    func.return
func.func @blocks(%h: memref<?xf32>, %v: f32, %c: i1) {
  gpu.memset %h, %v : memref<?xf32>, f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  gpu.memset %h, %v : memref<?xf32>, f32
  cf.br ^bb2
^bb2:
  return
}

// -----

// No gpu op, no change.
// CHECK-LABEL: func.func @no_gpu(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    memref.store %v, %h[%c0]
// CHECK-NEXT:    func.return
func.func @no_gpu(%h: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  memref.store %v, %h[%c0] : memref<?xf32>
  return
}

// -----

// Only the funcs of the top-level module are visited.
// CHECK-LABEL: builtin.module @inner
// CHECK-NEXT:    func.func @skipped(
// CHECK-NEXT:      gpu.dealloc {{ +}}%m : memref<?xf32>
builtin.module {
  builtin.module @inner {
    func.func @skipped(%m: memref<?xf32>) {
      gpu.dealloc %m : memref<?xf32>
      return
    }
  }
}

// -----

// An async.execute whose token is not awaited (read in generic form, printed
// in MLIR's custom form): its body gets a chain; its effects are those of its
// body; nothing is deferred (the tokens are returned).
// CHECK-LABEL: func.func @execute(
// CHECK-NEXT:    %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T1:.*]] = gpu.memset async [%[[T0]]] %m, %v
// CHECK-NEXT:    %e = async.execute {
// CHECK-NEXT:      async.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.wait [%[[T1]]]
// CHECK-NEXT:    %a = async.execute {
// CHECK-NEXT:      %[[A0:.*]] = gpu.wait async
// CHECK-NEXT:      %[[A1:.*]] = gpu.memset async [%[[A0]]] %m, %v
// CHECK-NEXT:      gpu.wait [%[[A1]]]
// CHECK-NEXT:      async.yield
func.func @execute(%m: memref<?xf32>, %v: f32) -> (!async.token, !async.token) {
  gpu.memset %m, %v : memref<?xf32>, f32
  %e = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> !async.token
  %a = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    gpu.memset %m, %v : memref<?xf32>, f32
    "async.yield"() : () -> ()
  }) : () -> !async.token
  return %a, %e : !async.token, !async.token
}
