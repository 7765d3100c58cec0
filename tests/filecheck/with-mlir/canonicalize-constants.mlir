// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// Constant uniquing and hoisting, as MLIR's OperationFolder does it: one
// constant per value and type in each isolated region (func.func, gpu.func,
// gpu.module, ...), kept at the front of its entry block; regions that are not
// isolated from above (scf.for, scf.if, gpu.launch) share the constants of the
// enclosing isolated region. Unused constants and pure ops are erased.

// Duplicates in scf.for and scf.if bodies are replaced by the first one
// met; constants first met in a body are hoisted to the function entry.

func.func @loop_and_if(%n: index, %c: i1, %m: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %c7 = arith.constant 7 : i32
    %c1b = arith.constant 1 : index
    %j = arith.addi %i, %c1b : index
    memref.store %c7, %m[%j] : memref<?xi32>
    scf.if %c {
      %c7b = arith.constant 7 : i32
      %c9 = arith.constant 9 : i32
      memref.store %c9, %m[%i] : memref<?xi32>
      memref.store %c7b, %m[%c0] : memref<?xi32>
    }
  }
  return
}

// -----

// Constants in a gpu.launch body are hoisted out of it (gpu.launch is not
// isolated from above) and uniqued with those of the host function.

func.func @launch(%n: index, %buf: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c63 = arith.constant 63 : index
  %0 = arith.addi %n, %c63 : index
  %blocks = arith.divui %0, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %c64b = arith.constant 64 : index
    %i0 = arith.muli %bx, %c64b : index
    %i = arith.addi %i0, %tx : index
    %ok = arith.cmpi ult, %i, %n : index
    scf.if %ok {
      %two = arith.constant 2.0 : f32
      %v = memref.load %buf[%i] : memref<?xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %buf[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Constants in a gpu.func stay in the gpu.func (isolated from above), at
// its entry, uniqued there; a constant used by no op goes.

gpu.module @kernels {
  gpu.func @scale(%buf: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %a = arith.muli %bid, %bdim : index
    %i = arith.addi %a, %tid : index
    %j = arith.addi %i, %c0 : index
    %ok = arith.cmpi slt, %j, %n : index
    scf.if %ok {
      %f = arith.constant 2.0 : f32
      %v = memref.load %buf[%j] : memref<?xf32>
      %w = arith.mulf %v, %f : f32
      memref.store %w, %buf[%j] : memref<?xf32>
      %f2 = arith.constant 2.0 : f32
      %u = arith.mulf %w, %f2 : f32
      memref.store %u, %buf[%j] : memref<?xf32>
    }
    %unused = arith.constant 3.0 : f32
    gpu.return
  }
}

// -----

// Each isolated region has its own constants: the host function and the
// kernel both keep a `64`.

module attributes {gpu.container_module} {
  func.func @host(%n: index) -> index {
    %c64 = arith.constant 64 : index
    %0 = arith.muli %n, %c64 : index
    return %0 : index
  }
  gpu.module @kernels {
    gpu.func @kernel(%m: memref<?xindex>) kernel {
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %0 = arith.muli %tid, %c64 : index
      memref.store %0, %m[%tid] : memref<?xindex>
      gpu.return
    }
  }
}

// -----

// Hoisted constants end up in the order MLIR's folder gives them: the
// constants already at the entry keep their place, each constant first met
// later (in a body, or made by a fold) goes in front of them.

func.func @order(%n: index, %m: memref<?xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = arith.constant 5 : i32
  %x = memref.load %m[%c0] : memref<?xi32>
  %b = arith.constant 6 : i32
  %s = arith.addi %a, %b : i32
  scf.for %i = %c0 to %n step %c1 {
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %y = arith.addi %x, %c2 : i32
    %z = arith.addi %y, %c3 : i32
    memref.store %z, %m[%i] : memref<?xi32>
  }
  %r = arith.addi %s, %x : i32
  return %r : i32
}

// -----

// Unused pure ops and constants go, unused loads go (reads only); stores,
// and the loads they use, stay.

func.func @dce(%m: memref<4xf32>, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %unused = arith.constant 42 : i32
  %a = arith.addf %x, %x : f32
  %v = memref.load %m[%c0] : memref<4xf32>
  %w = memref.load %m[%c1] : memref<4xf32>
  %s = arith.mulf %w, %x : f32
  memref.store %s, %m[%c0] : memref<4xf32>
  return
}

// -----

// A whole GPU program: a host function computing the grid size and
// launching a matmul kernel, and a reduction kernel. Each isolated region
// (gpu.func, func.func) keeps its constants at its entry; `x * 1.0`,
// `x + -0.0`, `x == x`, and the dim of the gpu.alloc fold; the loads, stores,
// atomics and the async chain stay.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %n: index) kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r0 = arith.muli %by, %c16 : index
      %row = arith.addi %r0, %ty : index
      %c0b = arith.muli %bx, %c16 : index
      %col = arith.addi %c0b, %tx : index
      %okr = arith.cmpi ult, %row, %n : index
      %okc = arith.cmpi ult, %col, %n : index
      %ok = arith.andi %okr, %okc : i1
      scf.if %ok {
        %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
          %a = memref.load %A[%row, %k] : memref<?x?xf32>
          %b = memref.load %B[%k, %col] : memref<?x?xf32>
          %p = arith.mulf %a, %b : f32
          %one = arith.constant 1.0 : f32
          %q = arith.mulf %p, %one : f32
          %t = arith.addf %s, %q : f32
          scf.yield %t : f32
        }
        %nz = arith.constant -0.0 : f32
        %r = arith.addf %acc, %nz : f32
        memref.store %r, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
    gpu.func @reduce(%in: memref<?xi32>, %out: memref<1xi32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %t32 = arith.index_cast %tid : index to i32
      %in_range = arith.cmpi slt, %t32, %n : i32
      %v = scf.if %in_range -> (i32) {
        %x = memref.load %in[%tid] : memref<?xi32>
        scf.yield %x : i32
      } else {
        %z = arith.constant 0 : i32
        scf.yield %z : i32
      }
      %two = arith.constant 2 : i32
      %d = arith.divsi %v, %two : i32
      %m = arith.muli %d, %two : i32
      %r = arith.subi %v, %m : i32
      %b = arith.cmpi eq, %r, %r : i32
      %s = arith.select %b, %v, %r : i32
      %old = "memref.atomic_rmw"(%s, %out, %c0) <{kind = 1 : i64}> : (i32, memref<1xi32>, index) -> i32
      gpu.return
    }
  }
  func.func @host(%n: index, %A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c15 = arith.constant 15 : index
    %g0 = arith.addi %n, %c15 : index
    %g = arith.divui %g0, %c16 : index
    %t0 = gpu.wait async
    %dA, %t1 = gpu.alloc async [%t0] (%n, %n) : memref<?x?xf32>
    %c0 = arith.constant 0 : index
    %dim = memref.dim %dA, %c0 : memref<?x?xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@matmul blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1) args(%dA : memref<?x?xf32>, %B : memref<?x?xf32>, %C : memref<?x?xf32>, %dim : index)
    gpu.wait [%t2]
    return
  }
}
