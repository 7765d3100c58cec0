// The forum program (examples/forum.mlir) parses, verifies and prints as
// mlir-opt 22 prints it, in custom and generic form.
// RUN: %mlir-diff %S/../../../examples/forum.mlir
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %S/../../../examples/forum.mlir
