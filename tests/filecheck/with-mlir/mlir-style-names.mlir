// xgpu-opt --mlir-style prints what mlir-opt prints, byte for byte: value
// names (OpAsm names, %argN, numbering, `_N` uniquing), block labels and
// their predecessor comments, `module`/`return` without their dialect.
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -mlir-print-op-generic' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect -canonicalize' %s
// Locations: `#locN` aliases, in MLIR's order, defined after the module
// (before it for block arguments' locations, printed in full).
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -mlir-print-debuginfo' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -mlir-print-debuginfo -mlir-print-op-generic' %s

// Constants: %c0, %c42_i32, %c-1_i8, %true, %false, %cst; one conflict
// counter for the whole function (%c0_0, %cst_1, ...).
func.func @constants(%n: index) -> (index, i32, i8, i1, i1, f32, f32, vector<4xf32>, index, i64) {
  %a = arith.constant 0 : index
  %b = arith.constant 42 : i32
  %c = arith.constant 255 : i8
  %t = arith.constant true
  %f = arith.constant false
  %x = arith.constant 1.5 : f32
  %y = arith.constant 0x7FC00000 : f32
  %v = arith.constant dense<2.0> : vector<4xf32>
  %z = arith.constant 0 : index
  %w = arith.constant -7 : i64
  return %z, %b, %c, %t, %f, %x, %y, %v, %a, %w : index, i32, i8, i1, i1, f32, f32, vector<4xf32>, index, i64
}

// -----

// gpu ids and sizes are named after their op and dimension; other values
// are numbered; region arguments continue the function's %argN.
func.func @launch(%buf: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %d = memref.dim %buf, %c1 : memref<?xf32>
  %m = memref.alloc(%n) : memref<?xf32>
  %m2 = memref.alloc(%d) : memref<?xindex>
  %s = memref.alloca() : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = gpu.thread_id x
    %j = gpu.block_id y
    %k = gpu.block_dim z
    %l = gpu.grid_dim x
    %lane = gpu.lane_id
    %sum = arith.addi %i, %j : index
    %v = memref.load %buf[%sum] : memref<?xf32>
    memref.store %v, %m[%sum] : memref<?xf32>
    gpu.terminator
  }
  scf.for %iv = %c1 to %n step %c1 {
    %q = arith.addi %iv, %d : index
    memref.store %q, %m2[%iv] : memref<?xindex>
  }
  return
}

// -----

// Blocks: ^bbN by position, `// pred:`, `// 2 preds:`, `// no predecessors`.
func.func @branches(%c: i1, %a: index) -> index {
  cf.cond_br %c, ^bb1, ^bb2(%a : index)
^bb1:
  %b = arith.addi %a, %a : index
  cf.br ^bb2(%b : index)
^bb2(%r: index):
  return %r : index
^bb3:
  %z = arith.constant 0 : index
  cf.br ^bb2(%z : index)
}

// -----

// Kernels in a gpu.module, called from the host; async tokens; results
// with several names (%memref, %asyncToken).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%buf: memref<?xf32>, %f: f32) kernel {
      %i = gpu.global_id x
      %v = memref.load %buf[%i] : memref<?xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%n: index, %f: f32) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@scale blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %f : f32)
    %t3 = gpu.dealloc async [%t2] %m : memref<?xf32>
    gpu.wait [%t3]
    %r = call @helper(%n) : (index) -> index
    return
  }
  func.func private @helper(%x: index) -> index {
    return %x : index
  }
}
