// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC --strict-whitespace

// gpu attributes other than mma/sparse ones: address spaces, device mapping
// attributes, #gpu.mask and #gpu.loop_dim_map (the enums #gpu<dim>,
// #gpu<all_reduce_op>, ... print in the opaque `#gpu<name value>` form).

func.func @address_spaces(%g: memref<4xf32, #gpu.address_space<global>>,
                          %w: memref<?xi8, #gpu.address_space<workgroup>>,
                          %p: memref<2x2xf16, #gpu.address_space<private>>) attributes {
    a = #gpu.address_space<global>, b = #gpu.address_space<"workgroup">, c = #gpu.address_space<private>} {
  return
}

// CHECK-LABEL: func.func @address_spaces(%{{.*}}: memref<4xf32, #gpu.address_space<global>>, %{{.*}}: memref<?xi8, #gpu.address_space<workgroup>>, %{{.*}}: memref<2x2xf16, #gpu.address_space<private>>)
// CHECK-SAME: attributes {a = #gpu.address_space<global>, b = #gpu.address_space<workgroup>, c = #gpu.address_space<private>}

// GENERIC: function_type = (memref<4xf32, #gpu.address_space<global>>, memref<?xi8, #gpu.address_space<workgroup>>, memref<2x2xf16, #gpu.address_space<private>>) -> ()

func.func @mappings() attributes {
    b0 = #gpu.block<x>, b1 = #gpu.block<y>, b2 = #gpu.block<z>, b3 = #gpu.block<linear_dim_0>,
    l0 = #gpu.lane<linear_dim_9>, l1 = #gpu.lane<x>,
    t0 = #gpu.thread<y>, t1 = #gpu.thread<linear_dim_5>,
    w0 = #gpu.warp<z>, w1 = #gpu.warpgroup<x>, w2 = #gpu.warpgroup<linear_dim_1>,
    m0 = #gpu.memory_space<global>, m1 = #gpu.memory_space<workgroup>, m2 = #gpu.memory_space<private>,
    k0 = #gpu.mask<0>, k1 = #gpu.mask<0xff>, k2 = #gpu.mask<-1>, k3 = #gpu.mask<18446744073709551614>,
    all = [#gpu.thread<x>, #gpu.thread<y>, #gpu.block<linear_dim_2>]} {
  return
}

// CHECK-LABEL: func.func @mappings()
// CHECK-SAME: {all = [#gpu.thread<x>, #gpu.thread<y>, #gpu.block<linear_dim_2>],
// CHECK-SAME: b0 = #gpu.block<x>, b1 = #gpu.block<y>, b2 = #gpu.block<z>, b3 = #gpu.block<linear_dim_0>,
// CHECK-SAME: k0 = #gpu.mask<0>, k1 = #gpu.mask<255>, k2 = #gpu.mask<18446744073709551615>, k3 = #gpu.mask<18446744073709551614>,
// CHECK-SAME: l0 = #gpu.lane<linear_dim_9>, l1 = #gpu.lane<x>,
// CHECK-SAME: m0 = #gpu.memory_space<global>, m1 = #gpu.memory_space<workgroup>, m2 = #gpu.memory_space<private>,
// CHECK-SAME: t0 = #gpu.thread<y>, t1 = #gpu.thread<linear_dim_5>,
// CHECK-SAME: w0 = #gpu.warp<z>, w1 = #gpu.warpgroup<x>, w2 = #gpu.warpgroup<linear_dim_1>}

// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "mappings"}> ({
// GENERIC: b0 = #gpu.block<x>, b1 = #gpu.block<y>, b2 = #gpu.block<z>, b3 = #gpu.block<linear_dim_0>, k0 = #gpu.mask<0>

func.func @loop_dim_maps() attributes {
    d0 = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>,
    d1 = #gpu.loop_dim_map<bound = (d0) -> (d0 ceildiv 32), processor = thread_y, map = (d0) -> (d0 * 2 + 1)>,
    d2 = #gpu.loop_dim_map<processor = sequential, map = (d0, d1)[s0] -> (d0 - d1 * 3, -d0, d1 - 1), bound = (d0) -> (d0 mod 4, d0 floordiv 2)>,
    d3 = #gpu<loop_dim_map<processor = thread_z, map = (d0) -> (d0), bound = (d0)[s0] -> (d0 + s0)>>,
    enums = [#gpu<dim x>, #gpu<all_reduce_op add>, #gpu<shuffle_mode xor>, #gpu<broadcast first_active_lane>]} {
  return
}

// CHECK-LABEL: func.func @loop_dim_maps()
// CHECK-SAME: d0 = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>,
// CHECK-SAME: d1 = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0 * 2 + 1), bound = (d0) -> (d0 ceildiv 32)>,
// CHECK-SAME: d2 = #gpu.loop_dim_map<processor = sequential, map = (d0, d1)[s0] -> (d0 - d1 * 3, -d0, d1 - 1), bound = (d0) -> (d0 mod 4, d0 floordiv 2)>,
// CHECK-SAME: d3 = #gpu.loop_dim_map<processor = thread_z, map = (d0) -> (d0), bound = (d0)[s0] -> (d0 + s0)>,
// CHECK-SAME: enums = [#gpu<dim x>, #gpu<all_reduce_op add>, #gpu<shuffle_mode xor>, #gpu<broadcast first_active_lane>]}

// GENERIC: d1 = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0 * 2 + 1), bound = (d0) -> (d0 ceildiv 32)>
