// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

module attributes {gpu.container_module} {
  func.func @known() attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 4, 2, 1>, gpu.known_cluster_size = array<i32: 1, 1, 1>} {
    return
  }
  func.func @kernel_attr_anywhere() attributes {gpu.kernel} {
    return
  }
}
