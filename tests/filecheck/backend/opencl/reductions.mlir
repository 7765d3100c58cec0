// all_reduce and subgroup ops: emulated through __local memory (the default,
// for devices without cl_khr_subgroups such as PoCL 3), or with the
// cl_khr_subgroups builtins.
// RUN: xgpu-opt -t 'opencl{checked=false}' %s | filecheck %s
// RUN: xgpu-opt -t 'opencl{subgroups=khr checked=false}' %s | filecheck %s --check-prefix=KHR

gpu.module @red {
  gpu.func @k(%x: f32, %o: i32, %out: memref<4xf32>) kernel {
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    %s = gpu.subgroup_reduce add %x : (f32) -> f32
    %r, %v = gpu.shuffle xor %x, %o, %o : f32
    %l = gpu.lane_id
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// CHECK:      __kernel void xg0_k(float a0_x, int a1_o, __global float* a2_out, long a2_out_off, long a2_out_size0, long a2_out_stride0, __local void* xg_scratch) {
// CHECK-NEXT:   long xg_lid = (long)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
// CHECK-NEXT:   long xg_nwi = (long)(get_local_size(0) * get_local_size(1) * get_local_size(2));
// CHECK-NEXT:   float v0_a;
// CHECK-NEXT:   {
// CHECK-NEXT:     __local float* xg_s = (__local float*)xg_scratch;
// CHECK-NEXT:     xg_s[xg_lid] = a0_x;
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:     if (xg_lid == 0) {
// CHECK-NEXT:       float xg_acc = xg_s[0];
// CHECK-NEXT:       for (long xg_j = 1; xg_j < xg_nwi; ++xg_j) {
// CHECK-NEXT:         xg_acc = (xg_acc + xg_s[xg_j]);
// CHECK-NEXT:       }
// CHECK-NEXT:       xg_s[0] = xg_acc;
// CHECK-NEXT:     }
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:     v0_a = xg_s[0];
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   }
// CHECK:          long xg_src = xg_lid ^ (long)a1_o;
// CHECK-NEXT:     uchar xg_ok = (uchar)(xg_src >= 0 && xg_src < (long)a1_o && xg_src < xg_nwi);
// CHECK:        long {{v[0-9]+}}_l = xg_lid;

// KHR:      #pragma OPENCL EXTENSION cl_khr_subgroups : enable
// KHR-NOT:  #pragma
// KHR:        long xg_lane = (long)get_sub_group_local_id();
// KHR:        float v1_s = sub_group_reduce_add(a0_x);
// KHR:        sub_group_shuffle_xor(a0_x, (uint)(long)a1_o);
// KHR:        long {{.*}} = (long)get_sub_group_local_id();
