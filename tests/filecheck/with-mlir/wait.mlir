// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

func.func @chain(%t: !gpu.async.token) -> !gpu.async.token {
  %0 = gpu.wait async
  %1 = gpu.wait async [%0, %t]
  gpu.wait [%1]
  gpu.wait
  %2 = gpu.wait async []
  return %2 : !gpu.async.token
}

// -----

func.func @sync_with_deps(%a: !gpu.async.token, %b: !gpu.async.token) {
  gpu.wait [%a, %b]
  return
}
