// RUN: %mlir-diff %s
// RUN: %mlir-opt %s | xgpu-opt | filecheck %s --strict-whitespace
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The vector ops of GPU programs against mlir-opt 22: both tools agree on the
// custom and generic forms, and xgpu prints mlir-opt's own output back
// byte for byte (the CHECK lines are mlir-opt 22's output).

func.func @print(%v: vector<4xf32>, %s: f32, %i: index) {
  vector.print %v : vector<4xf32>
  vector.print %s : f32 punctuation <comma>
  vector.print %i : index punctuation <open> {tag}
  vector.print punctuation <close>
  vector.print punctuation <newline>
  vector.print str "hello\n"
  vector.print %v : vector<4xf32> punctuation <no_punctuation>
  return
}

func.func @values(%a: vector<2x4xf32>, %v: vector<4xf32>, %w: vector<4xf32>, %s: f32, %z: vector<f32>) {
  %0 = vector.shape_cast %a : vector<2x4xf32> to vector<8xf32>
  %1 = vector.shape_cast %z : vector<f32> to vector<1xf32>
  %2 = vector.from_elements %s, %s, %s, %s : vector<4xf32>
  %3 = vector.from_elements %s : vector<f32>
  %4 = vector.step : vector<4xindex>
  %5 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %6 = vector.broadcast %s : f32 to vector<4xf32>
  %7 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  %8 = vector.fma %v, %w, %v : vector<4xf32>
  %9 = vector.bitcast %v : vector<4xf32> to vector<8xf16>
  %10 = vector.interleave %v, %w : vector<4xf32> -> vector<8xf32>
  %11, %12 = vector.deinterleave %10 : vector<8xf32> -> vector<4xf32>
  %13 = vector.shuffle %v, %w [0, 5, -1] : vector<4xf32>, vector<4xf32>
  return
}

func.func @masks(%i: index, %j: index) {
  %0 = vector.constant_mask [2] : vector<4xi1>
  %1 = vector.constant_mask [3, 2] : vector<4x3xi1>
  %2 = vector.create_mask %i : vector<4xi1>
  %3 = vector.create_mask %i, %j {tag} : vector<4x3xi1>
  return
}

func.func @positions(%a: vector<2x4xf32>, %v: vector<4xf32>, %s: f32, %i: index, %j: index) {
  %0 = vector.extract %a[%i, 2] : f32 from vector<2x4xf32>
  %1 = vector.extract %a[1] : vector<4xf32> from vector<2x4xf32>
  %2 = vector.extract %a[%i, %j] : f32 from vector<2x4xf32>
  %3 = vector.insert %s, %a [%i, %j] : f32 into vector<2x4xf32>
  %4 = vector.insert %v, %a [0] : vector<4xf32> into vector<2x4xf32>
  %5 = vector.insert %s, %a [1, %j] : f32 into vector<2x4xf32>
  return
}

func.func @slices(%a: vector<2x4xf32>, %b: vector<2x2xf32>, %c: vector<2xf32>) {
  %0 = vector.extract_strided_slice %a {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  %1 = vector.extract_strided_slice %a {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
  %2 = vector.insert_strided_slice %b, %a {offsets = [0, 2], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
  %3 = vector.insert_strided_slice %c, %a {offsets = [1, 0], strides = [1], tag} : vector<2xf32> into vector<2x4xf32>
  return
}

func.func @reductions(%a: vector<2x4xf32>, %v: vector<4xf32>, %s: f32, %vi: vector<4xi32>, %si: i32) {
  %0 = vector.multi_reduction <add>, %a, %v [0] : vector<2x4xf32> to vector<4xf32>
  %1 = vector.multi_reduction <maximumf>, %a, %s [0, 1] : vector<2x4xf32> to f32
  %2 = vector.reduction <add>, %v : vector<4xf32> into f32
  %3 = vector.reduction <maximumf>, %v, %s fastmath<fast> : vector<4xf32> into f32
  %4 = vector.reduction <xor>, %vi, %si : vector<4xi32> into i32
  return
}

func.func @products(%v: vector<4xf32>, %w: vector<8xf32>, %s: f32, %acc: vector<4x8xf32>, %a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
  %0 = vector.outerproduct %v, %w : vector<4xf32>, vector<8xf32>
  %1 = vector.outerproduct %v, %w, %acc : vector<4xf32>, vector<8xf32>
  %2 = vector.outerproduct %v, %w, %acc {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
  %3 = vector.outerproduct %v, %s : vector<4xf32>, f32
  %4 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  %5 = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<mul>} %v, %v, %s {tag} : vector<4xf32>, vector<4xf32> into f32
  return
}

func.func @memory(%m: memref<?x?xf32>, %i: index, %j: index, %v: vector<4xf32>, %s: f32, %mask: vector<4xi1>, %iv: vector<4xindex>) {
  %0 = vector.load %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
  %1 = vector.load %m[%i, %j] {alignment = 16, nontemporal = true} : memref<?x?xf32>, vector<4xf32>
  vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
  vector.store %v, %m[%i, %j] {alignment = 8} : memref<?x?xf32>, vector<4xf32>
  %2 = vector.maskedload %m[%i, %j], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.maskedstore %m[%i, %j], %mask, %v {alignment = 4} : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
  %3 = vector.gather %m[%i, %j] [%iv], %mask, %v : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.scatter %m[%i, %j] [%iv], %mask, %v {alignment = 4} : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  return
}

func.func @transfers(%m: memref<?x?xf32>, %i: index, %j: index, %v: vector<4xf32>, %s: f32, %mask: vector<4xi1>) {
  %0 = vector.transfer_read %m[%i, %j], %s : memref<?x?xf32>, vector<4xf32>
  %1 = vector.transfer_read %m[%i, %j], %s {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
  %2 = vector.transfer_read %m[%i, %j], %s, %mask : memref<?x?xf32>, vector<4xf32>
  %3 = vector.transfer_read %m[%i, %j], %s {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
  %4 = vector.transfer_read %m[%i, %j], %s {permutation_map = affine_map<(d0, d1) -> (0)>} : memref<?x?xf32>, vector<4xf32>
  vector.transfer_write %v, %m[%i, %j] : vector<4xf32>, memref<?x?xf32>
  vector.transfer_write %v, %m[%i, %j], %mask {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @print(%arg0: vector<4xf32>, %arg1: f32, %arg2: index) {
// CHECK-NEXT:    vector.print %arg0 : vector<4xf32>
// CHECK-NEXT:    vector.print %arg1 : f32 punctuation <comma>
// CHECK-NEXT:    vector.print %arg2 : index punctuation <open> {tag}
// CHECK-NEXT:    vector.print punctuation <close>
// CHECK-NEXT:    vector.print
// CHECK-NEXT:    vector.print str "hello\0A"
// CHECK-NEXT:    vector.print %arg0 : vector<4xf32> punctuation <no_punctuation>
// CHECK-LABEL: func.func @values(%arg0: vector<2x4xf32>, %arg1: vector<4xf32>, %arg2: vector<4xf32>, %arg3: f32, %arg4: vector<f32>) {
// CHECK-NEXT:    %0 = vector.shape_cast %arg0 : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:    %1 = vector.shape_cast %arg4 : vector<f32> to vector<1xf32>
// CHECK-NEXT:    %2 = vector.from_elements %arg3, %arg3, %arg3, %arg3 : vector<4xf32>
// CHECK-NEXT:    %3 = vector.from_elements %arg3 : vector<f32>
// CHECK-NEXT:    %4 = vector.step : vector<4xindex>
// CHECK-NEXT:    %5 = vector.transpose %arg0, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:    %6 = vector.broadcast %arg3 : f32 to vector<4xf32>
// CHECK-NEXT:    %7 = vector.broadcast %arg1 : vector<4xf32> to vector<3x4xf32>
// CHECK-NEXT:    %8 = vector.fma %arg1, %arg2, %arg1 : vector<4xf32>
// CHECK-NEXT:    %9 = vector.bitcast %arg1 : vector<4xf32> to vector<8xf16>
// CHECK-NEXT:    %10 = vector.interleave %arg1, %arg2 : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:    %res1, %res2 = vector.deinterleave %10 : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:    %11 = vector.shuffle %arg1, %arg2 [0, 5, -1] : vector<4xf32>, vector<4xf32>
// CHECK-LABEL: func.func @masks(%arg0: index, %arg1: index) {
// CHECK-NEXT:    %0 = vector.constant_mask [2] : vector<4xi1>
// CHECK-NEXT:    %1 = vector.constant_mask [3, 2] : vector<4x3xi1>
// CHECK-NEXT:    %2 = vector.create_mask %arg0 : vector<4xi1>
// CHECK-NEXT:    %3 = vector.create_mask %arg0, %arg1 {tag} : vector<4x3xi1>
// CHECK-LABEL: func.func @positions(%arg0: vector<2x4xf32>, %arg1: vector<4xf32>, %arg2: f32, %arg3: index, %arg4: index) {
// CHECK-NEXT:    %0 = vector.extract %arg0[%arg3, 2] : f32 from vector<2x4xf32>
// CHECK-NEXT:    %1 = vector.extract %arg0[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:    %2 = vector.extract %arg0[%arg3, %arg4] : f32 from vector<2x4xf32>
// CHECK-NEXT:    %3 = vector.insert %arg2, %arg0 [%arg3, %arg4] : f32 into vector<2x4xf32>
// CHECK-NEXT:    %4 = vector.insert %arg1, %arg0 [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:    %5 = vector.insert %arg2, %arg0 [1, %arg4] : f32 into vector<2x4xf32>
// CHECK-LABEL: func.func @slices(%arg0: vector<2x4xf32>, %arg1: vector<2x2xf32>, %arg2: vector<2xf32>) {
// CHECK-NEXT:    %0 = vector.extract_strided_slice %arg0 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
// CHECK-NEXT:    %1 = vector.extract_strided_slice %arg0 {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
// CHECK-NEXT:    %2 = vector.insert_strided_slice %arg1, %arg0 {offsets = [0, 2], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
// CHECK-NEXT:    %3 = vector.insert_strided_slice %arg2, %arg0 {offsets = [1, 0], strides = [1], tag} : vector<2xf32> into vector<2x4xf32>
// CHECK-LABEL: func.func @reductions(%arg0: vector<2x4xf32>, %arg1: vector<4xf32>, %arg2: f32, %arg3: vector<4xi32>, %arg4: i32) {
// CHECK-NEXT:    %0 = vector.multi_reduction <add>, %arg0, %arg1 [0] : vector<2x4xf32> to vector<4xf32>
// CHECK-NEXT:    %1 = vector.multi_reduction <maximumf>, %arg0, %arg2 [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:    %2 = vector.reduction <add>, %arg1 : vector<4xf32> into f32
// CHECK-NEXT:    %3 = vector.reduction <maximumf>, %arg1, %arg2 fastmath<fast> : vector<4xf32> into f32
// CHECK-NEXT:    %4 = vector.reduction <xor>, %arg3, %arg4 : vector<4xi32> into i32
// CHECK-LABEL: func.func @products(%arg0: vector<4xf32>, %arg1: vector<8xf32>, %arg2: f32, %arg3: vector<4x8xf32>, %arg4: vector<2x4xf32>, %arg5: vector<4x3xf32>, %arg6: vector<2x3xf32>) {
// CHECK-NEXT:    %0 = vector.outerproduct %arg0, %arg1 : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %1 = vector.outerproduct %arg0, %arg1, %arg3 {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %2 = vector.outerproduct %arg0, %arg1, %arg3 {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %3 = vector.outerproduct %arg0, %arg2 : vector<4xf32>, f32
// CHECK-NEXT:    %4 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %arg4, %arg5, %arg6 : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
// CHECK-NEXT:    %5 = vector.contract {indexing_maps = [#map3, #map3, #map4], iterator_types = ["reduction"], kind = #vector.kind<mul>} %arg0, %arg0, %arg2 {tag} : vector<4xf32>, vector<4xf32> into f32
// CHECK-LABEL: func.func @memory(%arg0: memref<?x?xf32>, %arg1: index, %arg2: index, %arg3: vector<4xf32>, %arg4: f32, %arg5: vector<4xi1>, %arg6: vector<4xindex>) {
// CHECK-NEXT:    %0 = vector.load %arg0[%arg1, %arg2] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %1 = vector.load %arg0[%arg1, %arg2] {alignment = 16 : i64, nontemporal = true} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.store %arg3, %arg0[%arg1, %arg2] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.store %arg3, %arg0[%arg1, %arg2] {alignment = 8 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %2 = vector.maskedload %arg0[%arg1, %arg2], %arg5, %arg3 : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:    vector.maskedstore %arg0[%arg1, %arg2], %arg5, %arg3 {alignment = 4 : i64} : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %3 = vector.gather %arg0[%arg1, %arg2] [%arg6], %arg5, %arg3 : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:    vector.scatter %arg0[%arg1, %arg2] [%arg6], %arg5, %arg3 {alignment = 4 : i64} : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
// CHECK-LABEL: func.func @transfers(%arg0: memref<?x?xf32>, %arg1: index, %arg2: index, %arg3: vector<4xf32>, %arg4: f32, %arg5: vector<4xi1>) {
// CHECK-NEXT:    %0 = vector.transfer_read %arg0[%arg1, %arg2], %arg4 : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %1 = vector.transfer_read %arg0[%arg1, %arg2], %arg4 {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %2 = vector.transfer_read %arg0[%arg1, %arg2], %arg4, %arg5 : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %3 = vector.transfer_read %arg0[%arg1, %arg2], %arg4 {permutation_map = #map5} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %4 = vector.transfer_read %arg0[%arg1, %arg2], %arg4 {permutation_map = #map6} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.transfer_write %arg3, %arg0[%arg1, %arg2] : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    vector.transfer_write %arg3, %arg0[%arg1, %arg2], %arg5 {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
