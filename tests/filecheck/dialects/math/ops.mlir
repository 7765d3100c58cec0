// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// math ops xDSL 0.75 lacks (erfc, isfinite/isinf/isnan/isnormal, sincos,
// clampf) and a few it has, in mlir-opt 22's spelling.

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

// CHECK-LABEL: func.func @math(%a: f32, %b: f32, %c: f32, %i: i32, %va: vector<4xf32>, %vi: vector<4xi32>) {
// CHECK-NEXT:    %0 = math.erfc %a : f32
// CHECK-NEXT:    %1 = math.erfc %va fastmath<fast> : vector<4xf32>
// CHECK-NEXT:    %2 = math.isfinite %a : f32
// CHECK-NEXT:    %3 = math.isinf %va : vector<4xf32>
// CHECK-NEXT:    %4 = math.isnan %a : f32
// CHECK-NEXT:    %5 = math.isnormal %a {tag} : f32
// CHECK-NEXT:    %sin, %cos = math.sincos %a : f32
// CHECK-NEXT:    %sin_0, %cos_1 = math.sincos %va fastmath<afn> : vector<4xf32>
// CHECK-NEXT:    %6 = math.clampf %a to [%b, %c] : f32
// CHECK-NEXT:    %7 = math.clampf %va to [%va, %va] fastmath<nnan> : vector<4xf32>
// CHECK-NEXT:    %8 = math.sqrt %va fastmath<fast> : vector<4xf32>
// CHECK-NEXT:    %9 = math.fpowi %a, %i : f32, i32
// CHECK-NEXT:    %10 = math.absi %vi : vector<4xi32>
// CHECK-NEXT:    %11 = math.fma %a, %b, %c : f32
// CHECK-NEXT:    %12 = math.copysign %a, %b fastmath<nnan> : f32
// CHECK-NEXT:    func.return

// GENERIC: "math.erfc"(%va) <{fastmath = #arith.fastmath<fast>}> : (vector<4xf32>) -> vector<4xf32>
// GENERIC: "math.isinf"(%va) <{fastmath = #arith.fastmath<none>}> : (vector<4xf32>) -> vector<4xi1>
// GENERIC: "math.isnan"(%a) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
// GENERIC: %sin, %cos = "math.sincos"(%a) <{fastmath = #arith.fastmath<none>}> : (f32) -> (f32, f32)
// GENERIC: "math.clampf"(%a, %b, %c) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
