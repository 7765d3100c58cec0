// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// gpu.binary, #gpu.object / select_object / kernel_metadata / kernel_table and
// the GPU target attributes, checked against mlir-opt 22.

gpu.binary @fatbin [#gpu.object<#nvvm.target, "blob">]
gpu.binary @explicit_default <#gpu.select_object> [#gpu.object<#nvvm.target, fatbin = "blob">]
gpu.binary @by_index <#gpu.select_object<1>> [#gpu.object<#nvvm.target, offload = "ir">, #gpu.object<#nvvm.target<chip = "sm_90">, bin = "cubin">]
gpu.binary @by_target <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "isa">]
gpu.binary @with_attrs {sym_visibility = "private", tag = 1} [#gpu.object<#xevm.target, "spv">]
gpu.binary @bytes [#gpu.object<#nvvm.target, "\00\ff\n\"\\é">]

// -----

gpu.binary @props [#gpu.object<#nvvm.target, properties = {a, O = 3 : i32}, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"beta", () -> ()>, #gpu.kernel_metadata<"alpha", (i32, f32) -> (), metadata = {regs = 32}, arg_attrs = [{llvm.noalias}, {}]>]>, bin = "blob">]
gpu.binary @empty_table [#gpu.object<#nvvm.target, kernels = <>, "blob">]
gpu.binary @short_table [#gpu.object<#rocdl.target, properties = {}, kernels = <[#gpu.kernel_metadata<"k", (i32) -> i32, arg_attrs = [{b, a = 1}]>]>, offload = "x">]

// -----

gpu.binary @targets <#gpu.select_object<#nvvm.target<verifyTarget = false, link = ["a.bc"], flags = {ftz, fast}, features = "+ptx80", chip = "sm_90", triple = "t", O = 3>>> [
  #gpu.object<#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "", verifyTarget = true>, "a">,
  #gpu.object<#nvvm.target<verifyTarget = false, link = ["a.bc"], flags = {ftz, fast}, features = "+ptx80", chip = "sm_90", triple = "t", O = 3>, "b">,
  #gpu.object<#rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", abi = "600">, "c">,
  #gpu.object<#rocdl.target<link = ["ocml.bc"], flags = {daz}, abi = "500", features = "+wavefrontsize64", chip = "gfx90a", triple = "t", O = 3>, "d">,
  #gpu.object<#xevm.target<>, "e">,
  #gpu.object<#xevm.target<linkFiles = [], flags = {}, chip = "pvc", triple = "t", O = 1>, "f">
]

// -----

gpu.binary @spirv <#gpu.select_object<#spirv.target_env<#spirv.vce<v1.0, [], []>, #spirv.resource_limits<>>>> [
  #gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses], []>, api=OpenCL, Intel:IntegratedGPU:7, #spirv.resource_limits<>>, "a">,
  #gpu.object<#spirv.target_env<#spirv.vce<v1.6, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Unknown, Unknown:CPU:1, #spirv.resource_limits<>>, "b">,
  #gpu.object<#spirv.target_env<#spirv.vce<v1.3, [], []>, api=Vulkan, NVIDIA:Unknown:3, #spirv.resource_limits<subgroup_size = 64>>, "c">,
  #gpu.object<#spirv.target_env<#spirv.vce<v1.5, [Shader, Int64], []>, AMD:DiscreteGPU, #spirv.resource_limits<cooperative_matrix_properties_nv = [], cooperative_matrix_properties_khr = [], max_subgroup_size = 64, min_subgroup_size = 16, subgroup_size = 64, max_compute_workgroup_size = [4, 4, 4], max_compute_workgroup_invocations = 3, max_compute_shared_memory_size = 1>>, "d">,
  #gpu.object<#spirv.target_env<#spirv.vce<v1.5, [], []>, #spirv.resource_limits<max_compute_workgroup_size = [128 : i32, 128 : i32, 64 : i32], subgroup_size = 32>>, "e">
]

// -----

module attributes {
  gpu.container_module,
  x.select_first = #gpu.select_object,
  x.select_index = #gpu.select_object<2 : i32>,
  x.table = #gpu.kernel_table<[#gpu.kernel_metadata<"b", i32>, #gpu.kernel_metadata<"a", () -> ()>]>,
  x.table_empty = #gpu.kernel_table<>,
  x.vce = #spirv.vce<v1.1, [Kernel], [SPV_KHR_expect_assume]>,
  x.limits = #spirv.resource_limits<subgroup_size = 16>
} {
  gpu.module @nvvm [#nvvm.target, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
  }
  gpu.module @rocdl [#rocdl.target<chip = "gfx1100">, #xevm.target<chip = "pvc">] {
  }
  gpu.binary @b [#gpu.object<#nvvm.target, "x">]
}
