// xgpu-opt --mlir-style with mlir-opt's pass flags prints what mlir-opt prints.
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect -gpu-launch-sink-index-computations -gpu-kernel-outlining' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect --pass-pipeline=builtin.module(gpu-kernel-outlining,func.func(canonicalize))' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect --pass-pipeline=builtin.module(gpu-kernel-outlining,gpu.module(gpu.func(canonicalize{max-iterations=3})))' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect -canonicalize=test-convergence' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-split-input-file -allow-unregistered-dialect -gpu-kernel-outlining -canonicalize -mlir-print-debuginfo' %s

func.func @outline(%buf: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = memref.dim %buf, %c1 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = arith.muli %bx, %sx : index
    %j = arith.addi %i, %tx : index
    %v = memref.load %buf[%j] : memref<?xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %buf[%j] : memref<?xf32>
    "test.use"(%d, %c4) : (index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

func.func @two(%buf: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %buf[%c0] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %buf[%tx] : memref<?xf32>
    %z = arith.addi %tx, %c0 : index
    memref.store %v, %buf[%z] : memref<?xf32>
    gpu.terminator
  }
  return
}
