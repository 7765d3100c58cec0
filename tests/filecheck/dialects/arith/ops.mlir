// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// arith ops where xDSL 0.75 reads, prints or verifies them otherwise than
// MLIR 22 (comparisons and selects on vectors, casts of vectors, remf,
// index_castui, rounding modes, fastmath and overflow flags); the printed
// lines are mlir-opt 22's spelling (with-mlir/arith-ops.mlir checks them).

func.func @compare_select(%a: f32, %b: f32, %i: i32, %j: i32, %x: index, %va: vector<4xf32>, %vb: vector<4xf32>, %vi: vector<4xi32>, %c: i1) {
  %0 = arith.cmpi slt, %vi, %vi : vector<4xi32>
  %1 = arith.cmpf olt, %va, %vb : vector<4xf32>
  %2 = arith.cmpf une, %va, %vb fastmath<nnan> : vector<4xf32>
  %3 = arith.cmpi eq, %x, %x {tag} : index
  %4 = arith.cmpf olt, %a, %b fastmath<fast> : f32
  %5 = arith.select %0, %va, %vb : vector<4xi1>, vector<4xf32>
  %6 = arith.select %c, %va, %vb : vector<4xf32>
  %7 = arith.select %c, %i, %j {tag} : i32
  return
}

func.func @flags(%a: f32, %b: f32, %i: i32, %j: i32) {
  %0 = arith.addi %i, %j overflow<nsw> : i32
  %1 = arith.shli %i, %j overflow<nuw> : i32
  %2 = arith.addf %a, %b fastmath<nnan,ninf> : f32
  %3 = arith.remf %a, %b : f32
  %4 = arith.remf %a, %b fastmath<fast> : f32
  %5 = arith.negf %a fastmath<contract> : f32
  %6 = arith.trunci %i overflow<nsw> : i32 to i16
  %7 = arith.trunci %i : i32 to i8
  %8 = arith.truncf %a to_nearest_even : f32 to f16
  %9 = arith.truncf %a downward fastmath<fast> : f32 to f16
  %10 = arith.truncf %a : f32 to f16
  %11 = arith.extf %10 fastmath<fast> : f16 to f32
  %12 = arith.extf %10 : f16 to f64
  %13 = arith.muli %i, %j overflow<nsw, nuw> : i32
  %14 = arith.subi %i, %j overflow<nsw,nuw> : i32
  return
}

func.func @casts(%i: vector<4xi32>, %s: i32, %x: index) {
  %0 = arith.sitofp %i : vector<4xi32> to vector<4xf32>
  %1 = arith.uitofp %i : vector<4xi32> to vector<4xf32>
  %2 = arith.fptosi %0 : vector<4xf32> to vector<4xi32>
  %3 = arith.fptoui %0 : vector<4xf32> to vector<4xi32>
  %4 = arith.extsi %i : vector<4xi32> to vector<4xi64>
  %5 = arith.extui %i : vector<4xi32> to vector<4xi64>
  %6 = arith.trunci %i : vector<4xi32> to vector<4xi8>
  %7 = arith.index_cast %i : vector<4xi32> to vector<4xindex>
  %8 = arith.index_castui %i : vector<4xi32> to vector<4xindex>
  %9 = arith.index_castui %x : index to i32
  %10 = arith.index_cast %s : i32 to index
  %11 = arith.bitcast %i : vector<4xi32> to vector<4xf32>
  %12 = arith.truncf %0 : vector<4xf32> to vector<4xf16>
  %13 = arith.extf %12 : vector<4xf16> to vector<4xf32>
  return
}

func.func @extended(%i: i32, %v: vector<4xi32>) {
  %0:2 = arith.addui_extended %i, %i : i32, i1
  %1:2 = arith.addui_extended %v, %v : vector<4xi32>, vector<4xi1>
  %2:2 = arith.mulsi_extended %v, %v : vector<4xi32>
  %3:2 = arith.mului_extended %i, %i : i32
  return
}

// CHECK-LABEL: func.func @compare_select(%a: f32, %b: f32, %i: i32, %j: i32, %x: index, %va: vector<4xf32>, %vb: vector<4xf32>, %vi: vector<4xi32>, %c: i1) {
// CHECK-NEXT:    %0 = arith.cmpi slt, %vi, %vi : vector<4xi32>
// CHECK-NEXT:    %1 = arith.cmpf olt, %va, %vb : vector<4xf32>
// CHECK-NEXT:    %2 = arith.cmpf une, %va, %vb fastmath<nnan> : vector<4xf32>
// CHECK-NEXT:    %3 = arith.cmpi eq, %x, %x {tag} : index
// CHECK-NEXT:    %4 = arith.cmpf olt, %a, %b fastmath<fast> : f32
// CHECK-NEXT:    %5 = arith.select %0, %va, %vb : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %6 = arith.select %c, %va, %vb : vector<4xf32>
// CHECK-NEXT:    %7 = arith.select %c, %i, %j {tag} : i32
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @flags(%a: f32, %b: f32, %i: i32, %j: i32) {
// CHECK-NEXT:    %0 = arith.addi %i, %j overflow<nsw> : i32
// CHECK-NEXT:    %1 = arith.shli %i, %j overflow<nuw> : i32
// CHECK-NEXT:    %2 = arith.addf %a, %b fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %3 = arith.remf %a, %b : f32
// CHECK-NEXT:    %4 = arith.remf %a, %b fastmath<fast> : f32
// CHECK-NEXT:    %5 = arith.negf %a fastmath<contract> : f32
// CHECK-NEXT:    %6 = arith.trunci %i overflow<nsw> : i32 to i16
// CHECK-NEXT:    %7 = arith.trunci %i : i32 to i8
// CHECK-NEXT:    %8 = arith.truncf %a to_nearest_even : f32 to f16
// CHECK-NEXT:    %9 = arith.truncf %a downward fastmath<fast> : f32 to f16
// CHECK-NEXT:    %10 = arith.truncf %a : f32 to f16
// CHECK-NEXT:    %11 = arith.extf %10 fastmath<fast> : f16 to f32
// CHECK-NEXT:    %12 = arith.extf %10 : f16 to f64
// CHECK-NEXT:    %13 = arith.muli %i, %j overflow<nsw, nuw> : i32
// CHECK-NEXT:    %14 = arith.subi %i, %j overflow<nsw, nuw> : i32
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @casts(%i: vector<4xi32>, %s: i32, %x: index) {
// CHECK-NEXT:    %0 = arith.sitofp %i : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %1 = arith.uitofp %i : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %2 = arith.fptosi %0 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %3 = arith.fptoui %0 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %4 = arith.extsi %i : vector<4xi32> to vector<4xi64>
// CHECK-NEXT:    %5 = arith.extui %i : vector<4xi32> to vector<4xi64>
// CHECK-NEXT:    %6 = arith.trunci %i : vector<4xi32> to vector<4xi8>
// CHECK-NEXT:    %7 = arith.index_cast %i : vector<4xi32> to vector<4xindex>
// CHECK-NEXT:    %8 = arith.index_castui %i : vector<4xi32> to vector<4xindex>
// CHECK-NEXT:    %9 = arith.index_castui %x : index to i32
// CHECK-NEXT:    %10 = arith.index_cast %s : i32 to index
// CHECK-NEXT:    %11 = arith.bitcast %i : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %12 = arith.truncf %0 : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    %13 = arith.extf %12 : vector<4xf16> to vector<4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @extended(%i: i32, %v: vector<4xi32>) {
// CHECK-NEXT:    %sum, %overflow = arith.addui_extended %i, %i : i32, i1
// CHECK-NEXT:    %sum_0, %overflow_1 = arith.addui_extended %v, %v : vector<4xi32>, vector<4xi1>
// CHECK-NEXT:    %low, %high = arith.mulsi_extended %v, %v : vector<4xi32>
// CHECK-NEXT:    %low_2, %high_3 = arith.mului_extended %i, %i : i32
// CHECK-NEXT:    func.return

// Comparisons on vectors give i1 vectors; select keeps its condition type.
// GENERIC: "arith.cmpi"(%vi, %vi) <{predicate = 2 : i64}> : (vector<4xi32>, vector<4xi32>) -> vector<4xi1>
// GENERIC: "arith.cmpf"(%va, %vb) <{fastmath = #arith.fastmath<nnan>, predicate = 13 : i64}> : (vector<4xf32>, vector<4xf32>) -> vector<4xi1>
// GENERIC: "arith.select"(%0, %va, %vb) : (vector<4xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC: "arith.select"(%c, %va, %vb) : (i1, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// GENERIC: "arith.remf"(%a, %b) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
// GENERIC: "arith.trunci"(%i) <{overflowFlags = #arith.overflow<nsw>}> : (i32) -> i16
// GENERIC: "arith.trunci"(%i) <{overflowFlags = #arith.overflow<none>}> : (i32) -> i8
// GENERIC: "arith.truncf"(%a) <{roundingmode = 0 : i32}> : (f32) -> f16
// GENERIC: "arith.truncf"(%a) <{fastmath = #arith.fastmath<fast>, roundingmode = 1 : i32}> : (f32) -> f16
// GENERIC: "arith.truncf"(%a) : (f32) -> f16
// GENERIC: "arith.extf"(%{{.*}}) <{fastmath = #arith.fastmath<fast>}> : (f16) -> f32
// GENERIC: "arith.extf"(%{{.*}}) : (f16) -> f64
// GENERIC: "arith.index_castui"(%i) : (vector<4xi32>) -> vector<4xindex>
// GENERIC: %sum_0, %overflow_1 = "arith.addui_extended"(%v, %v) : (vector<4xi32>, vector<4xi32>) -> (vector<4xi32>, vector<4xi1>)
