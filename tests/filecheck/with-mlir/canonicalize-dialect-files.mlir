// Canonicalize every program of the dialect's round-trip tests and compare
// with mlir-opt --canonicalize on the same input.
// RUN: %mlir-diff --pass canonicalize %S/attributes.mlir
// RUN: %mlir-diff --pass canonicalize %S/binary.mlir
// RUN: %mlir-diff --pass canonicalize %S/dialect-attrs.mlir
// RUN: %mlir-diff --pass canonicalize %S/host.mlir
// RUN: %mlir-diff --pass canonicalize %S/kernel.mlir
// RUN: %mlir-diff --pass canonicalize %S/launch.mlir
// RUN: %mlir-diff --pass canonicalize %S/launch_func.mlir
// RUN: %mlir-diff --pass canonicalize %S/mma_sparse.mlir
// RUN: %mlir-diff --pass canonicalize %S/module_func.mlir
// RUN: %mlir-diff --pass canonicalize %S/subgroup.mlir
// RUN: %mlir-diff --pass canonicalize %S/wait.mlir
