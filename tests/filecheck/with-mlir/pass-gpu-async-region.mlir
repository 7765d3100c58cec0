// RUN: %mlir-diff --pass gpu-async-region %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-async-region' %s

// Straight-line host code: the first gpu op starts a chain with
// `gpu.wait async`, each sync op becomes async on the previous token, pure
// host ops (arith) leave the chain alone, and a side-effecting host op
// (func.call, memref.load/store, memref.alloc) or the terminator closes it
// with a blocking `gpu.wait`.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func private @host(memref<?xf32>)
  func.func @straight(%n: index, %h: memref<?xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    %m = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %m, %h : memref<?xf32>, memref<?xf32>
    gpu.memset %m, %v : memref<?xf32>, f32
    %x = arith.muli %n, %c1 : index
    gpu.launch_func @kernels::@k blocks in (%x, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    gpu.memcpy %h, %m : memref<?xf32>, memref<?xf32>
    func.call @host(%h) : (memref<?xf32>) -> ()
    gpu.dealloc %m : memref<?xf32>
    %l = memref.load %h[%c1] : memref<?xf32>
    gpu.memset %h, %l : memref<?xf32>, f32
    memref.store %v, %h[%c1] : memref<?xf32>
    %s = gpu.alloc host_shared (%n) : memref<?xf32>
    %a = memref.alloc(%n) : memref<?xf32>
    gpu.dealloc %s : memref<?xf32>
    return
  }
}

// -----

// A function without gpu ops is left alone, side effects or not.
func.func private @host(memref<?xf32>)
func.func @no_gpu(%h: memref<?xf32>, %v: f32) -> f32 {
  %c0 = arith.constant 0 : index
  memref.store %v, %h[%c0] : memref<?xf32>
  func.call @host(%h) : (memref<?xf32>) -> ()
  %l = memref.load %h[%c0] : memref<?xf32>
  return %l : f32
}

// -----

// Ops that are already async join the chain (the current token goes first
// in their dependencies, once); a `gpu.wait async` join takes the current
// token too and its token continues the chain; a blocking `gpu.wait` ends it
// and the next gpu op starts a new one.
func.func @existing(%n: index, %h: memref<?xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  %m, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  gpu.memcpy %m, %h : memref<?xf32>, memref<?xf32>
  %t2 = gpu.memcpy async %h, %m : memref<?xf32>, memref<?xf32>
  %t3 = gpu.wait async [%t]
  gpu.dealloc %m : memref<?xf32>
  gpu.wait [%t3]
  gpu.wait
  %m2 = gpu.alloc (%n) : memref<?xf32>
  %t4 = gpu.wait async
  %t5 = gpu.dealloc async [%t4] %m2 : memref<?xf32>
  return %t5 : !gpu.async.token
}

// -----

// A chain that starts with the program's own `gpu.wait async`, and a sync op
// that already has dependencies (they stay, after the current token).
func.func @own_start(%n: index, %h: memref<?xf32>, %u: !gpu.async.token, %v: f32) {
  %t0 = gpu.wait async
  gpu.memset [%u] %h, %v : memref<?xf32>, f32
  %m = gpu.alloc [%u, %t0] (%n) : memref<?xf32>
  gpu.memcpy [%t0] %m, %h : memref<?xf32>, memref<?xf32>
  return
}

// -----

// Region bodies get their own chains, closed before their terminators
// (scf.yield included); the op holding them counts as side-effecting when a
// body has effects (the gpu ops or waits put there), so the outer chain is
// closed before it. Loops and ifs with pure bodies do not close it.
func.func @regions(%n: index, %h: memref<?xf32>, %v: f32, %c: i1) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = gpu.alloc (%n) : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
    gpu.memset %m, %v : memref<?xf32>, f32
    %a = arith.addi %acc, %i : index
    scf.yield %a : index
  }
  gpu.memset %m, %v : memref<?xf32>, f32
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.addi %i, %i : index
  }
  %r = scf.if %c -> (index) {
    scf.yield %c0 : index
  } else {
    scf.yield %s : index
  }
  scf.if %c {
    gpu.memcpy %h, %m : memref<?xf32>, memref<?xf32>
  } else {
    gpu.memset %m, %v : memref<?xf32>, f32
  }
  scf.if %c {
    %x = arith.addi %n, %n : index
  }
  gpu.dealloc %m : memref<?xf32>
  return %r : index
}

// -----

// A loop body that closes the chain of an enclosing region, and a while loop.
func.func @nested(%n: index, %h: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.memset %h, %v : memref<?xf32>, f32
    scf.for %j = %c0 to %n step %c1 {
      gpu.memset %h, %v : memref<?xf32>, f32
      gpu.memset %h, %v : memref<?xf32>, f32
    }
    gpu.memset %h, %v : memref<?xf32>, f32
  }
  scf.while (%k = %c0) : (index) -> index {
    gpu.memset %h, %v : memref<?xf32>, f32
    %b = arith.cmpi slt, %k, %n : index
    scf.condition(%b) %k : index
  } do {
  ^bb0(%k2: index):
    %k3 = arith.addi %k2, %c1 : index
    scf.yield %k3 : index
  }
  return
}

// -----

// Each cf block has its own chain, closed before its branch or return.
func.func @blocks(%n: index, %v: f32, %c: i1) {
  %m = gpu.alloc (%n) : memref<?xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  gpu.memset %m, %v : memref<?xf32>, f32
  %x = arith.addf %v, %v : f32
  cf.br ^bb3(%x : f32)
^bb2:
  %y = arith.mulf %v, %v : f32
  cf.br ^bb3(%y : f32)
^bb3(%z: f32):
  gpu.memset %m, %z : memref<?xf32>, f32
  gpu.dealloc %m : memref<?xf32>
  return
}

// -----

// Which host ops close the chain is MLIR's `isMemoryEffectFree`: ops with
// effects or without effect information close it; pure ops, ops whose
// regions only hold pure ops, linalg on tensors and index ops do not.
#map = affine_map<(d0) -> (d0)>
func.func @effects(%n: index, %i: i32, %h: memref<?xf32>, %sm: memref<4xf32>, %vec: vector<4xf32>, %tt: tensor<4xf32>, %v: f32, %u: memref<*xf32>) {
  gpu.memset %h, %v : memref<?xf32>, f32
  %e = arith.extsi %i : i32 to i64
  %r = arith.remui %i, %i : i32
  %d = memref.dim %h, %n : memref<?xf32>
  %mn = affine.min affine_map<(d0) -> (d0, 4)>(%n)
  %vr = vector.reduction <add>, %vec : vector<4xf32> into f32
  %cm = vector.create_mask %n : vector<4xi1>
  %ix = "index.add"(%n, %n) : (index, index) -> index
  %er = scf.execute_region -> index {
    scf.yield %n : index
  }
  affine.for %k = 0 to 4 {
    %z = arith.addi %k, %k : index
  }
  memref.alloca_scope {
    %z = arith.addi %n, %n : index
  }
  %g = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel"]} outs(%tt : tensor<4xf32>) {
  ^bb0(%o: f32):
    linalg.yield %o : f32
  } -> tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%tt : tensor<4xf32>) -> tensor<4xf32>
  gpu.memset %h, %v : memref<?xf32>, f32
  linalg.fill ins(%v : f32) outs(%sm : memref<4xf32>)
  gpu.memset %h, %v : memref<?xf32>, f32
  gpu.host_register %u : memref<*xf32>
  gpu.memset %h, %v : memref<?xf32>, f32
  affine.for %k = 0 to 4 {
    affine.store %v, %h[%k] : memref<?xf32>
  }
  gpu.memset %h, %v : memref<?xf32>, f32
  %al = memref.alloca() : memref<4xf32>
  gpu.memset %h, %v : memref<?xf32>, f32
  "test.unknown"() : () -> ()
  return
}

// -----

// Sparse ops are async ops too.
func.func @sparse(%n: index, %vals: memref<?xf64>) {
  %dn = gpu.create_dn_tensor %vals, %n : index into memref<?xf64>
  gpu.destroy_dn_tensor %dn
  return
}

// -----

// Funcs of nested modules are not visited (MLIR anchors the pass on the funcs
// of the top-level module), and the blocks of unregistered ops get chains of
// their own.
module {
  module @inner {
    func.func @skipped(%m: memref<?xf32>) {
      gpu.dealloc %m : memref<?xf32>
      return
    }
  }
  func.func @unregistered_region(%m: memref<?xf32>) {
    "test.region"() ({
      gpu.dealloc %m : memref<?xf32>
      "test.terminator"() : () -> ()
    }) : () -> ()
    gpu.dealloc %m : memref<?xf32>
    return
  }
}

// -----

// async.execute (in generic form) where MLIR's deferral and duplication
// phases change nothing: its token is returned, not awaited. An execute with a pure body does not close the chain; an
// await does.
func.func @execute(%m: memref<?xf32>, %v: f32) -> !async.token {
  gpu.memset %m, %v : memref<?xf32>, f32
  %a = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    gpu.memset %m, %v : memref<?xf32>, f32
    "async.yield"() : () -> ()
  }) : () -> !async.token
  gpu.memset %m, %v : memref<?xf32>, f32
  %b = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> !async.token
  gpu.memset %m, %v : memref<?xf32>, f32
  "async.await"(%b) : (!async.token) -> ()
  return %a : !async.token
}
