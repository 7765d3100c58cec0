// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

gpu.module @empty {
}

// -----

gpu.module @with_attrs attributes {zeta = 1 : i32, alpha} {
  gpu.func @plain() {
    gpu.return
  }
}

// -----

gpu.module @targets [#nvvm.target, #rocdl.target, #xevm.target] {
}

// -----

gpu.module @spirv_target [#spirv.target_env<#spirv.vce<v1.0, [Kernel, Addresses], []>, #spirv.resource_limits<>>] {
}

// -----

gpu.module @handler <#gpu.select_object<1>> [#nvvm.target, #rocdl.target] attributes {x} {
}

// -----

gpu.module @handler_only <#gpu.select_object<#rocdl.target>> {
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kern(%a: f32, %b: memref<?xf32>) kernel {
      gpu.return
    }
    gpu.func @arg_res_attrs(%a: f32 {my.arg}, %b: i32) -> (f32 {my.res = 1 : i32}) {
      gpu.return %a : f32
    }
    gpu.func @one_result(%a: f32) -> f32 {
      gpu.return %a : f32
    }
    gpu.func @two_results(%a: f32, %b: i32) -> (f32, i32) {
      gpu.return %a, %b : f32, i32
    }
    gpu.func @empty_dicts(%a: f32 {}) -> (f32 {}) {
      gpu.return %a : f32
    }
    gpu.func @multi_block(%a: f32) -> f32 {
      cf.br ^bb1(%a : f32)
    ^bb1(%x: f32):
      gpu.return %x : f32
    }
  }
}

// -----

gpu.module @attributions {
  gpu.func @k(%a: f32) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>> {my.w}, %w2 : memref<4xi32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>, %p2 : memref<2xf32, #gpu.address_space<private>> {my.p}) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 4, 2, 1>, known_cluster_size = array<i32: 1, 1, 1>, zz, aa = 2 : i32, sym_visibility = "private"} {
    gpu.return
  }
}

// -----

gpu.module @function_type_result {
  gpu.func @k(%a: f32) -> ((f32) -> f32, i32) {
    %0 = "test.op"() : () -> ((f32) -> f32)
    %1 = "test.op"() : () -> i32
    gpu.return %0, %1 : (f32) -> f32, i32
  }
}

// -----

gpu.module @kernel_in_dict {
  gpu.func @k(%a: f32 loc("here")) attributes {gpu.kernel, other} {
    gpu.return
  }
}

// -----

gpu.module @numeric_spaces {
  gpu.func @k() workgroup(%w : memref<4xi32, 3>) private(%p : memref<2xf32, 5>) {
    gpu.return
  }
}

// -----

gpu.module @return_attr_dict {
  gpu.func @k(%a: f32) -> f32 {
    gpu.return {foo} %a : f32
  }
}
