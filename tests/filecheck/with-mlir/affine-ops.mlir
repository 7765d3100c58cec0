// RUN: %mlir-diff %s
// RUN: %mlir-opt %s | filecheck %s
// RUN: xgpu-opt %s | filecheck %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The affine ops as mlir-opt 22 prints them (the CHECK lines are its output,
// with value names left open): xgpu-opt must print the same text.

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
// CHECK-NEXT: #map6 = affine_map<(d0) -> (d0 + 1)>
// CHECK-NEXT: #map7 = affine_map<()[s0] -> (s0 + 1)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 - 10 == 0)>
// CHECK-NEXT: #set1 = affine_set<(d0) : (d0 >= 0)>
// CHECK-NEXT: #set2 = affine_set<(d0) : (d0 - 1 >= 0)>
// CHECK:      func.func @f(%{{[a-zA-Z0-9_]+}}: memref<16x16xf32>, %{{[a-zA-Z0-9_]+}}: index, %{{[a-zA-Z0-9_]+}}: index, %{{[a-zA-Z0-9_]+}}: vector<4xf32>) -> f32 {
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = arith.constant 0 : index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.apply #map(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}]
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.apply #map1()
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.min #map2(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}]
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.max #map3(%{{[a-zA-Z0-9_]+}})
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: affine.for %{{[a-zA-Z0-9_]+}} = 0 to 16 {
// CHECK-NEXT: affine.for %{{[a-zA-Z0-9_]+}} = max #map4(%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}) to min #map5(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}] step 2 {
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.load %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}} + 1, %{{[a-zA-Z0-9_]+}} * 2 + symbol(%{{[a-zA-Z0-9_]+}})] : memref<16x16xf32>
// CHECK-NEXT: affine.store %{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}] : memref<16x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{[a-zA-Z0-9_]+}} = %{{[a-zA-Z0-9_]+}} to %{{[a-zA-Z0-9_]+}} {
// CHECK-NEXT: }
// CHECK-NEXT: affine.for %{{[a-zA-Z0-9_]+}} = #map(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}] to 20 {
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.for %{{[a-zA-Z0-9_]+}} = 0 to 16 iter_args(%{{[a-zA-Z0-9_]+}} = %{{[a-zA-Z0-9_]+}}) -> (f32) {
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.load %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, 0] : memref<16x16xf32>
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = arith.addf %{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}} : f32
// CHECK-NEXT: affine.yield %{{[a-zA-Z0-9_]+}} : f32
// CHECK-NEXT: }
// CHECK-NEXT: affine.if #set(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}] {
// CHECK-NEXT: affine.store %{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}[0, 0] : memref<16x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.if #set1(%{{[a-zA-Z0-9_]+}}) -> f32 {
// CHECK-NEXT: affine.yield %{{[a-zA-Z0-9_]+}} : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: affine.yield %{{[a-zA-Z0-9_]+}} : f32
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel (%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}) = (0, 0) to (16, 16) step (2, 4) {
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.load %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}] : memref<16x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}}:2 = affine.parallel (%{{[a-zA-Z0-9_]+}}) = (max(0, %{{[a-zA-Z0-9_]+}})) to (min(%{{[a-zA-Z0-9_]+}}, 16)) reduce ("addf", "maximumf") -> (f32, f32) {
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.load %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}] : memref<16x16xf32>
// CHECK-NEXT: affine.yield %{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}} : f32, f32
// CHECK-NEXT: }
// CHECK-NEXT: affine.parallel (%{{[a-zA-Z0-9_]+}}) = (%{{[a-zA-Z0-9_]+}}) to (symbol(%{{[a-zA-Z0-9_]+}}) + 1) {
// CHECK-NEXT: }
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}}:2 = affine.delinearize_index %{{[a-zA-Z0-9_]+}} into (4, 4) : index, index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}}:3 = affine.delinearize_index %{{[a-zA-Z0-9_]+}} into (%{{[a-zA-Z0-9_]+}}, 4, 4) : index, index, index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}}:2 = affine.delinearize_index %{{[a-zA-Z0-9_]+}} into (4) : index, index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.linearize_index [%{{[a-zA-Z0-9_]+}}#0, %{{[a-zA-Z0-9_]+}}#1] by (4, 4) : index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.linearize_index disjoint [%{{[a-zA-Z0-9_]+}}#0, %{{[a-zA-Z0-9_]+}}#1] by (%{{[a-zA-Z0-9_]+}}, 4) : index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.linearize_index [%{{[a-zA-Z0-9_]+}}#0, %{{[a-zA-Z0-9_]+}}#1] by (4) : index
// CHECK-NEXT: %{{[a-zA-Z0-9_]+}} = affine.vector_load %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}] : memref<16x16xf32>, vector<4xf32>
// CHECK-NEXT: affine.vector_store %{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}} + 4] : memref<16x16xf32>, vector<4xf32>

// Values that are valid dimensions and symbols of affine accesses (MLIR's
// isValidDim/isValidSymbol): kernel values, constants, memref.dim, affine.apply,
// values from around a non-isolated op.
gpu.module @k {
  gpu.func @f(%m: memref<16xf32>, %n: index) kernel {
    %t = gpu.thread_id x
    affine.for %i = 0 to 4 {
      %x = affine.load %m[%t + %i + symbol(%n) + symbol(%t)] : memref<16xf32>
    }
    gpu.return
  }
}
func.func @g(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  affine.for %i = 0 to 4 {
    %d = memref.dim %m, %c0 : memref<?xf32>
    %c = arith.constant 3 : index
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    %b = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%n]
    %x = affine.load %m[%a + symbol(%d) + symbol(%c) + symbol(%b)] : memref<?xf32>
    affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%i) {
      %y = affine.load %m[%i + symbol(%n)] : memref<?xf32>
    }
  }
  return
}
