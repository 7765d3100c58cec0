// RUN: xgpu-opt -p canonicalize --split-input-file %s | filecheck %s

// SimplifyDimOfAllocOp: memref.dim of a gpu.alloc result on a dynamic
// dimension is the matching size operand. MLIR registers it with gpu.alloc,
// rooted at memref.dim (xgpu lists it with memref.dim's patterns); static
// dimensions are memref.dim's own folder.

// CHECK-LABEL: func.func @dim_of_alloc(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[T:[^:]*]]: !gpu.async.token
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %{{.*}}, %[[T1:.*]] = gpu.alloc async [%[[T]]] (%[[N]]) : memref<4x?xf32>
// CHECK-NEXT:    func.return %[[C4]], %[[N]], %[[T1]] : index, index, !gpu.async.token
func.func @dim_of_alloc(%n: index, %t: !gpu.async.token) -> (index, index, !gpu.async.token) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m, %t1 = gpu.alloc async [%t] (%n) : memref<4x?xf32>
  %d0 = memref.dim %m, %c0 : memref<4x?xf32>
  %d1 = memref.dim %m, %c1 : memref<4x?xf32>
  return %d0, %d1, %t1 : index, index, !gpu.async.token
}

// -----

// CHECK-LABEL: func.func @dim_of_alloc_many(
// CHECK-SAME:      %[[A:[^:]*]]: index, %[[B:[^:]*]]: index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[M:.*]] = gpu.alloc  (%[[A]], %[[B]]) : memref<?x4x8x?xf32>
// CHECK-NEXT:    gpu.dealloc  %[[M]] : memref<?x4x8x?xf32>
// CHECK-NEXT:    func.return %[[B]], %[[C4]] : index, index
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

// A non-constant index, or a memref that is not a gpu.alloc result: kept.
// CHECK-LABEL: func.func @dim_kept(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[I:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[M:.*]] = gpu.alloc  (%[[N]]) : memref<?xf32>
// CHECK-NEXT:    %[[D0:.*]] = memref.dim %[[M]], %[[I]] : memref<?xf32>
// CHECK-NEXT:    %[[D1:.*]] = memref.dim %[[X]], %[[C0]] : memref<?xf32>
// CHECK-NEXT:    gpu.dealloc  %[[M]] : memref<?xf32>
// CHECK-NEXT:    func.return %[[D0]], %[[D1]] : index, index
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
// CHECK-LABEL: func.func @dim_of_alloc_dynamic(
// CHECK-SAME:      %[[A:[^:]*]]: index, %[[B:[^:]*]]: index, %{{[^:]*}}: index
// CHECK-NEXT:    func.return %[[B]], %[[A]], %[[B]] : index, index, index
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
