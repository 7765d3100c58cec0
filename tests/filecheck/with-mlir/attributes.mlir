// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// #gpu.address_space as a memref memory space, including the type
// gpu.dynamic_shared_memory returns.
func.func @spaces(%g: memref<4xf32, #gpu.address_space<global>>,
                  %w: memref<?xi8, #gpu.address_space<workgroup>>,
                  %p: memref<2x2xf16, #gpu.address_space<private>>) -> memref<?xi8, #gpu.address_space<workgroup>> {
  return %w : memref<?xi8, #gpu.address_space<workgroup>>
}

// -----

func.func @attrs() attributes {a0 = #gpu.address_space<global>, a1 = #gpu.address_space<workgroup>, a2 = #gpu.address_space<private>, all = [#gpu.thread<x>, #gpu.warp<linear_dim_3>], b0 = #gpu.block<x>, b1 = #gpu.block<y>, b2 = #gpu.block<z>, b3 = #gpu.block<linear_dim_0>, b4 = #gpu.block<linear_dim_9>, k0 = #gpu.mask<0>, k1 = #gpu.mask<0x10>, k2 = #gpu.mask<-1>, k3 = #gpu.mask<18446744073709551615>, l0 = #gpu.lane<y>, l1 = #gpu.lane<linear_dim_4>, m0 = #gpu.memory_space<global>, m1 = #gpu.memory_space<workgroup>, m2 = #gpu.memory_space<private>, t0 = #gpu.thread<z>, t1 = #gpu.thread<linear_dim_7>, w0 = #gpu.warp<x>, w1 = #gpu.warpgroup<y>, w2 = #gpu.warpgroup<linear_dim_2>} {
  return
}

// -----

func.func @loop_maps() attributes {l0 = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, l1 = #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0 * 4 + 2), bound = (d0) -> (d0 ceildiv 4)>, l2 = #gpu.loop_dim_map<processor = block_z, map = (d0, d1)[s0] -> (d0 - d1 * 3, -d0, d1 - 1, d0 + s0), bound = (d0) -> (d0 mod 8, d0 floordiv 2)>, l3 = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, l4 = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0 - 7), bound = (d0) -> (d0)>, l5 = #gpu.loop_dim_map<processor = thread_z, map = () -> (), bound = () -> (5)>, l6 = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>} {
  return
}

// -----

// Enum attributes, in the opaque form.
func.func @enums() attributes {e0 = #gpu<dim x>, e1 = #gpu<dim y>, e2 = #gpu<dim z>, e3 = #gpu<all_reduce_op maxnumf>, e4 = #gpu<shuffle_mode idx>, e5 = #gpu<broadcast specific_lane>} {
  return
}
