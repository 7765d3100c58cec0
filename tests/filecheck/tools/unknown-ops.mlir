// mlir-opt's messages for ops it does not know.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @unknown_custom_gpu_op() {
  // expected-error @+1 {{custom op 'gpu.nope' is unknown}}
  gpu.nope
  func.return
}

// -----

func.func @unknown_generic_gpu_op() {
  // expected-error @+1 {{unregistered operation 'gpu.nope' found in dialect ('gpu') that does not allow unknown operations}}
  "gpu.nope"() : () -> ()
  func.return
}

// -----

func.func @unknown_dialect_generic() {
  // expected-error @+1 {{operation being parsed with an unregistered dialect}}
  "foo.bar"() : () -> ()
  func.return
}
