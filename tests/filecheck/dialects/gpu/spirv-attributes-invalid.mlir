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

// -----

gpu.module @m {
  // expected-error @below {{'spirv.interface_var_abi' attribute cannot specify storage class when attaching to a non-scalar value}}
  gpu.func @k(%a: memref<4xf32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), StorageBuffer>}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{'spirv.interface_var_abi' must be a spirv::InterfaceVarABIAttr}}
  gpu.func @k(%a: memref<4xf32> {spirv.interface_var_abi = 1 : i32}) kernel {
    gpu.return
  }
}

// -----

// expected-error @below {{found unsupported 'spirv.foo' attribute on region argument}}
func.func private @k(i32 {spirv.foo = 1})

// -----

// expected-error @below {{cannot attach SPIR-V attributes to region result which is not part of a spirv::GraphARMOp type}}
func.func private @k() -> (i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1)>})

// -----

// expected-error @below {{unknown storage class: Foo}}
func.func private @k(i32 {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 1), Foo>})

// -----

gpu.module @m {
  // expected-error @below {{"llvm.noalias" attribute attached to non-pointer LLVM type}}
  gpu.func @k(%a: i32 {llvm.noalias}) kernel {
    gpu.return
  }
}
