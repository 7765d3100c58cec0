// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// An empty body still gets its block; it prints as `{` newline `}`.
gpu.module @empty {}
// CHECK:      gpu.module @empty {
// CHECK-NEXT: }
// GENERIC:      "gpu.module"() <{sym_name = "empty"}> ({
// GENERIC-NEXT: ^bb0:
// GENERIC-NEXT: }) : () -> ()

gpu.module @with_attrs attributes {zeta = 1 : i32, alpha} {
  gpu.func @plain() {
    gpu.return
  }
  gpu.func @kern(%a: f32, %b: memref<?xf32>) kernel {
    gpu.return
  }
}
// CHECK:      gpu.module @with_attrs attributes {alpha, zeta = 1 : i32} {
// CHECK-NEXT:   gpu.func @plain() {
// CHECK-NEXT:     gpu.return
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @kern(%{{.*}}: f32, %{{.*}}: memref<?xf32>) kernel {
// CHECK-NEXT:     gpu.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC:      "gpu.module"() <{sym_name = "with_attrs"}> ({
// GENERIC:      "gpu.func"() <{function_type = () -> ()}> ({
// GENERIC:      }) {sym_name = "plain", workgroup_attributions = 0 : i64} : () -> ()
// GENERIC:      "gpu.func"() <{function_type = (f32, memref<?xf32>) -> ()}> ({
// GENERIC:      }) {gpu.kernel, sym_name = "kern", workgroup_attributions = 0 : i64} : () -> ()
// GENERIC:      }) {alpha, zeta = 1 : i32} : () -> ()

gpu.module @funcs {
  // Argument and result attributes; a single result without attributes has no parentheses.
  gpu.func @arg_res_attrs(%a: f32 {my.arg}, %b: i32) -> (f32 {my.res = 1 : i32}) {
    gpu.return %a : f32
  }
  gpu.func @one_result(%a: f32) -> f32 {
    gpu.return %a : f32
  }
  gpu.func @two_results(%a: f32, %b: i32) -> (f32, i32) {
    gpu.return %a, %b : f32, i32
  }
  // Empty attribute dictionaries are not stored.
  gpu.func @empty_dicts(%a: f32 {}) -> (f32 {}) {
    gpu.return %a : f32
  }
  gpu.func @attributions(%a: f32) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>> {my.w}, %w2 : memref<4xi32, 3>) private(%p : memref<1xf32, #gpu.address_space<private>>, %p2 : memref<2xf32, 5> {my.p}) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 2, 1>, known_cluster_size = array<i32: 1, 1, 1>, zz, aa = 2 : i32} {
    gpu.return
  }
  gpu.func @multi_block(%a: f32) -> f32 {
    cf.br ^bb1(%a : f32)
  ^bb1(%x: f32):
    gpu.return %x : f32
  }
}
// CHECK:      gpu.module @funcs {
// CHECK-NEXT:   gpu.func @arg_res_attrs(%[[A:.*]]: f32 {my.arg}, %{{.*}}: i32) -> (f32 {my.res = 1 : i32}) {
// CHECK-NEXT:     gpu.return %[[A]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @one_result(%[[A:.*]]: f32) -> f32 {
// CHECK-NEXT:     gpu.return %[[A]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @two_results(%[[A:.*]]: f32, %[[B:.*]]: i32) -> (f32, i32) {
// CHECK-NEXT:     gpu.return %[[A]], %[[B]] : f32, i32
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @empty_dicts(%[[A:.*]]: f32) -> f32 {
// CHECK-NEXT:     gpu.return %[[A]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @attributions(%{{.*}}: f32) workgroup(%{{.*}} : memref<32xf32, #gpu.address_space<workgroup>> {my.w}, %{{.*}} : memref<4xi32, 3>) private(%{{.*}} : memref<1xf32, #gpu.address_space<private>>, %{{.*}} : memref<2xf32, 5> {my.p}) kernel attributes {aa = 2 : i32, known_block_size = array<i32: 32, 1, 1>, known_cluster_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 4, 2, 1>, zz} {
// CHECK-NEXT:     gpu.return
// CHECK-NEXT:   }
// CHECK-NEXT:   gpu.func @multi_block(%[[A:.*]]: f32) -> f32 {
// CHECK-NEXT:     cf.br ^[[BB:.*]](%[[A]] : f32)
// CHECK-NEXT:   ^[[BB]](%[[X:.*]]: f32):
// CHECK-NEXT:     gpu.return %[[X]] : f32
// CHECK-NEXT:   }
// CHECK-NEXT: }
// GENERIC:      "gpu.func"() <{arg_attrs = [{my.arg}, {}], function_type = (f32, i32) -> f32, res_attrs = [{my.res = 1 : i32}]}>
// GENERIC:      "gpu.func"() <{function_type = (f32) -> f32}>
// GENERIC:      "gpu.func"() <{function_type = (f32, i32) -> (f32, i32)}>
// GENERIC:      "gpu.func"() <{function_type = (f32) -> f32}>
// GENERIC:      "gpu.func"() <{function_type = (f32) -> (), known_block_size = array<i32: 32, 1, 1>, known_cluster_size = array<i32: 1, 1, 1>, known_grid_size = array<i32: 4, 2, 1>, private_attrib_attrs = [{}, {my.p}], workgroup_attrib_attrs = [{my.w}, {}]}> ({
// GENERIC-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}}: memref<4xi32, 3>, %{{.*}}: memref<1xf32, #gpu.address_space<private>>, %{{.*}}: memref<2xf32, 5>):
// GENERIC:      }) {aa = 2 : i32, gpu.kernel, sym_name = "attributions", workgroup_attributions = 2 : i64, zz} : () -> ()

gpu.module @targets [#nvvm.target, #rocdl.target] {
}
// CHECK:      gpu.module @targets [#nvvm.target, #rocdl.target] {
// CHECK-NEXT: }
// GENERIC:    "gpu.module"() <{sym_name = "targets", targets = [#nvvm.target, #rocdl.target]}> ({

// The handler follows the name without a space; `attributes` comes after the targets.
gpu.module @handler <#gpu.select_object<1>> [#xevm.target] attributes {x} {
}
// CHECK:      gpu.module @handler<#gpu.select_object<1 : i64>> [#xevm.target] attributes {x} {
// CHECK-NEXT: }
// GENERIC:    "gpu.module"() <{offloadingHandler = #gpu.select_object<1 : i64>, sym_name = "handler", targets = [#xevm.target]}> ({
// GENERIC:    }) {x} : () -> ()

// `gpu.kernel` in the dictionary makes a kernel.
gpu.module @kernel_in_dict {
  gpu.func @k() attributes {gpu.kernel, other} {
    gpu.return
  }
}
// CHECK:      gpu.func @k() kernel attributes {other} {
// GENERIC:    }) {gpu.kernel, other, sym_name = "k", workgroup_attributions = 0 : i64} : () -> ()

// Inherent attributes written in the dictionary are properties.
gpu.module @props_in_dict attributes {targets = [#nvvm.target], y} {
}
// CHECK:      gpu.module @props_in_dict [#nvvm.target] attributes {y} {
// CHECK-NEXT: }
// GENERIC:    "gpu.module"() <{sym_name = "props_in_dict", targets = [#nvvm.target]}> ({

gpu.module @numeric_spaces {
  gpu.func @k() workgroup(%w : memref<4xi32, 3>) private(%p : memref<2xf32, 5>) {
    gpu.return
  }
}
// CHECK:      gpu.func @k() workgroup(%{{.*}} : memref<4xi32, 3>) private(%{{.*}} : memref<2xf32, 5>) {
// GENERIC:    }) {sym_name = "k", workgroup_attributions = 1 : i64} : () -> ()
