// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// SimplifyDimOfAllocOp (rooted at memref.dim, registered by gpu.alloc), next to
// memref.dim's own folder and patterns.
// memref.dim of a gpu.alloc result: the size operand for a dynamic dimension.
func.func @dim_of_alloc(%n: index, %t: !gpu.async.token) -> (index, index, !gpu.async.token) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m, %t1 = gpu.alloc async [%t] (%n) : memref<4x?xf32>
  %d0 = memref.dim %m, %c0 : memref<4x?xf32>
  %d1 = memref.dim %m, %c1 : memref<4x?xf32>
  return %d0, %d1, %t1 : index, index, !gpu.async.token
}

// -----

func.func @dim_of_alloc_many(%a: index, %b: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = gpu.alloc (%a, %b) : memref<?x4x8x?xf32>
  %d1 = memref.dim %m, %c3 : memref<?x4x8x?xf32>
  %d0 = memref.dim %m, %c1 : memref<?x4x8x?xf32>
  gpu.dealloc %m : memref<?x4x8x?xf32>
  return %d1, %d0 : index, index
}

// -----

// A non-constant index, or an alloc that is not a gpu.alloc: kept.
func.func @dim_kept(%n: index, %i: index, %x: memref<?xf32>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %m = gpu.alloc (%n) : memref<?xf32>
  %d0 = memref.dim %m, %i : memref<?xf32>
  %d1 = memref.dim %x, %c0 : memref<?xf32>
  gpu.dealloc %m : memref<?xf32>
  return %d0, %d1 : index, index
}

// -----

// Only dynamic dimensions; symbol operands do not count as sizes.
func.func @dim_of_alloc_dynamic(%a: index, %b: index, %s: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = gpu.alloc (%a, %b) : memref<?x?xf32>
  %l = gpu.alloc host_shared (%b) [%s] : memref<?xf32, strided<[1], offset: ?>>
  %d0 = memref.dim %m, %c1 : memref<?x?xf32>
  %d1 = memref.dim %m, %c0 : memref<?x?xf32>
  %d2 = memref.dim %l, %c0 : memref<?xf32, strided<[1], offset: ?>>
  return %d0, %d1, %d2 : index, index, index
}
