// RUN: xgpu-opt -p gpu-eliminate-barriers --split-input-file %s | filecheck %s
// RUN: xgpu-opt -p 'gpu-eliminate-barriers{gpu-funcs=true}' --split-input-file %s | filecheck %s --check-prefix=FUNCS

// Kept: the barrier between the store to %a and the load from it, and the one
// between the store to the private buffer %s and the load from it. Erased: the
// leading and trailing barriers, and those between the load from %a and the
// store to %s (an allocation does not alias an argument).
// CHECK-LABEL: func.func @basic(%a: memref<?xf32>, %v: f32) {
// CHECK:         gpu.launch
// CHECK-NEXT:      %s = memref.alloca() : memref<4xf32>
// CHECK-NEXT:      memref.store %v, %a[%tx] : memref<?xf32>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %l = memref.load %a[%c0] : memref<?xf32>
// CHECK-NEXT:      memref.store %l, %s[%c1] : memref<4xf32>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %m = memref.load %s[%c0] : memref<4xf32>
// CHECK-NEXT:      memref.store %m, %a[%c1] : memref<?xf32>
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
func.func @basic(%a: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<4xf32>
    gpu.barrier
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.barrier
    %l = memref.load %a[%c0] : memref<?xf32>
    gpu.barrier
    gpu.barrier
    memref.store %l, %s[%c1] : memref<4xf32>
    gpu.barrier
    %m = memref.load %s[%c0] : memref<4xf32>
    memref.store %m, %a[%c1] : memref<?xf32>
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// In an scf.for, the end of the body runs before its start (next iteration):
// the store to %a at the end and the load at the start keep the first barrier.
// CHECK-LABEL: func.func @loop(%a: memref<?xf32>, %n: index) {
// CHECK:         scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %v = memref.load %a[%i] : memref<?xf32>
// CHECK-NEXT:      memref.store %v, %s[%tx] : memref<64xf32>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      %r = memref.load %s[%c0] : memref<64xf32>
// CHECK-NEXT:      memref.store %r, %a[%tx] : memref<?xf32>
// CHECK-NEXT:    }
func.func @loop(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %s = memref.alloca() : memref<64xf32>
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %s[%tx] : memref<64xf32>
      gpu.barrier
      %r = memref.load %s[%c0] : memref<64xf32>
      memref.store %r, %a[%tx] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Unknown effects (func.call) keep the barriers around them; so does a region
// with several blocks.
// CHECK-LABEL: func.func @unknown(%a: memref<?xf32>, %v: f32, %cond: i1) {
// CHECK:         memref.store %v, %a[%tx] : memref<?xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    func.call @ext() : () -> ()
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    cf.cond_br %cond, ^bb1, ^bb2
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    cf.br ^bb2
func.func private @ext()
func.func @unknown(%a: memref<?xf32>, %v: f32, %cond: i1) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.barrier
    func.call @ext() : () -> ()
    gpu.barrier
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

// As MLIR's greedy driver, the pass folds (3 = 1 + 2) and erases dead ops (the
// unused load) on the way; constants are uniqued and hoisted. Here the
// barriers are directly in the function (no launch): the function body is the
// region they order.
// CHECK-LABEL: func.func @folding(%a: memref<?xf32>, %v: f32) {
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    memref.store %v, %a[%[[C3]]] : memref<?xf32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @folding(%a: memref<?xf32>, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  gpu.barrier
  %l = memref.load %a[%c1] : memref<?xf32>
  gpu.barrier
  %i = arith.addi %c1, %c2 : index
  memref.store %v, %a[%i] : memref<?xf32>
  gpu.barrier
  return
}

// -----

// gpu.func: mlir-opt 22 cannot run the pass on it, so by default xgpu leaves it
// alone; gpu-funcs=true runs it there too (as MLIR's pattern set does when
// applied to gpu.func). Workgroup attributions count as function arguments:
// %tile may alias %out (the barrier before the store to %out stays), not the
// private %scratch.
// CHECK-LABEL: gpu.func @kernel
// CHECK-NEXT:    %tx = gpu.thread_id x
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %scratch = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    %w = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.store %w, %scratch[%c0] : memref<4xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    memref.store %w, %out[%tx] : memref<?xf32>
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    gpu.return

// FUNCS-LABEL: gpu.func @kernel
// FUNCS-NEXT:    %c0 = arith.constant 0 : index
// FUNCS-NEXT:    %tx = gpu.thread_id x
// FUNCS-NEXT:    %scratch = memref.alloca() : memref<4xf32>
// FUNCS-NEXT:    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
// FUNCS-NEXT:    gpu.barrier
// FUNCS-NEXT:    %w = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
// FUNCS-NEXT:    memref.store %w, %scratch[%c0] : memref<4xf32>
// FUNCS-NEXT:    gpu.barrier
// FUNCS-NEXT:    memref.store %w, %out[%tx] : memref<?xf32>
// FUNCS-NEXT:    gpu.return
gpu.module @kernels {
  gpu.func @kernel(%out: memref<?xf32>, %v: f32)
      workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %tx = gpu.thread_id x
    gpu.barrier
    %c0 = arith.constant 0 : index
    %scratch = memref.alloca() : memref<4xf32>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %w = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w, %scratch[%c0] : memref<4xf32>
    gpu.barrier
    memref.store %w, %out[%tx] : memref<?xf32>
    gpu.barrier
    gpu.return
  }
}
