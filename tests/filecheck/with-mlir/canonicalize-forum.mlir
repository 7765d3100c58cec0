// The forum program canonicalizes exactly as with mlir-opt 22.
// RUN: %mlir-diff --pass canonicalize %S/../../../examples/forum.mlir
