// RUN: %mlir-diff --pass gpu-launch-sink-index-computations %s
// The sunk ops then stay in the kernels.
// RUN: %mlir-diff --pass gpu-launch-sink-index-computations,gpu-kernel-outlining %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-launch-sink-index-computations' %s

// Constants and memref.dim sink (memref.dim only because %m is used in the
// body as well: %m2 is not, so `memref.dim %m2` stays outside); the clones
// go, operands first, at the start of the body, also for uses in nested
// regions; the originals stay. arith.addi and arith.index_cast never sink.
func.func @basic(%m: memref<?xf32>, %m2: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %d = memref.dim %m, %c0 : memref<?xf32>
  %d2 = memref.dim %m2, %c0 : memref<?xf32>
  %add = arith.addi %c1, %c5 : index
  %cast = arith.index_cast %c1 : index to i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    scf.for %i = %c0 to %d step %c1 {
      memref.store %v, %m[%i] : memref<?xf32>
    }
    "test.use"(%d2, %add, %cast) : (index, index, i32) -> ()
    gpu.terminator
  }
  return
}

// -----

// arith.cmpi and arith.select sink when all their operands can: %sel2 cannot
// (%x is not used in the body), yet the cmpi it needs was sunk while checking
// and stays in the body, unused, as in MLIR.
func.func @select_cmpi(%x: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %cmp = arith.cmpi slt, %c1, %c5 : index
  %sel = arith.select %cmp, %c1, %c5 : index
  %cmp2 = arith.cmpi slt, %c0, %c5 : index
  %sel2 = arith.select %cmp2, %x, %c5 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.use"(%sel, %sel2) : (index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// An operand already used in the body counts as available: the select on
// the block argument %x sinks because the body uses %x too.
func.func @available(%x: index, %n: index, %c: i1) {
  %c5 = arith.constant 5 : index
  %sel = arith.select %c, %x, %c5 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.use"(%c, %x, %sel) : (i1, index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// Other constant-like ops sink too; tensor.empty does not.
func.func @constant_like(%n: index) {
  %a = llvm.mlir.zero : !llvm.ptr
  %b = llvm.mlir.undef : i32
  %d = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  %g = arith.constant dense<1> : vector<4xi32>
  %i = ub.poison : i32
  %j = llvm.mlir.constant(1 : i32) : i32
  %l = tensor.empty() : tensor<4xf32>
  %m = arith.constant dense<1.0> : tensor<4xf32>
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.use"(%a, %b, %d, %g, %i, %j, %l, %m, %f) : (!llvm.ptr, i32, complex<f32>, vector<4xi32>, i32, i32, tensor<4xf32>, tensor<4xf32>, f32) -> ()
    gpu.terminator
  }
  return
}

// -----

// Each launch gets its own clones. Nested launches are visited first: the
// inner one gets a %c7; then the outer one gets %c8 (a size of the inner
// launch, so used in the outer body) and a %c7 for its own use.
func.func @nested(%n: index) {
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %c8, %gy2 = %n, %gz2 = %n)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) {
      "test.use"(%c7) : (index) -> ()
      gpu.terminator
    }
    "test.use"(%c7) : (index) -> ()
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.use"(%c8, %c7) : (index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// Constants used only as launch sizes are launch operands, not body uses.
// The cmpi's first operand is the loop's induction variable, not used in the
// body: the cmpi stays outside, and %c3 is not even looked at.
func.func @sizes_only(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %c3 = arith.constant 3 : index
    %cmp = arith.cmpi ult, %i, %c3 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
      "test.use"(%cmp) : (i1) -> ()
      gpu.terminator
    }
  }
  return
}
