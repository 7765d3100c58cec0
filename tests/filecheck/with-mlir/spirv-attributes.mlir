// RUN: %mlir-diff %s
// RUN: %mlir-opt %s --split-input-file | filecheck %s
// RUN: xgpu-opt %s --split-input-file | filecheck %s

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
