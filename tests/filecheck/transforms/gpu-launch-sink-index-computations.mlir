// RUN: xgpu-opt -p gpu-launch-sink-index-computations --split-input-file --allow-unregistered-dialect %s | filecheck %s

// Constants and memref.dim (of a memref the body uses) are cloned, operands
// first, at the start of the body; uses in nested regions use the clones;
// the originals stay. memref.dim of %m2 (not used in the body), arith.addi
// and arith.index_cast stay outside.
// CHECK-LABEL: func.func @basic(
// CHECK:         %[[D2:.*]] = memref.dim %m2
// CHECK-NEXT:    %[[ADD:.*]] = arith.addi
// CHECK-NEXT:    %[[CAST:.*]] = arith.index_cast
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[D:.*]] = memref.dim %m, %[[C0]] : memref<?xf32>
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[D]] step %[[C1]] {
// CHECK:           "test.use"(%[[D2]], %[[ADD]], %[[CAST]])
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

// cmpi/select chains sink when every operand can; %sel2 cannot (%x is not
// used in the body), but the cmpi and constant checked for it on the way are
// sunk anyway (unused), as in MLIR.
// CHECK-LABEL: func.func @select_cmpi(
// CHECK:         %[[SEL2:.*]] = arith.select %{{.*}}, %x, %c5 : index
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[CMP:.*]] = arith.cmpi slt, %[[C1]], %[[C5]] : index
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[CMP]], %[[C1]], %[[C5]] : index
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %{{.*}} = arith.cmpi slt, %[[C0]], %[[C5]] : index
// CHECK-NEXT:      "test.use"(%[[SEL]], %[[SEL2]]) : (index, index) -> ()
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

// An operand the body already uses is available: the select sinks.
// CHECK-LABEL: func.func @available(
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %c, %x, %[[C5]] : index
// CHECK-NEXT:      "test.use"(%c, %x, %[[SEL]])
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

// Nested launches: the inner one first, then the outer one, which takes the
// inner launch's size %c8 as well.
// CHECK-LABEL: func.func @nested(
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT:      gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[C8]],
// CHECK-NEXT:        %[[C7I:.*]] = arith.constant 7 : index
// CHECK-NEXT:        "test.use"(%[[C7I]])
// CHECK:           "test.use"(%[[C7]])
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
  return
}

// -----

// Sizes are launch operands, not body uses: nothing sinks.
// CHECK-LABEL: func.func @sizes_only(
// CHECK:         gpu.launch
// CHECK-NEXT:      "test.use"(%n)
func.func @sizes_only(%n: index) {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c1, %sz = %c1) {
    "test.use"(%n) : (index) -> ()
    gpu.terminator
  }
  return
}
