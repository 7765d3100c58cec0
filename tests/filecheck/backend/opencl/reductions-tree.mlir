// The "tree" order of reductions (`-t 'opencl{reduction=tree}'`, what
// xgpu-run gives devices that are not CPUs): halving steps in a do-while loop
// that opens with the barrier and counts a size that is the same on every
// work item (the workgroup, the subgroup or the cluster size).
// RUN: xgpu-opt -t 'opencl{reduction=tree}' %s | filecheck %s
// RUN: xgpu-opt -t 'opencl{reduction=tree subgroup_size=8}' %s | filecheck %s --check-prefix=SG8
// RUN: xgpu-opt -t 'opencl{reduction=tree subgroups=khr}' %s | filecheck %s --check-prefix=KHR
// RUN: not xgpu-opt -t 'opencl{reduction=both}' %s 2>&1 | filecheck %s --check-prefix=BAD

gpu.module @red {
  gpu.func @k(%x: f32, %i: i32, %out: memref<4xf32>) kernel {
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    %m = gpu.subgroup_reduce mul %i : (i32) -> i32
    %c = gpu.subgroup_reduce maxsi %i cluster(size = 4, stride = 2) : (i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %a, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// CHECK:        float v0_a;
// CHECK-NEXT:   {
// CHECK-NEXT:     __local float* xg_s = (__local float*)xg_scratch;
// CHECK-NEXT:     xg_s[xg_lid] = a0_x;
// CHECK-NEXT:     long xg_m = xg_nwi;
// CHECK-NEXT:     do {
// CHECK-NEXT:       barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:       long xg_h = (xg_m + 1) >> 1;
// CHECK-NEXT:       if (xg_lid < xg_m - xg_h) {
// CHECK-NEXT:         xg_s[xg_lid] = (xg_s[xg_lid] + xg_s[xg_lid + xg_h]);
// CHECK-NEXT:       }
// CHECK-NEXT:       xg_m = xg_h;
// CHECK-NEXT:     } while (xg_m > 1);
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:     v0_a = xg_s[0];
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:   }
// CHECK:          xg_s[xg_lid] = (int)((uint)xg_s[xg_lid] * (uint)xg_s[xg_lid + xg_h]);
// CHECK:          long xg_k = xg_lid % 8L / 2L;
// CHECK-NEXT:     long xg_cb = xg_lid - xg_k * 2;
// CHECK-NEXT:     long xg_m = min(4L, (xg_nwi - xg_cb + 1L) / 2L);
// CHECK-NEXT:     long xg_u = 4L;
// CHECK-NEXT:     do {
// CHECK-NEXT:       barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:       long xg_h = (xg_m + 1) >> 1;
// CHECK-NEXT:       if (xg_k < xg_m - xg_h) {
// CHECK-NEXT:         xg_s[xg_cb + (xg_k * 2)] = max(xg_s[xg_cb + (xg_k * 2)], xg_s[xg_cb + ((xg_k + xg_h) * 2)]);
// CHECK-NEXT:       }
// CHECK-NEXT:       xg_m = xg_h;
// CHECK-NEXT:       xg_u = (xg_u + 1) >> 1;
// CHECK-NEXT:     } while (xg_u > 1);
// CHECK-NEXT:     barrier(CLK_LOCAL_MEM_FENCE);
// CHECK-NEXT:     v2_c = xg_s[xg_cb];
// CHECK-NOT:    xg_acc

// SG8:          long xg_sgid = xg_lid / 8L;
// SG8-NEXT:     long xg_sgbase = xg_sgid * 8L;
// SG8-NEXT:     long xg_lane = xg_lid - xg_sgbase;
// SG8-NEXT:     long xg_sgn = min(8L, xg_nwi - xg_sgbase);
// SG8:            xg_s[xg_sgbase + xg_lane] = a1_i;
// SG8-NEXT:       long xg_m = xg_sgn;
// SG8-NEXT:       long xg_u = min(8L, xg_nwi);
// SG8:            v1_m = xg_s[xg_sgbase];
// SG8:            long xg_m = min(4L, (xg_sgn - xg_cb + 1L) / 2L);
// SG8:            v2_c = xg_s[xg_sgbase + xg_cb];

// KHR:          #pragma OPENCL EXTENSION cl_khr_subgroups : enable
// KHR:          long xg_sgbase = (long)get_sub_group_id() * (long)get_max_sub_group_size();
// KHR:            long xg_m = xg_sgn;
// KHR-NEXT:       long xg_u = (long)get_max_sub_group_size();

// BAD: error: opencl target: reduction=both is not one of fold, tree
