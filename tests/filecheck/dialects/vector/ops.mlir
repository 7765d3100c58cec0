// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The vector ops of GPU programs in MLIR 22's custom syntax, every optional
// element once; the printed lines are mlir-opt 22's spelling (checked against
// it by with-mlir/vector-ops.mlir).

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

// CHECK-LABEL: func.func @print(%v: vector<4xf32>, %s: f32, %i: index) {
// CHECK-NEXT:    vector.print %v : vector<4xf32>
// CHECK-NEXT:    vector.print %s : f32 punctuation <comma>
// CHECK-NEXT:    vector.print %i : index punctuation <open> {tag}
// CHECK-NEXT:    vector.print punctuation <close>
// CHECK-NEXT:    vector.print
// CHECK-NEXT:    vector.print str "hello\0A"
// CHECK-NEXT:    vector.print %v : vector<4xf32> punctuation <no_punctuation>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @values(%a: vector<2x4xf32>, %v: vector<4xf32>, %w: vector<4xf32>, %s: f32, %z: vector<f32>) {
// CHECK-NEXT:    %0 = vector.shape_cast %a : vector<2x4xf32> to vector<8xf32>
// CHECK-NEXT:    %1 = vector.shape_cast %z : vector<f32> to vector<1xf32>
// CHECK-NEXT:    %2 = vector.from_elements %s, %s, %s, %s : vector<4xf32>
// CHECK-NEXT:    %3 = vector.from_elements %s : vector<f32>
// CHECK-NEXT:    %4 = vector.step : vector<4xindex>
// CHECK-NEXT:    %5 = vector.transpose %a, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
// CHECK-NEXT:    %6 = vector.broadcast %s : f32 to vector<4xf32>
// CHECK-NEXT:    %7 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
// CHECK-NEXT:    %8 = vector.fma %v, %w, %v : vector<4xf32>
// CHECK-NEXT:    %9 = vector.bitcast %v : vector<4xf32> to vector<8xf16>
// CHECK-NEXT:    %10 = vector.interleave %v, %w : vector<4xf32> -> vector<8xf32>
// CHECK-NEXT:    %res1, %res2 = vector.deinterleave %10 : vector<8xf32> -> vector<4xf32>
// CHECK-NEXT:    %11 = vector.shuffle %v, %w [0, 5, -1] : vector<4xf32>, vector<4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @masks(%i: index, %j: index) {
// CHECK-NEXT:    %0 = vector.constant_mask [2] : vector<4xi1>
// CHECK-NEXT:    %1 = vector.constant_mask [3, 2] : vector<4x3xi1>
// CHECK-NEXT:    %2 = vector.create_mask %i : vector<4xi1>
// CHECK-NEXT:    %3 = vector.create_mask %i, %j {tag} : vector<4x3xi1>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @positions(%a: vector<2x4xf32>, %v: vector<4xf32>, %s: f32, %i: index, %j: index) {
// CHECK-NEXT:    %0 = vector.extract %a[%i, 2] : f32 from vector<2x4xf32>
// CHECK-NEXT:    %1 = vector.extract %a[1] : vector<4xf32> from vector<2x4xf32>
// CHECK-NEXT:    %2 = vector.extract %a[%i, %j] : f32 from vector<2x4xf32>
// CHECK-NEXT:    %3 = vector.insert %s, %a [%i, %j] : f32 into vector<2x4xf32>
// CHECK-NEXT:    %4 = vector.insert %v, %a [0] : vector<4xf32> into vector<2x4xf32>
// CHECK-NEXT:    %5 = vector.insert %s, %a [1, %j] : f32 into vector<2x4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @slices(%a: vector<2x4xf32>, %b: vector<2x2xf32>, %c: vector<2xf32>) {
// CHECK-NEXT:    %0 = vector.extract_strided_slice %a {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
// CHECK-NEXT:    %1 = vector.extract_strided_slice %a {offsets = [1], sizes = [1], strides = [1]} : vector<2x4xf32> to vector<1x4xf32>
// CHECK-NEXT:    %2 = vector.insert_strided_slice %b, %a {offsets = [0, 2], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
// CHECK-NEXT:    %3 = vector.insert_strided_slice %c, %a {offsets = [1, 0], strides = [1], tag} : vector<2xf32> into vector<2x4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @reductions(%a: vector<2x4xf32>, %v: vector<4xf32>, %s: f32, %vi: vector<4xi32>, %si: i32) {
// CHECK-NEXT:    %0 = vector.multi_reduction <add>, %a, %v [0] : vector<2x4xf32> to vector<4xf32>
// CHECK-NEXT:    %1 = vector.multi_reduction <maximumf>, %a, %s [0, 1] : vector<2x4xf32> to f32
// CHECK-NEXT:    %2 = vector.reduction <add>, %v : vector<4xf32> into f32
// CHECK-NEXT:    %3 = vector.reduction <maximumf>, %v, %s fastmath<fast> : vector<4xf32> into f32
// CHECK-NEXT:    %4 = vector.reduction <xor>, %vi, %si : vector<4xi32> into i32
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @products(%v: vector<4xf32>, %w: vector<8xf32>, %s: f32, %acc: vector<4x8xf32>, %a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) {
// CHECK-NEXT:    %0 = vector.outerproduct %v, %w : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %1 = vector.outerproduct %v, %w, %acc {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %2 = vector.outerproduct %v, %w, %acc {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
// CHECK-NEXT:    %3 = vector.outerproduct %v, %s : vector<4xf32>, f32
// CHECK-NEXT:    %4 = vector.contract {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
// CHECK-NEXT:    %5 = vector.contract {indexing_maps = [#map3, #map3, #map4], iterator_types = ["reduction"], kind = #vector.kind<mul>} %v, %v, %s {tag} : vector<4xf32>, vector<4xf32> into f32
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @memory(%m: memref<?x?xf32>, %i: index, %j: index, %v: vector<4xf32>, %s: f32, %mask: vector<4xi1>, %iv: vector<4xindex>) {
// CHECK-NEXT:    %0 = vector.load %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %1 = vector.load %m[%i, %j] {alignment = 16 : i64, nontemporal = true} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.store %v, %m[%i, %j] {alignment = 8 : i64} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %2 = vector.maskedload %m[%i, %j], %mask, %v : memref<?x?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:    vector.maskedstore %m[%i, %j], %mask, %v {alignment = 4 : i64} : memref<?x?xf32>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    %3 = vector.gather %m[%i, %j] [%iv], %mask, %v : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT:    vector.scatter %m[%i, %j] [%iv], %mask, %v {alignment = 4 : i64} : memref<?x?xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @transfers(%m: memref<?x?xf32>, %i: index, %j: index, %v: vector<4xf32>, %s: f32, %mask: vector<4xi1>) {
// CHECK-NEXT:    %0 = vector.transfer_read %m[%i, %j], %s : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %1 = vector.transfer_read %m[%i, %j], %s {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %2 = vector.transfer_read %m[%i, %j], %s, %mask : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %3 = vector.transfer_read %m[%i, %j], %s {permutation_map = #map5} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    %4 = vector.transfer_read %m[%i, %j], %s {permutation_map = #map6} : memref<?x?xf32>, vector<4xf32>
// CHECK-NEXT:    vector.transfer_write %v, %m[%i, %j] : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    vector.transfer_write %v, %m[%i, %j], %mask {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
// CHECK-NEXT:    func.return

// Properties, as MLIR 22 names and stores them.
// GENERIC: "vector.print"(%v) <{punctuation = #vector.punctuation<newline>}> : (vector<4xf32>) -> ()
// GENERIC: "vector.print"(%i) <{punctuation = #vector.punctuation<open>}> {tag} : (index) -> ()
// GENERIC: "vector.print"() <{punctuation = #vector.punctuation<close>}> : () -> ()
// GENERIC: "vector.print"() <{punctuation = #vector.punctuation<newline>, stringLiteral = "hello\0A"}> : () -> ()
// GENERIC: "vector.from_elements"(%s, %s, %s, %s) : (f32, f32, f32, f32) -> vector<4xf32>
// GENERIC: "vector.transpose"(%a) <{permutation = array<i64: 1, 0>}> : (vector<2x4xf32>) -> vector<4x2xf32>
// GENERIC: %res1, %res2 = "vector.deinterleave"(%{{.*}}) : (vector<8xf32>) -> (vector<4xf32>, vector<4xf32>)
// GENERIC: "vector.constant_mask"() <{mask_dim_sizes = array<i64: 3, 2>}> : () -> vector<4x3xi1>
// GENERIC: "vector.extract_strided_slice"(%a) <{offsets = [0, 1], sizes = [2, 2], strides = [1, 1]}> : (vector<2x4xf32>) -> vector<2x2xf32>
// GENERIC: "vector.insert_strided_slice"(%c, %a) <{offsets = [1, 0], strides = [1]}> {tag} : (vector<2xf32>, vector<2x4xf32>) -> vector<2x4xf32>
// GENERIC: "vector.multi_reduction"(%a, %s) <{kind = #vector.kind<maximumf>, reduction_dims = array<i64: 0, 1>}> : (vector<2x4xf32>, f32) -> f32
// GENERIC: "vector.outerproduct"(%v, %w) <{kind = #vector.kind<add>}> : (vector<4xf32>, vector<8xf32>) -> vector<4x8xf32>
// GENERIC: "vector.outerproduct"(%v, %s) <{kind = #vector.kind<add>}> : (vector<4xf32>, f32) -> vector<4xf32>
// GENERIC: "vector.contract"(%a, %b, %c) <{indexing_maps = [#map, #map1, #map2], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (vector<2x4xf32>, vector<4x3xf32>, vector<2x3xf32>) -> vector<2x3xf32>
// GENERIC: "vector.contract"(%v, %v, %s) <{indexing_maps = [#map3, #map3, #map4], iterator_types = [#vector.iterator_type<reduction>], kind = #vector.kind<mul>}> {tag} : (vector<4xf32>, vector<4xf32>, f32) -> f32
// GENERIC: "vector.load"(%m, %i, %j) <{alignment = 16 : i64, nontemporal = true}> : (memref<?x?xf32>, index, index) -> vector<4xf32>
// GENERIC: "vector.store"(%v, %m, %i, %j) <{alignment = 8 : i64}> : (vector<4xf32>, memref<?x?xf32>, index, index) -> ()
// GENERIC: "vector.maskedstore"(%m, %i, %j, %mask, %v) <{alignment = 4 : i64}> : (memref<?x?xf32>, index, index, vector<4xi1>, vector<4xf32>) -> ()
// GENERIC: "vector.gather"(%m, %i, %j, %iv, %mask, %v) : (memref<?x?xf32>, index, index, vector<4xindex>, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// GENERIC: "vector.scatter"(%m, %i, %j, %iv, %mask, %v) <{alignment = 4 : i64}> : (memref<?x?xf32>, index, index, vector<4xindex>, vector<4xi1>, vector<4xf32>) -> ()
