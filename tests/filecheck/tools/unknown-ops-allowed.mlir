// --allow-unregistered-dialect allows ops of unknown dialects, not unknown ops
// of a registered dialect.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @unknown_generic_gpu_op() {
  // expected-error @+1 {{unregistered operation 'gpu.nope' found in dialect ('gpu') that does not allow unknown operations}}
  "gpu.nope"() : () -> ()
  func.return
}

// -----

func.func @unknown_dialect_is_fine() {
  "foo.bar"() : () -> ()
  func.return
}
