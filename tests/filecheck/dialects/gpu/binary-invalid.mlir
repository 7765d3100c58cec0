// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'gpu.binary' op attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements}}
gpu.binary @empty []

// -----

// expected-error @+1 {{'gpu.binary' op attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements}}
gpu.binary @not_objects [1 : i32]

// -----

// expected-error @+1 {{'gpu.binary' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.}}
gpu.binary @bad_handler <1 : i32> [#gpu.object<#nvvm.target, "x">]

// -----

// expected-error @+1 {{'gpu.binary' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.}}
"gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "x">], offloadingHandler = #nvvm.target, sym_name = "b"}> : () -> ()

// -----

func.func @nested() {
  // expected-error @+1 {{'gpu.binary' op symbol's parent must have the SymbolTable trait}}
  gpu.binary @b [#gpu.object<#nvvm.target, "x">]
  return
}

// -----

// expected-error @+1 {{expected valid '@'-identifier for symbol name}}
gpu.binary private @b [#gpu.object<#nvvm.target, "x">]

// -----

// expected-error @+1 {{the target attribute must implement or promise the `gpu::TargetAttrInterface`}}
gpu.binary @b [#gpu.object<1 : i32, "x">]

// -----

// expected-error @+1 {{expected keyword for GPU object format}}
gpu.binary @b [#gpu.object<#nvvm.target, cubin = "x">]

// -----

// The kernel table comes after the properties.
// expected-error @+1 {{expected keyword for GPU object format}}
gpu.binary @b [#gpu.object<#nvvm.target, kernels = <>, properties = {}, "x">]

// -----

// expected-error @+1 {{expected all kernels to be uniquely named}}
module attributes {x.a = #gpu.kernel_table<[#gpu.kernel_metadata<"k", () -> ()>, #gpu.kernel_metadata<"k", (i32) -> ()>]>} {
}

// -----

// expected-error @+1 {{all attributes in the array must be a dictionary attribute}}
module attributes {x.a = #gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [1]>} {
}

// -----

// expected-error @+1 {{the object index must be positive}}
gpu.binary @b <#gpu.select_object<-1>> [#gpu.object<#nvvm.target, "x">]

// -----

// expected-error @+1 {{the target attribute must be a GPU Target attribute}}
gpu.binary @b <#gpu.select_object<"nvvm">> [#gpu.object<#nvvm.target, "x">]

// -----

// expected-error @+1 {{The optimization level must be a number between 0 and 3.}}
module attributes {x.a = #nvvm.target<O = 4>} {
}

// -----

// expected-error @+1 {{The target triple cannot be empty.}}
module attributes {x.a = #nvvm.target<triple = "">} {
}

// -----

// expected-error @+1 {{The target chip cannot be empty.}}
module attributes {x.a = #nvvm.target<chip = "">} {
}

// -----

// expected-error @+1 {{All the elements in the `link` array must be strings.}}
module attributes {x.a = #nvvm.target<link = [1]>} {
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: O}}
module attributes {x.a = #nvvm.target<O = 1, O = 2>} {
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: abi}}
module attributes {x.a = #xevm.target<abi = "x">} {
}

// -----

// expected-error @+1 {{unknown version: v1.7}}
module attributes {x.a = #spirv.target_env<#spirv.vce<v1.7, [], []>, #spirv.resource_limits<>>} {
}

// -----

// expected-error @+1 {{unknown client API: CUDA}}
module attributes {x.a = #spirv.target_env<#spirv.vce<v1.0, [], []>, api=CUDA, #spirv.resource_limits<>>} {
}

// -----

// expected-error @+1 {{unknown vendor: Mesa}}
module attributes {x.a = #spirv.target_env<#spirv.vce<v1.0, [], []>, Mesa, #spirv.resource_limits<>>} {
}

// -----

// expected-error @+1 {{unknown device type: GPU}}
module attributes {x.a = #spirv.target_env<#spirv.vce<v1.0, [], []>, AMD:GPU, #spirv.resource_limits<>>} {
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: workgroup_size}}
module attributes {x.a = #spirv.target_env<#spirv.vce<v1.0, [], []>, #spirv.resource_limits<workgroup_size = 1>>} {
}
