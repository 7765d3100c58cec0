// The gpu dialect's discardable attributes are checked on any op.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{expected 'gpu.container_module' attribute to be attached to 'builtin.module'}}
func.func @container_on_func() attributes {gpu.container_module} {
  func.return
}

// -----

// expected-error @+1 {{'func.func' op gpu.known_block_size must contain exactly 3 elements}}
func.func @two_elements() attributes {gpu.known_block_size = array<i32: 1, 2>} {
  func.return
}

// -----

// expected-error @+1 {{'func.func' op gpu.known_block_size must be a dense i32 array}}
func.func @not_dense() attributes {gpu.known_block_size = [1, 2, 3]} {
  func.return
}

// -----

// expected-error @+1 {{'func.func' op gpu.known_grid_size must be a dense i32 array}}
func.func @i64_array() attributes {gpu.known_grid_size = array<i64: 1, 2, 3>} {
  func.return
}

// -----

// expected-error @+1 {{'test.op' op gpu.known_cluster_size must contain exactly 3 elements}}
"test.op"() {gpu.known_cluster_size = array<i32: 1>} : () -> ()
