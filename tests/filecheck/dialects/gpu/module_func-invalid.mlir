// RUN: xgpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @func_outside_module() {
  // expected-error @+1 {{'gpu.func' op expects parent op 'gpu.module'}}
  gpu.func @k() {
    gpu.return
  }
  return
}

// -----

gpu.module @unnamed_arguments {
  // expected-error @+1 {{gpu.func requires named arguments}}
  gpu.func @k(f32) {
    gpu.return
  }
}

// -----

gpu.module @kernel_with_result {
  // expected-error @+1 {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @k() -> f32 kernel {
    %c = arith.constant 1.0 : f32
    gpu.return %c : f32
  }
}

// -----

gpu.module @no_body {
  // expected-error @+1 {{'gpu.func' op expected body with at least one block}}
  gpu.func @k() {
  }
}

// -----

gpu.module @too_few_block_args {
  // expected-error @+1 {{'gpu.func' op expected at least 1 arguments to body region}}
  "gpu.func"() <{function_type = (f32) -> ()}> ({
  ^bb0:
    "gpu.return"() : () -> ()
  }) {sym_name = "k", workgroup_attributions = 0 : i64} : () -> ()
}

// -----

gpu.module @too_few_for_workgroup {
  // expected-error @+1 {{'gpu.func' op expected at least 3 arguments to body region}}
  "gpu.func"() <{function_type = (f32) -> ()}> ({
  ^bb0(%a: f32, %w: memref<4xf32, 3>):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", workgroup_attributions = 2 : i64} : () -> ()
}

// -----

gpu.module @block_arg_type {
  // expected-error @+1 {{'gpu.func' op expected body region argument #0 to be of type 'f32', got 'i32'}}
  "gpu.func"() <{function_type = (f32) -> ()}> ({
  ^bb0(%a: i32):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", workgroup_attributions = 0 : i64} : () -> ()
}

// -----

gpu.module @workgroup_not_memref {
  // expected-error @+1 {{'gpu.func' op expected memref type in attribution}}
  gpu.func @k() workgroup(%w : f32) {
    gpu.return
  }
}

// -----

gpu.module @private_not_memref {
  // expected-error @+1 {{'gpu.func' op expected memref type in attribution}}
  gpu.func @k() private(%p : f32) {
    gpu.return
  }
}

// -----

gpu.module @workgroup_wrong_space {
  // expected-error @+1 {{'gpu.func' op expected memory space workgroup in attribution}}
  gpu.func @k() workgroup(%w : memref<4xf32, #gpu.address_space<private>>) {
    gpu.return
  }
}

// -----

gpu.module @private_wrong_space {
  // expected-error @+1 {{'gpu.func' op expected memory space private in attribution}}
  gpu.func @k() private(%p : memref<4xf32, #gpu.address_space<workgroup>>) {
    gpu.return
  }
}

// -----

gpu.module @known_block_size_two {
  // expected-error @+1 {{'gpu.func' op attribute 'known_block_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 1, 2>} {
    gpu.return
  }
}

// -----

gpu.module @known_grid_size_four {
  // expected-error @+1 {{'gpu.func' op attribute 'known_grid_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)}}
  gpu.func @k() kernel attributes {known_grid_size = array<i32: 1, 2, 3, 4>} {
    gpu.return
  }
}

// -----

gpu.module @known_cluster_size_empty {
  // expected-error @+1 {{'gpu.func' op attribute 'known_cluster_size' failed to satisfy constraint: i32 dense array attribute with 3 elements (if present)}}
  gpu.func @k() kernel attributes {known_cluster_size = array<i32>} {
    gpu.return
  }
}

// -----

gpu.module @arg_attrs_count {
  // expected-error @+1 {{'gpu.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
  "gpu.func"() <{function_type = (f32) -> (), arg_attrs = [{}, {}]}> ({
  ^bb0(%a: f32):
    "gpu.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}

// -----

gpu.module @res_attrs_count {
  // expected-error @+1 {{'gpu.func' op expects result attribute array to have the same number of elements as the number of function results, got 1, but expected 0}}
  "gpu.func"() <{function_type = (f32) -> (), res_attrs = [{}]}> ({
  ^bb0(%a: f32):
    "gpu.return"() : () -> ()
  }) {sym_name = "k"} : () -> ()
}

// -----

gpu.module @arg_attr_not_dialect {
  // expected-error @+1 {{'gpu.func' op arguments may only have dialect attributes}}
  gpu.func @k(%a: f32 {plain}) {
    gpu.return
  }
}

// -----

gpu.module @res_attr_not_dialect {
  // expected-error @+1 {{'gpu.func' op results may only have dialect attributes}}
  gpu.func @k(%a: f32) -> (f32 {plain}) {
    gpu.return %a : f32
  }
}

// -----

gpu.module @return_count {
  // expected-note @+1 {{return type declared here}}
  gpu.func @k() -> f32 {
    // expected-error @+1 {{'gpu.return' op expected 1 result operands}}
    gpu.return
  }
}

// -----

gpu.module @return_type {
  gpu.func @k() -> f32 {
    %c = arith.constant 1 : i32
    // expected-error @+1 {{'gpu.return' op unexpected type `'i32'' for operand #0}}
    gpu.return %c : i32
  }
}

// -----

func.func @return_outside_func() {
  // expected-error @+1 {{'gpu.return' op expects parent op 'gpu.func'}}
  gpu.return
}

// -----

// expected-error @+1 {{'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements}}
gpu.module @empty_targets [] {
}

// -----

// expected-error @+1 {{'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements}}
gpu.module @non_target [1 : i32] {
}

// -----

// expected-error @+1 {{'gpu.module' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.}}
gpu.module @bad_handler <1 : i32> {
}

// -----

// expected-error @+1 {{'gpu.module' op expects region #0 to have 0 or 1 blocks}}
"gpu.module"() <{sym_name = "two_blocks"}> ({
^bb0:
^bb1:
}) : () -> ()

// -----

// expected-error @+1 {{'gpu.module' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks}}
"gpu.module"() <{sym_name = "no_block"}> ({
}) : () -> ()

// -----

// expected-error @+1 {{'gpu.module' op attribute 'targets' failed to satisfy constraint: array of GPU target attributes with at least 1 elements}}
gpu.module @object_is_not_a_target [#gpu.object<#nvvm.target, "x">] {
}

// -----

// expected-error @+1 {{'gpu.module' op attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.}}
gpu.module @target_is_not_a_handler <#nvvm.target> {
}

// -----

gpu.module @duplicate_symbol {
  // expected-note @+1 {{see existing symbol definition here}}
  gpu.func @k() {
    gpu.return
  }
  // expected-error @+1 {{redefinition of symbol named 'k'}}
  gpu.func @k() {
    gpu.return
  }
}

// -----

gpu.module @named_then_unnamed {
  // expected-error @+1 {{expected SSA identifier}}
  gpu.func @k(%a: f32, f32) {
    gpu.return
  }
}

// -----

gpu.module @unnamed_then_named {
  // expected-error @+1 {{expected type instead of SSA identifier}}
  gpu.func @k(f32, %a: f32) {
    gpu.return
  }
}

// -----

gpu.module @no_variadic {
  // expected-error @+1 {{expected SSA identifier}}
  gpu.func @k(%a: f32, ...) {
    gpu.return
  }
}

// -----

gpu.module @empty_entry_block {
  // expected-error @+1 {{empty block: expect at least a terminator}}
  gpu.func @k(%a: f32) {
  }
}

// -----

gpu.module @duplicate_attribute {
  // expected-error @+1 {{attribute 'workgroup_attributions' occurs more than once in the attribute list}}
  gpu.func @k() workgroup(%w : memref<4xf32, 3>) attributes {workgroup_attributions = 0 : i64} {
    gpu.return
  }
}

// -----

// An empty offloading handler: MLIR's generic attribute-parser message.
// expected-error @+1 {{expected attribute value}}
gpu.module @empty_handler <> {
}
