// RUN: %mlir-diff %s
// RUN: %mlir-opt %s | xgpu-opt | filecheck %s --strict-whitespace
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// arith and math ops against mlir-opt 22: both tools agree on the custom and
// generic forms, and xgpu prints mlir-opt's own output back byte for byte
// (the CHECK lines are mlir-opt 22's output).

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

func.func @math(%a: f32, %b: f32, %c: f32, %i: i32, %va: vector<4xf32>, %vi: vector<4xi32>) {
  %0 = math.erfc %a : f32
  %1 = math.erfc %va fastmath<fast> : vector<4xf32>
  %2 = math.isfinite %a : f32
  %3 = math.isinf %va : vector<4xf32>
  %4 = math.isnan %a : f32
  %5 = math.isnormal %a {tag} : f32
  %6:2 = math.sincos %a : f32
  %7:2 = math.sincos %va fastmath<afn> : vector<4xf32>
  %8 = math.clampf %a to [%b, %c] : f32
  %9 = math.clampf %va to [%va, %va] fastmath<nnan> : vector<4xf32>
  %10 = math.sqrt %va fastmath<fast> : vector<4xf32>
  %11 = math.fpowi %a, %i : f32, i32
  %12 = math.absi %vi : vector<4xi32>
  %13 = math.fma %a, %b, %c : f32
  %14 = math.copysign %a, %b fastmath<nnan> : f32
  return
}

// CHECK-LABEL: func.func @compare_select(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: index, %arg5: vector<4xf32>, %arg6: vector<4xf32>, %arg7: vector<4xi32>, %arg8: i1) {
// CHECK-NEXT:    %0 = arith.cmpi slt, %arg7, %arg7 : vector<4xi32>
// CHECK-NEXT:    %1 = arith.cmpf olt, %arg5, %arg6 : vector<4xf32>
// CHECK-NEXT:    %2 = arith.cmpf une, %arg5, %arg6 fastmath<nnan> : vector<4xf32>
// CHECK-NEXT:    %3 = arith.cmpi eq, %arg4, %arg4 {tag} : index
// CHECK-NEXT:    %4 = arith.cmpf olt, %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %5 = arith.select %0, %arg5, %arg6 : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %6 = arith.select %arg8, %arg5, %arg6 : vector<4xf32>
// CHECK-NEXT:    %7 = arith.select %arg8, %arg2, %arg3 {tag} : i32
// CHECK-LABEL: func.func @flags(%arg0: f32, %arg1: f32, %arg2: i32, %arg3: i32) {
// CHECK-NEXT:    %0 = arith.addi %arg2, %arg3 overflow<nsw> : i32
// CHECK-NEXT:    %1 = arith.shli %arg2, %arg3 overflow<nuw> : i32
// CHECK-NEXT:    %2 = arith.addf %arg0, %arg1 fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %3 = arith.remf %arg0, %arg1 : f32
// CHECK-NEXT:    %4 = arith.remf %arg0, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %5 = arith.negf %arg0 fastmath<contract> : f32
// CHECK-NEXT:    %6 = arith.trunci %arg2 overflow<nsw> : i32 to i16
// CHECK-NEXT:    %7 = arith.trunci %arg2 : i32 to i8
// CHECK-NEXT:    %8 = arith.truncf %arg0 to_nearest_even : f32 to f16
// CHECK-NEXT:    %9 = arith.truncf %arg0 downward fastmath<fast> : f32 to f16
// CHECK-NEXT:    %10 = arith.truncf %arg0 : f32 to f16
// CHECK-NEXT:    %11 = arith.extf %10 fastmath<fast> : f16 to f32
// CHECK-NEXT:    %12 = arith.extf %10 : f16 to f64
// CHECK-NEXT:    %13 = arith.muli %arg2, %arg3 overflow<nsw, nuw> : i32
// CHECK-NEXT:    %14 = arith.subi %arg2, %arg3 overflow<nsw, nuw> : i32
// CHECK-LABEL: func.func @casts(%arg0: vector<4xi32>, %arg1: i32, %arg2: index) {
// CHECK-NEXT:    %0 = arith.sitofp %arg0 : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %1 = arith.uitofp %arg0 : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %2 = arith.fptosi %0 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %3 = arith.fptoui %0 : vector<4xf32> to vector<4xi32>
// CHECK-NEXT:    %4 = arith.extsi %arg0 : vector<4xi32> to vector<4xi64>
// CHECK-NEXT:    %5 = arith.extui %arg0 : vector<4xi32> to vector<4xi64>
// CHECK-NEXT:    %6 = arith.trunci %arg0 : vector<4xi32> to vector<4xi8>
// CHECK-NEXT:    %7 = arith.index_cast %arg0 : vector<4xi32> to vector<4xindex>
// CHECK-NEXT:    %8 = arith.index_castui %arg0 : vector<4xi32> to vector<4xindex>
// CHECK-NEXT:    %9 = arith.index_castui %arg2 : index to i32
// CHECK-NEXT:    %10 = arith.index_cast %arg1 : i32 to index
// CHECK-NEXT:    %11 = arith.bitcast %arg0 : vector<4xi32> to vector<4xf32>
// CHECK-NEXT:    %12 = arith.truncf %0 : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:    %13 = arith.extf %12 : vector<4xf16> to vector<4xf32>
// CHECK-LABEL: func.func @extended(%arg0: i32, %arg1: vector<4xi32>) {
// CHECK-NEXT:    %sum, %overflow = arith.addui_extended %arg0, %arg0 : i32, i1
// CHECK-NEXT:    %sum_0, %overflow_1 = arith.addui_extended %arg1, %arg1 : vector<4xi32>, vector<4xi1>
// CHECK-NEXT:    %low, %high = arith.mulsi_extended %arg1, %arg1 : vector<4xi32>
// CHECK-NEXT:    %low_2, %high_3 = arith.mului_extended %arg0, %arg0 : i32
// CHECK-LABEL: func.func @math(%arg0: f32, %arg1: f32, %arg2: f32, %arg3: i32, %arg4: vector<4xf32>, %arg5: vector<4xi32>) {
// CHECK-NEXT:    %0 = math.erfc %arg0 : f32
// CHECK-NEXT:    %1 = math.erfc %arg4 fastmath<fast> : vector<4xf32>
// CHECK-NEXT:    %2 = math.isfinite %arg0 : f32
// CHECK-NEXT:    %3 = math.isinf %arg4 : vector<4xf32>
// CHECK-NEXT:    %4 = math.isnan %arg0 : f32
// CHECK-NEXT:    %5 = math.isnormal %arg0 {tag} : f32
// CHECK-NEXT:    %sin, %cos = math.sincos %arg0 : f32
// CHECK-NEXT:    %sin_0, %cos_1 = math.sincos %arg4 fastmath<afn> : vector<4xf32>
// CHECK-NEXT:    %6 = math.clampf %arg0 to [%arg1, %arg2] : f32
// CHECK-NEXT:    %7 = math.clampf %arg4 to [%arg4, %arg4] fastmath<nnan> : vector<4xf32>
// CHECK-NEXT:    %8 = math.sqrt %arg4 fastmath<fast> : vector<4xf32>
// CHECK-NEXT:    %9 = math.fpowi %arg0, %arg3 : f32, i32
// CHECK-NEXT:    %10 = math.absi %arg5 : vector<4xi32>
// CHECK-NEXT:    %11 = math.fma %arg0, %arg1, %arg2 : f32
// CHECK-NEXT:    %12 = math.copysign %arg0, %arg1 fastmath<nnan> : f32
