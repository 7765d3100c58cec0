// The data layout given to the outliner in the #dlti.dl_entry form.
// RUN: %mlir-diff --pass 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>, #dlti.dl_entry<i64, dense<[64, 64]> : vector<2xi64>>>"}' %s
// RUN: xgpu-opt -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>, #dlti.dl_entry<i64, dense<[64, 64]> : vector<2xi64>>>"}' %s | filecheck %s

// CHECK: gpu.module @basic_kernel attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32, i64 = dense<64> : vector<2xi64>>}
func.func @basic(%a: memref<?xf32>, %n: index, %v: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}
