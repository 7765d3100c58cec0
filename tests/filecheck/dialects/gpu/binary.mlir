// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// gpu.binary with every offloading-handler spelling and every #gpu.object
// variant; the target attributes (#nvvm/#rocdl/#xevm.target, #spirv.target_env).

// CHECK: gpu.binary @fatbin  [#gpu.object<#nvvm.target, "blob">]
// GENERIC: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "blob">], offloadingHandler = #gpu.select_object, sym_name = "fatbin"}> : () -> ()
gpu.binary @fatbin [#gpu.object<#nvvm.target, "blob">]

// An explicit default handler and the explicit fatbin format are elided.
// CHECK: gpu.binary @explicit_default  [#gpu.object<#nvvm.target, "blob">]
gpu.binary @explicit_default <#gpu.select_object> [#gpu.object<#nvvm.target, fatbin = "blob">]

// CHECK: gpu.binary @by_index <#gpu.select_object<1 : i64>> [#gpu.object<#nvvm.target, offload = "ir">, #gpu.object<#nvvm.target<chip = "sm_90">, bin = "cubin">]
// GENERIC: offloadingHandler = #gpu.select_object<1 : i64>, sym_name = "by_index"
gpu.binary @by_index <#gpu.select_object<1>> [#gpu.object<#nvvm.target, offload = "ir">, #gpu.object<#nvvm.target<chip = "sm_90">, bin = "cubin">]

// CHECK: gpu.binary @by_target <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "isa">]
gpu.binary @by_target <#gpu.select_object<#rocdl.target<chip = "gfx90a">>> [#gpu.object<#rocdl.target<chip = "gfx90a">, assembly = "isa">]

// Discardable attributes go between the handler and the objects.
// CHECK: gpu.binary @with_attrs  {sym_visibility = "private", tag = 1 : i64} [#gpu.object<#xevm.target, "spv">]
// GENERIC: "gpu.binary"() <{objects = [#gpu.object<#xevm.target, "spv">], offloadingHandler = #gpu.select_object, sym_name = "with_attrs"}> {sym_visibility = "private", tag = 1 : i64} : () -> ()
gpu.binary @with_attrs {sym_visibility = "private", tag = 1} [#gpu.object<#xevm.target, "spv">]

// Properties (sorted) and a kernel table (sorted by name, printed without its prefix).
// CHECK: gpu.binary @props  [#gpu.object<#nvvm.target, properties = {O = 3 : i32, a}, kernels = <[#gpu.kernel_metadata<"alpha", (i32, f32) -> (), arg_attrs = [{llvm.noalias}, {}], metadata = {regs = 32 : i64}>, #gpu.kernel_metadata<"beta", () -> ()>]>, bin = "blob">]
gpu.binary @props [#gpu.object<#nvvm.target, properties = {a, O = 3 : i32}, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"beta", () -> ()>, #gpu.kernel_metadata<"alpha", (i32, f32) -> (), metadata = {regs = 32}, arg_attrs = [{llvm.noalias}, {}]>]>, bin = "blob">]

// CHECK: gpu.binary @empty_table  [#gpu.object<#nvvm.target, kernels = <>, "blob">]
gpu.binary @empty_table [#gpu.object<#nvvm.target, kernels = <>, "blob">]

// Blobs keep every byte.
// CHECK: gpu.binary @bytes  [#gpu.object<#nvvm.target, "\00\FF\0A\22\\\C3\A9">]
gpu.binary @bytes [#gpu.object<#nvvm.target, "\00\ff\n\"\\é">]

// CHECK: gpu.binary @spirv  [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses], []>, api=OpenCL, Intel:IntegratedGPU:7, #spirv.resource_limits<>>, "spv">]
gpu.binary @spirv [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses], []>, api=OpenCL, Intel:IntegratedGPU:7, #spirv.resource_limits<>>, "spv">]

// Target attributes: default parameters are not printed.
// CHECK: "test.op"() {nvvm_default = #nvvm.target, nvvm_full = #nvvm.target<O = 3, triple = "t", chip = "sm_90", features = "+ptx80", flags = {fast, ftz}, link = ["a.bc"], verifyTarget = false>, nvvm_spelled_defaults = #nvvm.target}
"test.op"() {
  nvvm_default = #nvvm.target,
  nvvm_full = #nvvm.target<verifyTarget = false, link = ["a.bc"], flags = {ftz, fast}, features = "+ptx80", chip = "sm_90", triple = "t", O = 3>,
  nvvm_spelled_defaults = #nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50", features = "", verifyTarget = true>
} : () -> ()

// CHECK: "test.op"() {rocdl_default = #rocdl.target, rocdl_full = #rocdl.target<O = 3, triple = "t", chip = "gfx90a", features = "+wavefrontsize64", abi = "500", flags = {daz}, link = ["ocml.bc"]>, xevm_default = #xevm.target, xevm_full = #xevm.target<O = 1, triple = "t", chip = "pvc", flags = {}, linkFiles = []>}
"test.op"() {
  rocdl_default = #rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900", abi = "600">,
  rocdl_full = #rocdl.target<link = ["ocml.bc"], flags = {daz}, abi = "500", features = "+wavefrontsize64", chip = "gfx90a", triple = "t", O = 3>,
  xevm_default = #xevm.target<>,
  xevm_full = #xevm.target<linkFiles = [], flags = {}, chip = "pvc", triple = "t", O = 1>
} : () -> ()

// CHECK: "test.op"() {limits = #spirv.resource_limits<max_compute_shared_memory_size = 1, max_compute_workgroup_invocations = 3, max_compute_workgroup_size = [4, 4, 4], subgroup_size = 64, min_subgroup_size = 16, max_subgroup_size = 64, cooperative_matrix_properties_khr = [], cooperative_matrix_properties_nv = []>, limits_default = #spirv.resource_limits<>, spirv_unknowns = #spirv.target_env<#spirv.vce<v1.6, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>, spirv_vendor = #spirv.target_env<#spirv.vce<v1.3, [], []>, api=Vulkan, NVIDIA, #spirv.resource_limits<subgroup_size = 64>>}
"test.op"() {
  limits = #spirv.resource_limits<cooperative_matrix_properties_nv = [], cooperative_matrix_properties_khr = [], max_subgroup_size = 64, min_subgroup_size = 16, subgroup_size = 64, max_compute_workgroup_size = [4, 4, 4], max_compute_workgroup_invocations = 3, max_compute_shared_memory_size = 1>,
  limits_default = #spirv.resource_limits<max_compute_workgroup_size = [128 : i32, 128 : i32, 64 : i32], subgroup_size = 32>,
  spirv_unknowns = #spirv.target_env<#spirv.vce<v1.6, [Shader], [SPV_KHR_storage_buffer_storage_class]>, api=Unknown, Unknown:CPU:1, #spirv.resource_limits<>>,
  spirv_vendor = #spirv.target_env<#spirv.vce<v1.3, [], []>, api=Vulkan, NVIDIA:Unknown:3, #spirv.resource_limits<subgroup_size = 64>>
} : () -> ()

// CHECK: "test.op"() {metadata = #gpu.kernel_metadata<"k", (i32) -> i32, arg_attrs = [{a = 1 : i64, b}]>, select_first = #gpu.select_object, select_index = #gpu.select_object<2 : i32>, select_target = #gpu.select_object<#xevm.target>, table = #gpu.kernel_table<[#gpu.kernel_metadata<"a", () -> ()>, #gpu.kernel_metadata<"b", i32>]>, table_empty = #gpu.kernel_table<>}
"test.op"() {
  metadata = #gpu.kernel_metadata<"k", (i32) -> i32, arg_attrs = [{b, a = 1}]>,
  select_first = #gpu.select_object,
  select_index = #gpu.select_object<2 : i32>,
  select_target = #gpu.select_object<#xevm.target>,
  table = #gpu.kernel_table<[#gpu.kernel_metadata<"b", i32>, #gpu.kernel_metadata<"a", () -> ()>]>,
  table_empty = #gpu.kernel_table<>
} : () -> ()
