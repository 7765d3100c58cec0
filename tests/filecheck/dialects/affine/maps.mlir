// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s

// Affine maps and integer sets as mlir-opt 22 reads and prints them: each
// expression is simplified as MLIR builds it (constants folded and moved to
// the right, dimensions before symbols, terms of one expression merged),
// semi-affine products, divisions and modulos by symbols are kept, and
// parentheses appear only where precedence needs them.

func.func private @semi_affine() attributes {
  trip = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>,
  index = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>,
  nested = affine_map<(d0)[s0, s1] -> (((d0 - s0) ceildiv s1) ceildiv 2)>,
  by_symbol = affine_map<(d0)[s0] -> (s0 * d0, d0 floordiv s0, d0 mod s0, (d0 * s0) floordiv s0, s0 * 3 * d0, d0 + (d0 floordiv s0) * -s0)>,
  symbols = affine_map<()[s0, s1] -> (s1 * s0, s1 + s0, s0 * 2 * s1, s1 * (s0 * 2))>,
  named = affine_map<(i, j)[N] -> (i + j * N)>
}

func.func private @simplified() attributes {
  sums = affine_map<(d0, d1) -> (3 + d0, d0 - d0, (d0 + 1) + 2, d1 + d0, d1 + d0 + 1 + d0)>,
  products = affine_map<(d0, d1) -> (2 * d1 * 4, d1 * 2 + d1, d0 * 0, d0 * 1, -(-d0), d0 * -1 * -1, -d0 * 2)>,
  divisions = affine_map<(d0, d1) -> ((d0 * 4) floordiv 2, (d0 * 4) mod 2, (d0 * 6) mod 4, (d0 + 4) floordiv 2, (d0 * 4 + d1) floordiv 2, (d0 + d1 * 4) mod 4, (d0 mod 8) mod 4, (d0 floordiv 4) floordiv 2, d0 - (d0 floordiv 4) * 4, d0 floordiv 1, d0 mod 1)>,
  negative = affine_map<(d0)[s0] -> (-d0, -(d0 + 1), d0 - s0 * 2, s0 - d0, -(s0 - 1), d0 * -3 + 2, d0 floordiv -2, (d0 * 4) floordiv -2, d0 mod -2)>,
  constants = affine_map<() -> (4 floordiv 3, -7 mod 3, -7 ceildiv 2, 7 floordiv -2, 7 ceildiv -2, 7 mod -2, 7 floordiv 0, 9223372036854775807 + 1, 0x10)>,
  empty = affine_map<(d0) -> ()>,
  none = affine_map<() -> (0)>
}

func.func private @sets() attributes {
  s1 = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 <= 3, d0 == s0 * 2, 1 == 0)>,
  s2 = affine_set<(d0)[s0] : (d0 >= s0, 0 >= d0, d0 - 1 == 2 * s0, d0 * s0 <= s0 mod 3)>,
  s3 = affine_set<(d0) : ()>
}

func.func private @layouts(memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<?xf32, affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>>)

// int64 limits: constants that would overflow are not folded; factors merged
// by the rewrites wrap around as in MLIR.
func.func private @overflow() attributes {
  wrap = affine_map<(d0) -> (d0 * 4611686018427387904 * 4, d0 + 9223372036854775807 - 9223372036854775807)>
}

// CHECK:      #map = affine_map<(d0)[s0] -> (d0 * s0, d0 floordiv s0, d0 mod s0, (d0 * s0) floordiv s0, d0 * (s0 * 3), d0 + (d0 floordiv s0) * (-s0))>
// CHECK-NEXT: #map1 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
// CHECK-NEXT: #map2 = affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>
// CHECK-NEXT: #map3 = affine_map<(d0)[s0, s1] -> (((d0 - s0) ceildiv s1) ceildiv 2)>
// CHECK-NEXT: #map4 = affine_map<()[s0, s1] -> (s0 * s1, s0 + s1, (s0 * s1) * 2, s1 * (s0 * 2))>
// CHECK-NEXT: #map5 = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
// CHECK-NEXT: #map6 = affine_map<() -> (1, 2, -3, -4, -3, 7 mod -2, 7 floordiv 0, 9223372036854775807 + 1, 16)>
// CHECK-NEXT: #map7 = affine_map<(d0, d1) -> (d0 * 2, 0, (d0 * 6) mod 4, d0 floordiv 2 + 2, d0 * 2 + d1 floordiv 2, d0 mod 4, d0 mod 4, (d0 floordiv 4) floordiv 2, d0 mod 4, d0, 0)>
// CHECK-NEXT: #map8 = affine_map<(d0) -> ()>
// CHECK-NEXT: #map9 = affine_map<(d0)[s0] -> (-d0, -(d0 + 1), d0 - s0 * 2, -d0 + s0, -(s0 - 1), d0 * -3 + 2, d0 floordiv -2, d0 * -2, d0 mod -2)>
// CHECK-NEXT: #map10 = affine_map<() -> (0)>
// CHECK-NEXT: #map11 = affine_map<(d0, d1) -> (d1 * 8, d1 * 3, 0, d0, d0, d0, d0 * -2)>
// CHECK-NEXT: #map12 = affine_map<(d0, d1) -> (d0 + 3, 0, d0 + 3, d0 + d1, d0 + d1 + d0 + 1)>
// CHECK-NEXT: #map13 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map14 = affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>
// CHECK-NEXT: #map15 = affine_map<(d0) -> (0, d0)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 + 3 >= 0, d0 - s0 * 2 == 0, 1 == 0)>
// CHECK-NEXT: #set1 = affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 >= 0, d0 - s0 * 2 - 1 == 0, -(d0 * s0) + s0 mod 3 >= 0)>
// CHECK-NEXT: #set2 = affine_set<(d0) : (0 == 0)>
// CHECK:      func.func private @semi_affine(){{( -> \(\))?}} attributes {by_symbol = #map, index = #map1, named = #map2, nested = #map3, symbols = #map4, trip = #map5}
// CHECK:      func.func private @simplified(){{( -> \(\))?}} attributes {constants = #map6, divisions = #map7, empty = #map8, negative = #map9, none = #map10, products = #map11, sums = #map12}
// CHECK:      func.func private @sets(){{( -> \(\))?}} attributes {s1 = #set, s2 = #set1, s3 = #set2}
// CHECK:      func.func private @layouts(memref<4x4xf32, #map13>, memref<?xf32, #map14>)
// CHECK:      func.func private @overflow(){{( -> \(\))?}} attributes {wrap = #map15}
