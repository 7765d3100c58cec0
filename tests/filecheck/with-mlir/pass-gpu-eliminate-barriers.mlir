// RUN: %mlir-diff --pass gpu-eliminate-barriers %s
// gpu.func kernels: mlir-opt 22 cannot run the pass on gpu.func; its pattern
// set applied to them by the transform interpreter is the reference for
// xgpu's gpu-funcs=true.
// RUN: %mlir-diff --pass 'gpu-eliminate-barriers{gpu-funcs=true}' --mlir-flags='--pass-pipeline=builtin.module(transform-preload-library{transform-library-paths=%S/inputs/eliminate-barriers-gpu-funcs.mlir},transform-interpreter,func.func(gpu-eliminate-barriers))' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-eliminate-barriers' %s

// xgpu-opt -p gpu-eliminate-barriers against mlir-opt --gpu-eliminate-barriers,
// chunk by chunk: barriers kept and erased, and the folding and dead code
// elimination of the greedy driver.

// A write, then a read of the same memref: the barrier stays.
// Basic conflicts: the barrier between a write and a read of the same memref stays.
func.func @raw(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.barrier
    %l = memref.load %a[%c0] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Two reads do not conflict: the barrier goes.
func.func @rar(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %l = memref.load %a[%tx] : memref<?xf32>
    gpu.barrier
    %m = memref.load %a[%c0] : memref<?xf32>
    %s = arith.addf %l, %m : f32
    "test.use"(%s) : (f32) -> ()
    gpu.terminator
  }
  return
}

// -----

// Write after read and write after write: the barriers between stay; of two
// adjacent barriers, and at the end of the body, they go.
func.func @war_and_waw(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %l = memref.load %a[%tx] : memref<?xf32>
    gpu.barrier
    memref.store %v, %a[%c0] : memref<?xf32>
    gpu.barrier
    memref.store %l, %a[%c1] : memref<?xf32>
    gpu.barrier
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// Distinct allocations (memref.alloc outside, memref.alloca inside) alias
// neither each other nor the arguments.
func.func @distinct_allocs(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.alloc() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    memref.store %v, %s[%tx] : memref<4xf32>
    gpu.barrier
    %l = memref.load %g[%c0] : memref<4xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
    gpu.barrier
    %m = memref.load %s[%c0] : memref<4xf32>
    memref.store %m, %g[%c1] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// An allocation stored as a value somewhere is captured: it may alias
// anything.
func.func @captured_alloc(%a: memref<?xf32>, %p: memref<1xmemref<4xf32>>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.alloc() : memref<4xf32>
  memref.store %g, %p[%c0] : memref<1xmemref<4xf32>>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    memref.store %v, %g[%tx] : memref<4xf32>
    gpu.barrier
    %l = memref.load %a[%c0] : memref<?xf32>
    memref.store %l, %s[%c1] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Passed to an unknown callee: captured.
func.func private @ext(memref<4xf32>)
func.func @passed_to_call(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.alloc() : memref<4xf32>
  %h = memref.alloc() : memref<4xf32>
  func.call @ext(%g) : (memref<4xf32>) -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %g[%tx] : memref<4xf32>
    gpu.barrier
    %l = memref.load %h[%c0] : memref<4xf32>
    memref.store %l, %h[%c1] : memref<4xf32>
    gpu.barrier
    %m = memref.load %a[%c0] : memref<?xf32>
    memref.store %m, %h[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Views (subview, cast, expand_shape) are their source's memory; a load
// through the cast folds to the source.
func.func @views(%a: memref<16xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<16xf32>
    %t = memref.alloca() : memref<16xf32>
    %sv = memref.subview %s[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
    %c = "memref.cast"(%t) : (memref<16xf32>) -> memref<?xf32>
    %e = memref.expand_shape %s [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
    memref.store %v, %sv[%tx] : memref<4xf32, strided<[1], offset: 4>>
    gpu.barrier
    %l = memref.load %c[%c0] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<16xf32>
    gpu.barrier
    %m = memref.load %e[%c0, %c1] : memref<4x4xf32>
    memref.store %m, %a[%c0] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// Globals: equal names alias, different names do not.
"memref.global"() <{initial_value = dense<0.000000e+00> : tensor<4xf32>, sym_name = "ga", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
"memref.global"() <{initial_value = dense<0.000000e+00> : tensor<4xf32>, sym_name = "gb", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
func.func @globals(%v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %a = memref.get_global @ga : memref<4xf32>
    %b = memref.get_global @gb : memref<4xf32>
    %a2 = memref.get_global @ga : memref<4xf32>
    memref.store %v, %a[%tx] : memref<4xf32>
    gpu.barrier
    %l = memref.load %b[%c0] : memref<4xf32>
    memref.store %l, %b[%c1] : memref<4xf32>
    gpu.barrier
    %m = memref.load %a2[%c0] : memref<4xf32>
    memref.store %m, %b[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Two llvm.noalias arguments do not alias; a plain argument may alias either.
func.func @noalias(%a: memref<?xf32> {llvm.noalias}, %b: memref<?xf32> {llvm.noalias}, %c: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.barrier
    %l = memref.load %b[%c0] : memref<?xf32>
    memref.store %l, %b[%c1] : memref<?xf32>
    gpu.barrier
    %m = memref.load %c[%c0] : memref<?xf32>
    memref.store %m, %b[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A gpu.launch workgroup attribution is not an allocation: it may alias the
// arguments.
func.func @workgroup_attribution(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) {
    memref.store %v, %wg[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %l = memref.load %a[%c0] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// scf.for: the body's end runs before its start (next iteration): the
// barrier between a load and a store of a memref stays.
func.func @loop_carried(%a: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    scf.for %i = %c0 to %n step %c1 {
      %l = memref.load %a[%i] : memref<?xf32>
      gpu.barrier
      memref.store %l, %a[%tx] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// scf.for: a barrier first in the body stops the look-ahead of the next
// iteration.
func.func @loop_barrier_first(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
      %l = memref.load %s[%i] : memref<4xf32>
      memref.store %l, %b[%tx] : memref<?xf32>
      gpu.barrier
      memref.store %v, %s[%tx] : memref<4xf32>
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// scf.if: effects before the scf.if count even when a barrier in the block
// stops the scan of the block.
func.func @in_if(%a: memref<?xf32>, %b: memref<?xf32>, %v: f32, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %c = memref.alloca() : memref<4xf32>
    memref.store %v, %a[%c0] : memref<?xf32>
    scf.if %cond {
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.barrier
      %l1 = memref.load %b[%c0] : memref<?xf32>
      gpu.barrier
      %l2 = memref.load %a[%c0] : memref<?xf32>
      memref.store %l2, %c[%c0] : memref<4xf32>
      memref.store %l1, %c[%c1] : memref<4xf32>
    } else {
      gpu.barrier
      %l3 = memref.load %c[%c0] : memref<4xf32>
      memref.store %l3, %c[%c1] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// scf.while (a body that may run several times): every effect of the loop
// counts.
func.func @in_while(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    %t = memref.alloca() : memref<4xf32>
    %r = scf.while (%i = %c0) : (index) -> index {
      %cond = arith.cmpi slt, %i, %c1 : index
      scf.condition(%cond) %i : index
    } do {
    ^bb0(%i: index):
      memref.store %v, %s[%i] : memref<4xf32>
      gpu.barrier
      %l = memref.load %t[%i] : memref<4xf32>
      memref.store %l, %a[%i] : memref<?xf32>
      %j = arith.addi %i, %c1 : index
      scf.yield %j : index
    }
    gpu.terminator
  }
  return
}

// -----

// func.call: unknown effects on any memory, on both sides.
func.func private @ext()
func.func @call_between(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    memref.store %v, %s[%tx] : memref<4xf32>
    gpu.barrier
    func.call @ext() : () -> ()
    gpu.barrier
    %l = memref.load %a[%c0] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// A region with several blocks: any effect; the barrier stays.
func.func @cfg(%a: memref<?xf32>, %v: f32, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    cf.cond_br %cond, ^bb1, ^bb2
  ^bb1:
    gpu.barrier
    cf.br ^bb2
  ^bb2:
    gpu.terminator
  }
  return
}

// -----

// A barrier directly in a func.func (no launch): only the function body
// counts. Unused loads are erased on the way.
func.func @host_side(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  gpu.barrier
  %l = memref.load %a[%c0] : memref<?xf32>
  gpu.barrier
  memref.store %v, %a[%c0] : memref<?xf32>
  gpu.barrier
  return
}

// -----

// gpu ops: shuffle and thread_id have no effects; printf writes any memory;
// the mma load/store read/write any memory; all_reduce has unknown effects.
func.func @gpu_ops(%a: memref<?xf32>, %m: memref<16x16xf16>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<16x16xf16>
    %l = memref.load %a[%c0] : memref<?xf32>
    gpu.barrier
    %c1_i32 = arith.constant 1 : i32
    %sh, %ok = gpu.shuffle xor %l, %c1_i32, %c1_i32 : f32
    %id = gpu.thread_id x
    gpu.barrier
    gpu.printf "%f", %sh : f32
    gpu.barrier
    %mm = gpu.subgroup_mma_load_matrix %s[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.barrier
    gpu.subgroup_mma_store_matrix %mm, %m[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.barrier
    %r = gpu.all_reduce add %l uniform {} : (f32) -> f32
    gpu.barrier
    memref.store %r, %a[%c1] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// The greedy driver folds and erases dead ops on the way, and hoists
// constants; all_reduce at the top of a launch body becomes uniform.
func.func @folds(%a: memref<?xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %c3 = arith.constant 3 : index
    %i = arith.addi %c1, %c2 : index
    %j = arith.muli %tx, %c1 : index
    %k = arith.addi %c3, %j : index
    %dead = arith.addi %k, %k : index
    memref.store %v, %a[%i] : memref<?xf32>
    gpu.barrier
    %l = memref.load %a[%k] : memref<?xf32>
    %r = gpu.all_reduce add %l {} : (f32) -> f32
    memref.store %r, %a[%c2] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.copy, memref.dealloc (a free before a barrier never conflicts),
// memref.atomic_rmw.
func.func @memref_ops(%a: memref<4xf32>, %b: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloc() : memref<4xf32>
    "memref.copy"(%a, %s) : (memref<4xf32>, memref<4xf32>) -> ()
    gpu.barrier
    %l = memref.load %s[%c0] : memref<4xf32>
    memref.store %l, %b[%tx] : memref<4xf32>
    gpu.barrier
    memref.dealloc %s : memref<4xf32>
    gpu.barrier
    %x2 = "memref.atomic_rmw"(%v, %b, %c0) <{kind = 0 : i64}> : (f32, memref<4xf32>, index) -> f32
    gpu.barrier
    "test.use"(%x2) : (f32) -> ()
    gpu.terminator
  }
  return
}

// -----

// An op with __parallel_region_boundary_for_test is a parallel region
// boundary: nothing outside it counts.
func.func @boundary_attr(%a: memref<?xf32>, %v: f32, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %v, %a[%c0] : memref<?xf32>
  scf.if %cond {
    gpu.barrier
    %l = memref.load %a[%c1] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
  } {__parallel_region_boundary_for_test}
  scf.if %cond {
    gpu.barrier
    %l = memref.load %a[%c1] : memref<?xf32>
    memref.store %l, %a[%c1] : memref<?xf32>
  }
  return
}

// -----

// The scan stops at the first barrier of the block but goes on outside it:
// the write to %a before the scf.if keeps the second barrier.
func.func @g(%a: memref<?xf32>, %b: memref<?xf32>, %v: f32, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %c = memref.alloca() : memref<4xf32>
    memref.store %v, %a[%c0] : memref<?xf32>
    scf.if %cond {
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.barrier
      %l1 = memref.load %b[%c0] : memref<?xf32>
      gpu.barrier
      %l2 = memref.load %a[%c0] : memref<?xf32>
      memref.store %l2, %c[%c0] : memref<4xf32>
      memref.store %l1, %c[%c1] : memref<4xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Other functions of the module play no part (func.func is isolated).
func.func private @ext()
func.func @other(%a: memref<?xf32>) {
  return
}
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf32>
  gpu.barrier
  memref.store %v, %a[%c0] : memref<?xf32>
  return
}

// -----

// gpu.func kernels (gpu-funcs=true): a tiled sum with workgroup memory. The
// barrier between the stores to the workgroup buffer and the loads from it
// stays, and so does the one at the end of the loop body (the next iteration
// stores again); the leading and trailing ones go.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tiled_sum(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
        workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      gpu.barrier
      %sum = scf.for %t = %c0 to %n step %c64 iter_args(%acc = %zero) -> (f32) {
        %i = arith.addi %t, %tx : index
        %v = memref.load %in[%i] : memref<?xf32>
        memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %w = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %acc, %w : f32
        gpu.barrier
        scf.yield %s : f32
      }
      memref.store %sum, %out[%tx] : memref<?xf32>
      gpu.barrier
      gpu.return
    }
    // Private scratch memory (memref.alloca) is distinct from the workgroup
    // attribution and the arguments: the barrier goes.
    gpu.func @private_scratch(%out: memref<?xf32>, %v: f32)
        workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %scratch = memref.alloca() : memref<4xf32>
      memref.store %v, %scratch[%c0] : memref<4xf32>
      gpu.barrier
      %w = memref.load %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%tx] : memref<?xf32>
      gpu.return
    }
    // A workgroup attribution and an argument may alias: the barrier stays.
    gpu.func @attribution_and_argument(%out: memref<?xf32>, %v: f32)
        workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %out[%tx] : memref<?xf32>
      memref.store %w, %out[%tx] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@tiled_sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %a : memref<?xf32>, %n : index)
    return
  }
}

// -----

// Multi-block regions: MLIR's greedy driver simplifies regions at the
// aggressive level here: identical blocks are merged (differing outside
// values become block arguments) and arguments that every predecessor gives
// the same value are dropped.
func.func @two_values(%c: i1, %a: memref<?xf32>, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  memref.store %v, %a[%c0] : memref<?xf32>
  cf.br ^bb3
^bb2:
  memref.store %w, %a[%c0] : memref<?xf32>
  cf.br ^bb3
^bb3:
  return
}

// -----

func.func @with_args(%c: i1, %d: i1, %a: memref<?xf32>, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.cond_br %c, ^bb1(%v : f32), ^bb2(%w : f32)
^bb1(%x: f32):
  %s = arith.addf %x, %v : f32
  memref.store %s, %a[%c0] : memref<?xf32>
  cf.br ^bb4(%c0 : index)
^bb2(%y: f32):
  %t = arith.addf %y, %w : f32
  memref.store %t, %a[%c0] : memref<?xf32>
  cf.br ^bb4(%c0 : index)
^bb4(%i: index):
  memref.store %v, %a[%i] : memref<?xf32>
  return
}

// -----

func.func @same_extern(%c: i1, %a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  memref.store %v, %a[%c1] : memref<?xf32>
  cf.br ^bb3(%v, %v : f32, f32)
^bb2:
  memref.store %v, %a[%c1] : memref<?xf32>
  cf.br ^bb3(%v, %v : f32, f32)
^bb3(%p: f32, %q: f32):
  %r = arith.addf %p, %q : f32
  memref.store %r, %a[%c0] : memref<?xf32>
  return
}

// -----

func.func @in_launch(%c: i1, %a: memref<?xf32>, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %ww = %c1, %q = %c1) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.barrier
    cf.br ^bb3
  ^bb2:
    memref.store %w, %a[%tx] : memref<?xf32>
    gpu.barrier
    cf.br ^bb3
  ^bb3:
    gpu.terminator
  }
  return
}

// -----

func.func @dup_args(%c: i1, %a: memref<?xf32>, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  memref.store %v, %a[%c0] : memref<?xf32>
  %s1 = arith.addf %v, %v : f32
  cf.br ^bb3(%s1 : f32)
^bb2:
  memref.store %w, %a[%c0] : memref<?xf32>
  %s2 = arith.addf %w, %w : f32
  cf.br ^bb3(%s2 : f32)
^bb3(%r: f32):
  memref.store %r, %a[%c0] : memref<?xf32>
  return
}

// -----

// A launch left with nothing but pure ops is trivially dead: the greedy
// driver erases it (with or without a token, when the token is unused).
func.func @empty(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %t = gpu.thread_id x
    gpu.barrier
    gpu.terminator
  }
  %tok = gpu.launch async blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    gpu.terminator
  }
  return
}

// -----

// Effects of single ops. Each launch has the op on the private buffer %s,
// a barrier, then a write to an argument (the barrier stays when the op's
// effects are on any memory), a write to %s (stays when the op touches
// %s), a read of %s (stays when the op writes %s).
// affine.load
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "affine.load"(%s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "affine.load"(%s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "affine.load"(%s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// affine.store
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.store"(%v, %s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (f32, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.store"(%v, %s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (f32, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.store"(%v, %s, %c0) <{map = affine_map<(d0) -> (d0)>}> : (f32, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.load
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.load"(%s, %c0) : (memref<8xf32>, index) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.load"(%s, %c0) : (memref<8xf32>, index) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.load"(%s, %c0) : (memref<8xf32>, index) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.store
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.store"(%vec, %s, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.store"(%vec, %s, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.store"(%vec, %s, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.maskedload
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.maskedload"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.maskedload"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.maskedload"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.maskedstore
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.maskedstore"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.maskedstore"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.maskedstore"(%s, %c0, %mask, %vec) : (memref<8xf32>, index, vector<4xi1>, vector<4xf32>) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.transfer_read
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.transfer_read"(%s, %c0, %v) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index, f32) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.transfer_read"(%s, %c0, %v) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index, f32) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "vector.transfer_read"(%s, %c0, %v) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<8xf32>, index, f32) -> vector<4xf32>
    "vector.store"(%x, %t, %c0) : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// vector.transfer_write
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.transfer_write"(%vec, %s, %c0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.transfer_write"(%vec, %s, %c0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "vector.transfer_write"(%vec, %s, %c0) <{in_bounds = [true], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (vector<4xf32>, memref<8xf32>, index) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.copy
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%s, %t) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%s, %t) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%s, %t) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.copy2
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%t, %s) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%t, %s) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.copy"(%t, %s) : (memref<8xf32>, memref<8xf32>) -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.atomic_rmw
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "memref.atomic_rmw"(%v, %s, %c0) <{kind = 0 : i64}> : (f32, memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "memref.atomic_rmw"(%v, %s, %c0) <{kind = 0 : i64}> : (f32, memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = "memref.atomic_rmw"(%v, %s, %c0) <{kind = 0 : i64}> : (f32, memref<8xf32>, index) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.dealloc
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    memref.dealloc %s : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    memref.dealloc %s : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    memref.dealloc %s : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// cf.assert
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    cf.assert %c, "msg"
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    cf.assert %c, "msg"
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    cf.assert %c, "msg"
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.printf
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.printf "x"
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.printf "x"
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.printf "x"
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.subgroup_reduce
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.subgroup_reduce add %v : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.subgroup_reduce add %v : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.subgroup_reduce add %v : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.all_reduce
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.all_reduce add %v {} : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.all_reduce add %v {} : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.all_reduce add %v {} : (f32) -> f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.alloc
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = memref.alloc() : memref<8xf32>
    memref.store %v, %x[%c0] : memref<8xf32>
    memref.dealloc %x : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = memref.alloc() : memref<8xf32>
    memref.store %v, %x[%c0] : memref<8xf32>
    memref.dealloc %x : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = memref.alloc() : memref<8xf32>
    memref.store %v, %x[%c0] : memref<8xf32>
    memref.dealloc %x : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.alloc
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.alloc () : memref<8xf32>
    gpu.memcpy %x, %s : memref<8xf32>, memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.alloc () : memref<8xf32>
    gpu.memcpy %x, %s : memref<8xf32>, memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = gpu.alloc () : memref<8xf32>
    gpu.memcpy %x, %s : memref<8xf32>, memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.memset
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.memset %s, %v : memref<8xf32>, f32
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.memset %s, %v : memref<8xf32>, f32
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.memset %s, %v : memref<8xf32>, f32
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.subgroup_mma
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %mm = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %mm, %h[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %mm = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %mm, %h[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %mm = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %mm, %h[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// scf.for
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    scf.for %i = %c0 to %c1 step %c1 {
      memref.store %v, %s[%i] : memref<8xf32>
    }
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    scf.for %i = %c0 to %c1 step %c1 {
      memref.store %v, %s[%i] : memref<8xf32>
    }
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    scf.for %i = %c0 to %c1 step %c1 {
      memref.store %v, %s[%i] : memref<8xf32>
    }
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// affine.for
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
    ^bb0(%i: index):
      memref.store %v, %s[%i] : memref<8xf32>
      "affine.yield"() : () -> ()
    }) : () -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
    ^bb0(%i: index):
      memref.store %v, %s[%i] : memref<8xf32>
      "affine.yield"() : () -> ()
    }) : () -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (4)>}> ({
    ^bb0(%i: index):
      memref.store %v, %s[%i] : memref<8xf32>
      "affine.yield"() : () -> ()
    }) : () -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// memref.alloca_scope
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.alloca_scope"() ({
      memref.store %v, %s[%c0] : memref<8xf32>
      "memref.alloca_scope.return"() : () -> ()
    }) : () -> ()
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.alloca_scope"() ({
      memref.store %v, %s[%c0] : memref<8xf32>
      "memref.alloca_scope.return"() : () -> ()
    }) : () -> ()
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    "memref.alloca_scope"() ({
      memref.store %v, %s[%c0] : memref<8xf32>
      "memref.alloca_scope.return"() : () -> ()
    }) : () -> ()
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// math.exp
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = math.exp %v : f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = math.exp %v : f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    %x = math.exp %v : f32
    memref.store %x, %t[%c0] : memref<8xf32>
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.wait
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.wait
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.wait
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.wait
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.warp
func.func @effects(%arg: memref<8xf32>, %v: f32, %vec: vector<4xf32>, %mask: vector<4xi1>, %c: i1, %h: memref<16x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.warp_execute_on_lane_0(%c0)[32] {
      memref.store %v, %s[%c0] : memref<8xf32>
    }
    gpu.barrier
    memref.store %v, %arg[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.warp_execute_on_lane_0(%c0)[32] {
      memref.store %v, %s[%c0] : memref<8xf32>
    }
    gpu.barrier
    memref.store %v, %s[%c0] : memref<8xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x0 = %c1, %y0 = %c1, %z0 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<8xf32>
    %t = memref.alloca() : memref<8xf32>
    gpu.warp_execute_on_lane_0(%c0)[32] {
      memref.store %v, %s[%c0] : memref<8xf32>
    }
    gpu.barrier
    %r = memref.load %s[%c0] : memref<8xf32>
    memref.store %r, %t[%c1] : memref<8xf32>
    gpu.terminator
  }
  return
}
