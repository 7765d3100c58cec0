// Bounds-checked accesses (the default of -t opencl and xgpu-run): each index
// against the descriptor's size, the element's position against the extent
// of the buffer (`_len`, an extra argument per memref), the first failure
// recorded through xg_fault<N> (values: indices then sizes); no check where
// the ranges decide it. `checked=false` gives the plain accesses.
// RUN: xgpu-opt -t opencl %s | filecheck %s
// RUN: xgpu-opt -t 'opencl{checked=false}' %s | filecheck %s --check-prefix=PLAIN

module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @put(%m: memref<?xf32>, %i: index, %v: f32) {
      memref.store %v, %m[%i] : memref<?xf32>
      return
    }
    gpu.func @k(%x: memref<?xf32>, %y: memref<8x4xf32>) workgroup(%s: memref<16xf32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %t = gpu.thread_id x
      %i = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %s[%t] : memref<16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %y[%i, %c3] : memref<8x4xf32>
      %row = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<8x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      %w = memref.load %row[%c0] : memref<4xf32, strided<[1], offset: ?>>
      func.call @put(%x, %i, %w) : (memref<?xf32>, index, f32) -> ()
      gpu.return
    }
  }
}

// CHECK:      static void xg_fault2(__global long* rec, long launch, long site, long buf, long x0, long x1) {
// CHECK-NEXT:   if (atomic_cmpxchg((volatile __global int*)rec, 0, 1) == 0) {
// CHECK-NEXT:     rec[1] = site; rec[2] = launch; rec[3] = buf;
// CHECK-NEXT:     rec[4] = get_local_id(0); rec[5] = get_local_id(1); rec[6] = get_local_id(2);
// CHECK-NEXT:     rec[7] = get_group_id(0); rec[8] = get_group_id(1); rec[9] = get_group_id(2);
// CHECK-NEXT:     rec[10] = 2; rec[11] = x0; rec[12] = x1;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// A device function gets each memref's extent and buffer id, and the record.
// CHECK:      void xg0_put(__global float* a0_m, long a0_m_off, long a0_m_size0, long a0_m_stride0, long a0_m_len, long a0_m_buf, long a1_i, float a2_v, __global long* xg_rec, long xg_launch) {
// CHECK-NEXT:   ulong v0_pos = (ulong)a0_m_off + (ulong)a1_i;
// CHECK-NEXT:   if ((ulong)a1_i < (ulong)a0_m_size0 && v0_pos < (ulong)a0_m_len) a0_m[v0_pos] = a2_v;
// CHECK-NEXT:   else xg_fault2(xg_rec, xg_launch, 0, a0_m_buf, a1_i, a0_m_size0);
// CHECK-NEXT: }

// CHECK:      __kernel void xg1_k(__global float* a0_x, long a0_x_off, long a0_x_size0, long a0_x_stride0, long a0_x_len, __global float* a1_y, long a1_y_off, long a1_y_size0, long a1_y_size1, long a1_y_stride0, long a1_y_stride1, long a1_y_len, __local float (*xg_wg0_arr)[16], __global long* xg_rec, long xg_launch) {
// CHECK:        ulong v2_pos = (ulong)a0_x_off + (ulong)v1_i;
// CHECK-NEXT:   float v3_v = 0;
// CHECK-NEXT:   if ((ulong)v1_i < (ulong)a0_x_size0 && v2_pos < (ulong)a0_x_len) v3_v = a0_x[v2_pos];
// CHECK-NEXT:   else xg_fault2(xg_rec, xg_launch, 1, 0, v1_i, a0_x_size0);
// The thread id is below known_block_size: no check.
// CHECK-NEXT:   xg_wg0[v0_t] = v3_v;
// A static size, a constant index in bounds: only the global id is checked.
// CHECK-NEXT:   ulong v4_pos = (ulong)a1_y_off + (ulong)v1_i * 4UL + 3UL;
// CHECK-NEXT:   if ((ulong)v1_i < 8UL && v4_pos < (ulong)a1_y_len) a1_y[v4_pos] = v3_v;
// CHECK-NEXT:   else xg_fault4(xg_rec, xg_launch, 2, 1, v1_i, 3, 8, 4);
// The subview's rows, as the simulator checks them.
// CHECK-NEXT:   if (v1_i < 0 || v1_i >= 8) xg_fault5(xg_rec, xg_launch, 3, 1, 0, 8, v1_i, 1, 1);
// CHECK:        xg0_put(a0_x, a0_x_off, a0_x_size0, 1, a0_x_len, 0, v1_i, v{{[0-9]+}}_w, xg_rec, xg_launch);

// PLAIN-NOT:  xg_fault
// PLAIN-NOT:  _len
// PLAIN:      void xg0_put(__global float* a0_m, long a0_m_off, long a0_m_size0, long a0_m_stride0, long a1_i, float a2_v) {
// PLAIN-NEXT:   a0_m[a0_m_off + a1_i] = a2_v;
// PLAIN:        float v2_v = a0_x[a0_x_off + v1_i];
// PLAIN-NEXT:   xg_wg0[v0_t] = v2_v;
// PLAIN-NOT:  xg_fault
