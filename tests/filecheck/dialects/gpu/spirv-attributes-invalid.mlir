// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

gpu.module @k {
  // expected-error @below {{'spirv.entry_point_abi' attribute must be an entry point ABI attribute}}
  gpu.func @f() kernel attributes {spirv.entry_point_abi = 1 : i32} {
    gpu.return
  }
}

// -----

// expected-error @below {{'spirv.target_env' must be a spirv::TargetEnvAttr}}
module attributes {spirv.target_env = 1 : i32} {}

// -----

// expected-error @below {{found unsupported 'spirv.foo' attribute on operation}}
module attributes {spirv.foo = 1 : i32} {}

// -----

// expected-error @below {{duplicate or unknown struct parameter name: foo}}
module attributes {x.y = #spirv.entry_point_abi<foo = 1>} {}

// -----

// expected-error @below {{duplicate or unknown struct parameter name: workgroup_size}}
module attributes {x.y = #spirv.entry_point_abi<workgroup_size = [32, 1, 1], workgroup_size = [1, 1, 1]>} {}

// -----

// expected-error @below {{expected ','}}
module attributes {x.y = #spirv.coop_matrix_props_khr<n_size = 8>} {}
