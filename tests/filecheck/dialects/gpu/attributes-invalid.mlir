// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// Only errors MLIR reports alone are here: for a bad enum case or mask value
// mlir-opt adds a second error ("failed to parse ... parameter"), which xgpu's
// single parse diagnostic does not reproduce; tests/unit/test_kernel.py checks
// those messages.

// expected-error @+1 {{expected '<'}}
func.func @f() attributes {a = #gpu.block} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: map}}
func.func @f() attributes {a = #gpu.loop_dim_map<map = (d0) -> (d0), map = (d0) -> (d0), bound = (d0) -> (d0)>} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: step}}
func.func @f() attributes {a = #gpu.loop_dim_map<processor = block_x, step = (d0) -> (d0), bound = (d0) -> (d0)>} {
  return
}

// -----

// expected-error @+1 {{expected ','}}
func.func @f() attributes {a = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0)>} {
  return
}

// -----

// MLIR 22 registers no stand-alone #gpu<processor ...> attribute.
// expected-error @+1 {{processor}}
func.func @f() attributes {a = #gpu<processor block_x>} {
  return
}
