// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every affine op in its custom form (as mlir-opt 22 prints it: bounds as
// constants, values or maps with min/max, subscripts with symbol(...), the
// implicit affine.yield elided) and in its generic form (MLIR's properties).

#map = affine_map<(d0)[s0] -> (d0 + s0)>
#lb = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 - 10 == 0)>
func.func @f(%m: memref<16x16xf32>, %n: index, %i0: index, %v: vector<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = affine.apply #map(%i0)[%n]
  %b = affine.apply affine_map<() -> (3)>()
  %mn = affine.min affine_map<(d0)[s0] -> (d0, s0, 16)>(%a)[%n]
  %mx = affine.max affine_map<(d0) -> (d0, 0)>(%a)
  %cst = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.for %j = max #lb(%i, %a) to min affine_map<(d0)[s0] -> (d0 + 4, s0)>(%i)[%n] step 2 {
      %x = affine.load %m[%i + 1, %j * 2 + symbol(%n)] : memref<16x16xf32>
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
    affine.for %j = %c0 to %n {
    }
    affine.for %j = #map(%i)[%n] to 20 {
    }
  }
  %s = affine.for %i = 0 to 16 iter_args(%acc = %cst) -> (f32) {
    %x = affine.load %m[%i, 0] : memref<16x16xf32>
    %y = arith.addf %acc, %x : f32
    affine.yield %y : f32
  }
  affine.if #set(%i0)[%n] {
    affine.store %s, %m[0, 0] : memref<16x16xf32>
  }
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%i0) -> f32 {
    affine.yield %s : f32
  } else {
    affine.yield %cst : f32
  }
  affine.parallel (%i, %j) = (0, 0) to (16, 16) step (2, 4) {
    %x = affine.load %m[%i, %j] : memref<16x16xf32>
  }
  %red:2 = affine.parallel (%i) = (max(0, %c0)) to (min(%n, 16)) reduce ("addf", "maximumf") -> (f32, f32) {
    %x = affine.load %m[%i, %i] : memref<16x16xf32>
    affine.yield %x, %x : f32, f32
  }
  affine.parallel (%i) = (%c0) to (symbol(%n) + 1) {
  }
  %d:2 = affine.delinearize_index %a into (4, 4) : index, index
  %d2:3 = affine.delinearize_index %a into (%n, 4, 4) : index, index, index
  %d3:2 = affine.delinearize_index %a into (4) : index, index
  %l = affine.linearize_index [%d#0, %d#1] by (4, 4) : index
  %l2 = affine.linearize_index disjoint [%d#0, %d#1] by (%n, 4) : index
  %l3 = affine.linearize_index [%d#0, %d#1] by (4) : index
  %vl = affine.vector_load %m[%i0, %c0] : memref<16x16xf32>, vector<4xf32>
  affine.vector_store %v, %m[%i0, %c0 + 4] : memref<16x16xf32>, vector<4xf32>
  return %r : f32
}

// CHECK:      #map = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-NEXT: #map1 = affine_map<() -> (3)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (d0, s0, 16)>
// CHECK-NEXT: #map3 = affine_map<(d0) -> (d0, 0)>
// CHECK-NEXT: #map4 = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-NEXT: #map5 = affine_map<(d0)[s0] -> (d0 + 4, s0)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 - 10 == 0)>
// CHECK-NEXT: #set1 = affine_set<(d0) : (d0 >= 0)>
// CHECK:      func.func @f(%m: memref<16x16xf32>, %n: index, %i0: index, %v: vector<4xf32>) -> f32 {
// CHECK-NEXT:   %c0 = arith.constant 0 : index
// CHECK-NEXT:   %a = affine.apply #map(%i0)[%n]
// CHECK-NEXT:   %b = affine.apply #map1()
// CHECK-NEXT:   %mn = affine.min #map2(%a)[%n]
// CHECK-NEXT:   %mx = affine.max #map3(%a)
// CHECK-NEXT:   %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   affine.for %i = 0 to 16 {
// CHECK-NEXT:     affine.for %j = max #map4(%i, %a) to min #map5(%i)[%n] step 2 {
// CHECK-NEXT:       %x = affine.load %m[%i + 1, %j * 2 + symbol(%n)] : memref<16x16xf32>
// CHECK-NEXT:       affine.store %x, %m[%i, %j] : memref<16x16xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     affine.for %j = %c0 to %n {
// CHECK-NEXT:     }
// CHECK-NEXT:     affine.for %j = #map(%i)[%n] to 20 {
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %s = affine.for %i = 0 to 16 iter_args(%acc = %cst) -> (f32) {
// CHECK-NEXT:     %x = affine.load %m[%i, 0] : memref<16x16xf32>
// CHECK-NEXT:     %y = arith.addf %acc, %x : f32
// CHECK-NEXT:     affine.yield %y : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   affine.if #set(%i0)[%n] {
// CHECK-NEXT:     affine.store %s, %m[0, 0] : memref<16x16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   %r = affine.if #set1(%i0) -> f32 {
// CHECK-NEXT:     affine.yield %s : f32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     affine.yield %cst : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   affine.parallel (%i, %j) = (0, 0) to (16, 16) step (2, 4) {
// CHECK-NEXT:     %x = affine.load %m[%i, %j] : memref<16x16xf32>
// CHECK-NEXT:   }
// CHECK-NEXT:   %red:2 = affine.parallel (%i) = (max(0, %c0)) to (min(%n, 16)) reduce ("addf", "maximumf") -> (f32, f32) {
// CHECK-NEXT:     %x = affine.load %m[%i, %i] : memref<16x16xf32>
// CHECK-NEXT:     affine.yield %x, %x : f32, f32
// CHECK-NEXT:   }
// CHECK-NEXT:   affine.parallel (%i) = (%c0) to (symbol(%n) + 1) {
// CHECK-NEXT:   }
// CHECK-NEXT:   %d:2 = affine.delinearize_index %a into (4, 4) : index, index
// CHECK-NEXT:   %d2:3 = affine.delinearize_index %a into (%n, 4, 4) : index, index, index
// CHECK-NEXT:   %d3:2 = affine.delinearize_index %a into (4) : index, index
// CHECK-NEXT:   %l = affine.linearize_index [%d#0, %d#1] by (4, 4) : index
// CHECK-NEXT:   %l2 = affine.linearize_index disjoint [%d#0, %d#1] by (%n, 4) : index
// CHECK-NEXT:   %l3 = affine.linearize_index [%d#0, %d#1] by (4) : index
// CHECK-NEXT:   %vl = affine.vector_load %m[%i0, %c0] : memref<16x16xf32>, vector<4xf32>
// CHECK-NEXT:   affine.vector_store %v, %m[%i0, %c0 + 4] : memref<16x16xf32>, vector<4xf32>

// GENERIC-DAG: #map1 = affine_map<() -> (3)>
// GENERIC-DAG: #map9 = affine_map<() -> (0)>
// GENERIC-DAG: #map10 = affine_map<() -> (16)>
// GENERIC: %a = "affine.apply"(%i0, %n) <{map = #map}> : (index, index) -> index
// GENERIC: %b = "affine.apply"() <{map = #map1}> : () -> index
// GENERIC: %mn = "affine.min"(%a, %n) <{map = #map2}> : (index, index) -> index
// GENERIC: %mx = "affine.max"(%a) <{map = #map3}> : (index) -> index
// GENERIC: "affine.for"() <{lowerBoundMap = #map9, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = #map10}> ({
// GENERIC: "affine.for"(%i, %a, %i, %n) <{lowerBoundMap = #map5, operandSegmentSizes = array<i32: 2, 2, 0>, step = 2 : index, upperBoundMap = #map6}> ({
// GENERIC: %x = "affine.load"(%m, %i, %j, %n) <{map = #map4}> : (memref<16x16xf32>, index, index, index) -> f32
// GENERIC: "affine.store"(%x, %m, %i, %j) <{map = #map5}> : (f32, memref<16x16xf32>, index, index) -> ()
// GENERIC: "affine.for"(%c0, %n) <{lowerBoundMap = #map7, operandSegmentSizes = array<i32: 1, 1, 0>, step = 1 : index, upperBoundMap = #map7}> ({
// GENERIC: "affine.for"(%i, %n) <{lowerBoundMap = #map, operandSegmentSizes = array<i32: 2, 0, 0>, step = 1 : index, upperBoundMap = #map8}> ({
// GENERIC: %s = "affine.for"(%cst) <{lowerBoundMap = #map9, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = #map10}> ({
// GENERIC: "affine.if"(%i0, %n) <{condition = #set}> ({
// GENERIC: %r = "affine.if"(%i0) <{condition = #set1}> ({
// GENERIC: "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = #map11, reductions = [], steps = [2, 4], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = #map12}> ({
// GENERIC: %x = "affine.load"(%m, %i, %j) <{map = #map5}> : (memref<16x16xf32>, index, index) -> f32
// GENERIC: %red:2 = "affine.parallel"(%c0, %n) <{lowerBoundsGroups = dense<2> : tensor<1xi32>, lowerBoundsMap = #map14, reductions = [0, 4], steps = [1], upperBoundsGroups = dense<2> : tensor<1xi32>, upperBoundsMap = #map15}> ({
// GENERIC: "affine.parallel"(%c0, %n) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = #map16, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = #map17}> ({
// GENERIC: %d:2 = "affine.delinearize_index"(%a) <{static_basis = array<i64: 4, 4>}> : (index) -> (index, index)
// GENERIC: %d2:3 = "affine.delinearize_index"(%a, %n) <{static_basis = array<i64: -9223372036854775808, 4, 4>}> : (index, index) -> (index, index, index)
// GENERIC: %d3:2 = "affine.delinearize_index"(%a) <{static_basis = array<i64: 4>}> : (index) -> (index, index)
// GENERIC: %l = "affine.linearize_index"(%d#0, %d#1) <{disjoint = false, operandSegmentSizes = array<i32: 2, 0>, static_basis = array<i64: 4, 4>}> : (index, index) -> index
// GENERIC: %l2 = "affine.linearize_index"(%d#0, %d#1, %n) <{disjoint, operandSegmentSizes = array<i32: 2, 1>, static_basis = array<i64: -9223372036854775808, 4>}> : (index, index, index) -> index
// GENERIC: %l3 = "affine.linearize_index"(%d#0, %d#1) <{disjoint = false, operandSegmentSizes = array<i32: 2, 0>, static_basis = array<i64: 4>}> : (index, index) -> index
// GENERIC: %vl = "affine.vector_load"(%m, %i0, %c0) <{map = #map5}> : (memref<16x16xf32>, index, index) -> vector<4xf32>
// GENERIC: "affine.vector_store"(%v, %m, %i0, %c0) <{map = #map18}> : (vector<4xf32>, memref<16x16xf32>, index, index) -> ()

// A generic affine.linearize_index without `disjoint` has MLIR's false value.
func.func @generic_linearize(%i: index) -> index {
  %l = "affine.linearize_index"(%i) <{operandSegmentSizes = array<i32: 1, 0>, static_basis = array<i64: 4>}> : (index) -> index
  return %l : index
}
// CHECK:      func.func @generic_linearize(%i: index) -> index {
// CHECK-NEXT:   %l = affine.linearize_index [%i] by (4) : index
// GENERIC:      "affine.linearize_index"(%i) <{disjoint = false, operandSegmentSizes = array<i32: 1, 0>, static_basis = array<i64: 4>}> : (index) -> index
