// RUN: %mlir-diff %s
// RUN: %mlir-opt %s --split-input-file | filecheck %s
// RUN: xgpu-opt %s --split-input-file | filecheck %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// A complete target environment: version, capabilities, extensions, client
// API, vendor:device type:device id, and every resource limit.
// CHECK: gpu.module @full [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64], [SPV_KHR_storage_buffer_storage_class]>, api=OpenCL, Intel:IntegratedGPU:123, #spirv.resource_limits<max_compute_shared_memory_size = 65536, max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64], subgroup_size = 16, min_subgroup_size = 8, max_subgroup_size = 32, cooperative_matrix_properties_khr = [], cooperative_matrix_properties_nv = []>>]
gpu.module @full [#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses, Int64], [SPV_KHR_storage_buffer_storage_class]>, api=OpenCL, Intel:IntegratedGPU:123, #spirv.resource_limits<max_compute_shared_memory_size = 65536, max_compute_workgroup_invocations = 1024, max_compute_workgroup_size = [1024, 1024, 64], subgroup_size = 16, min_subgroup_size = 8, max_subgroup_size = 32, cooperative_matrix_properties_khr = [], cooperative_matrix_properties_nv = []>>] {
  // CHECK: gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 16>}
  gpu.func @k() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 16>} {
    gpu.return
  }
  // CHECK: gpu.func @k2() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>}
  gpu.func @k2() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
    gpu.return
  }
}

// -----

// Vendor without device type, parameters in another order, defaults elided.
// CHECK: a.env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, NVIDIA, #spirv.resource_limits<>>
// CHECK-SAME: b.env = #spirv.target_env<#spirv.vce<v1.5, [Kernel], []>, api=Vulkan, AMD:DiscreteGPU, #spirv.resource_limits<subgroup_size = 64>>
// CHECK-SAME: c.abi = #spirv.entry_point_abi<subgroup_size = 16, target_width = 32>
// CHECK-SAME: d.abi = #spirv.entry_point_abi<workgroup_size = [4, 4]>
// CHECK-SAME: e.limits = #spirv.resource_limits<max_compute_workgroup_size = [1, 2, 3]>
func.func @attrs() attributes {
  a.env = #spirv.target_env<#spirv.vce<v1.0, [Shader], []>, NVIDIA, #spirv.resource_limits<max_compute_shared_memory_size = 16384>>,
  b.env = #spirv.target_env<#spirv.vce<v1.5, [Kernel], []>, api=Vulkan, AMD:DiscreteGPU, #spirv.resource_limits<subgroup_size = 64>>,
  c.abi = #spirv.entry_point_abi<target_width = 32, subgroup_size = 16>,
  d.abi = #spirv.entry_point_abi<workgroup_size = [4, 4]>,
  e.limits = #spirv.resource_limits<max_compute_workgroup_size = [1 : i64, 2, 3]>
} {
  return
}

// -----

// CHECK: module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, #spirv.resource_limits<>>}
module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.0, [Kernel], []>, #spirv.resource_limits<>>} {
}

// -----

// Cooperative matrix properties: all parameters, in any order, printed in
// declaration order; a scope as `<Name>` or `#spirv.scope<Name>`.
// CHECK: cooperative_matrix_properties_khr = [#spirv.coop_matrix_props_khr<m_size = 8, n_size = 8, k_size = 32, a_type = i8, b_type = i8, c_type = i32, result_type = i32, acc_sat = false, scope = <Subgroup>>, #spirv.coop_matrix_props_khr<m_size = 16, n_size = 16, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32, acc_sat = true, scope = <Workgroup>>]
// CHECK-SAME: cooperative_matrix_properties_nv = [#spirv.coop_matrix_props_nv<m_size = 8, n_size = 8, k_size = 32, a_type = i8, b_type = i8, c_type = i32, result_type = i32, scope = <Subgroup>>]
// CHECK: s = #spirv.scope<Device>
func.func @coop() attributes {
  r = #spirv.resource_limits<cooperative_matrix_properties_khr = [#spirv.coop_matrix_props_khr<m_size = 8, n_size = 8, k_size = 32, a_type = i8, b_type = i8, c_type = i32, result_type = i32, acc_sat = false, scope = <Subgroup>>, #spirv.coop_matrix_props_khr<scope = #spirv.scope<Workgroup>, acc_sat = 1, m_size = 16, n_size = 16, k_size = 16, a_type = f16, b_type = f16, c_type = f32, result_type = f32>], cooperative_matrix_properties_nv = [#spirv.coop_matrix_props_nv<m_size = 8, n_size = 8, k_size = 32, a_type = i8, b_type = i8, c_type = i32, result_type = i32, scope = <Subgroup>>]>,
  s = #spirv.scope<Device>
} {
  return
}

// -----

// Kernel arguments' interface variables: (set, binding) as 32-bit unsigned,
// a storage class on scalars only.
// CHECK: {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}, %{{.*}}: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(1, 2), Uniform>}, %{{.*}}: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(4294967295, 3), StorageBuffer>}) kernel
gpu.module @m {
  gpu.func @k(%a: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>}, %b: i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(1,2),Uniform>}, %c: f32 {spirv.interface_var_abi = #spirv.interface_var_abi<(-1, 3), StorageBuffer>}) kernel {
    gpu.return
  }
}

// -----

// SPIR-V storage classes as memref memory spaces.
// CHECK: func.func @spaces(%{{.*}}: memref<12xf32, #spirv.storage_class<CrossWorkgroup>>, %{{.*}}: memref<4xi32, #spirv.storage_class<StorageBuffer>>)
func.func @spaces(%a: memref<12xf32, #spirv.storage_class<CrossWorkgroup>>, %b: memref<4xi32, #spirv.storage_class<StorageBuffer>>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<12xf32, #spirv.storage_class<CrossWorkgroup>>
  return
}
