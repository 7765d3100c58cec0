// RUN: %mlir-diff %s
// RUN: %mlir-opt %s | filecheck %s
// RUN: xgpu-opt %s | filecheck %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// Maps as convert-parallel-loops-to-gpu writes them (trip counts, indices,
// bounds), other semi-affine maps, integer sets and layouts, read and printed
// by both tools: the CHECK lines are mlir-opt 22's spelling.

func.func @launch_maps(%n: index, %lb: index, %step: index, %id: index) -> (index, index, index) {
  %trip = affine.apply affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>(%n)[%lb, %step]
  %index = affine.apply affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>(%id)[%step, %lb]
  %bound = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%index)[%n]
  %halves = affine.apply affine_map<(d0)[s0, s1] -> (((d0 - s0) ceildiv s1) ceildiv 2)>(%n)[%lb, %step]
  %scaled = affine.apply affine_map<(d0)[s0, s1] -> ((d0 * s0 + s1) * 2)>(%id)[%step, %lb]
  %mixed = affine.max affine_map<(d0, d1)[s0] -> (s0 * d1 + d0 floordiv s0, (d1 + d0) mod s0, 2 + d0 - d1 * 3)>(%id, %index)[%step]
  return %trip, %index, %bound : index, index, index
}

func.func private @attrs() attributes {
  sums = affine_map<(d0, d1)[s0, s1] -> (3 + d0, d0 - d0, d1 + d0, s1 + s0, d1 * 2 + d1, d0 - (d0 floordiv 4) * 4, d0 + (d0 floordiv s0) * -s0)>,
  divs = affine_map<(d0) -> ((d0 * 4) floordiv 2, (d0 + 4) floordiv 2, (d0 * 6) mod 4, d0 floordiv -2, 7 floordiv -2, 7 mod -2, -7 ceildiv 2)>,
  set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 <= 3, d0 == s0 * 2, d0 * s0 <= s0 mod 3)>
}

func.func private @layouts(memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, memref<?xf32, affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>>)

// CHECK:      #map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
// CHECK-NEXT: #map1 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (4, -d0 + s0)>
// CHECK-NEXT: #map3 = affine_map<(d0)[s0, s1] -> (((d0 - s0) ceildiv s1) ceildiv 2)>
// CHECK-NEXT: #map4 = affine_map<(d0)[s0, s1] -> ((d0 * s0 + s1) * 2)>
// CHECK-NEXT: #map5 = affine_map<(d0, d1)[s0] -> (d1 * s0 + d0 floordiv s0, (d0 + d1) mod s0, d0 - d1 * 3 + 2)>
// CHECK-NEXT: #map6 = affine_map<(d0) -> (d0 * 2, d0 floordiv 2 + 2, (d0 * 6) mod 4, d0 floordiv -2, -4, 7 mod -2, -3)>
// CHECK-NEXT: #map7 = affine_map<(d0, d1)[s0, s1] -> (d0 + 3, 0, d0 + d1, s0 + s1, d1 * 3, d0 mod 4, d0 + (d0 floordiv s0) * (-s0))>
// CHECK-NEXT: #map8 = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-NEXT: #map9 = affine_map<(d0)[s0, s1] -> (d0 * s1 + s0)>
// CHECK-NEXT: #set = affine_set<(d0)[s0] : (d0 - s0 >= 0, -d0 + 3 >= 0, d0 - s0 * 2 == 0, -(d0 * s0) + s0 mod 3 >= 0)>
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.apply #map(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}]
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.apply #map1(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}]
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.min #map2(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}]
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.apply #map3(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}]
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.apply #map4(%{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}}]
// CHECK:      %{{[a-zA-Z0-9_]+}} = affine.max #map5(%{{[a-zA-Z0-9_]+}}, %{{[a-zA-Z0-9_]+}})[%{{[a-zA-Z0-9_]+}}]
// CHECK:      func.func private @attrs(){{( -> \(\))?}} attributes {divs = #map6, set = #set, sums = #map7}
// CHECK:      func.func private @layouts(memref<4x4xf32, #map8>, memref<?xf32, #map9>)
