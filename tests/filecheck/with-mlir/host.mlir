// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

func.func @alloc(%n: index, %s: index, %t: !gpu.async.token) {
  %a = gpu.alloc () : memref<4xf32>
  %b = gpu.alloc host_shared () : memref<4xf32>
  %c = gpu.alloc (%n, %n) : memref<?x8x?xf32>
  %d = gpu.alloc (%n) [%s] : memref<?xf32, strided<[1], offset: ?>>
  %e = gpu.alloc (%n) [%s, %n] : memref<?xf32, strided<[?], offset: ?>>
  %f, %t1 = gpu.alloc async () : memref<4xf32>
  %g, %t2 = gpu.alloc async [%t, %t1] host_shared (%n) {foo} : memref<?xf32, #gpu.address_space<global>>
  %h = gpu.alloc [%t] () : memref<4xf32>
  return
}

// -----

func.func @dealloc(%m: memref<4xf32>, %t: !gpu.async.token) -> !gpu.async.token {
  gpu.dealloc %m : memref<4xf32>
  %t1 = gpu.dealloc async [%t] %m {foo} : memref<4xf32>
  gpu.dealloc [%t1] %m : memref<4xf32>
  %t2 = gpu.dealloc async %m : memref<4xf32>
  return %t2 : !gpu.async.token
}

// -----

func.func @memcpy_memset(%a: memref<4xf32>, %b: memref<?xf32, #gpu.address_space<global>>, %v: f32, %t: !gpu.async.token) {
  gpu.memcpy %a, %b : memref<4xf32>, memref<?xf32, #gpu.address_space<global>>
  %t1 = gpu.memcpy async [%t] %b, %a : memref<?xf32, #gpu.address_space<global>>, memref<4xf32> {foo}
  gpu.memset %a, %v : memref<4xf32>, f32
  %t2 = gpu.memset async [%t, %t1] %b, %v : memref<?xf32, #gpu.address_space<global>>, f32 {foo}
  %t3 = gpu.memset async %a, %v : memref<4xf32>, f32
  return
}

// -----

func.func @host_ops(%u: memref<*xf32>, %w: memref<*xi8, #gpu.address_space<workgroup>>, %d: i32) {
  gpu.host_register %u : memref<*xf32>
  gpu.host_register %w {foo} : memref<*xi8, #gpu.address_space<workgroup>>
  gpu.host_unregister %u {foo} : memref<*xf32>
  gpu.set_default_device %d
  gpu.set_default_device {foo} %d
  return
}

// -----

// Generic ops without their operandSegmentSizes: MLIR takes all zeros, which an
// op without operands satisfies.
func.func @segments_left_out() {
  %a = "gpu.alloc"() : () -> memref<4xf32>
  %b = "gpu.alloc"() <{hostShared}> : () -> memref<8xi32>
  return
}

// -----

// Layout maps: mlir-opt prints them behind `#map` aliases, and so does xgpu.
func.func @alloc_with_layout_maps(%s: index, %t: !gpu.async.token) {
  %a = gpu.alloc () [%s, %s] : memref<4xf32, affine_map<(d0)[s0, s1] -> (d0 + s0 + s1)>>
  %b, %t1 = gpu.alloc async [%t] () [%s] : memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  gpu.dealloc %a : memref<4xf32, affine_map<(d0)[s0, s1] -> (d0 + s0 + s1)>>
  %t2 = gpu.dealloc async [%t1] %b : memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
  gpu.wait [%t2]
  return
}
