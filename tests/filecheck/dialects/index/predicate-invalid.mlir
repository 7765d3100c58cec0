// RUN: not xgpu-opt %s --split-input-file 2>&1 | filecheck %s

// mlir-opt reports an unknown predicate, then a second error ("failed to parse
// IndexCmpPredicateAttr parameter ...") that xgpu does not repeat: the first
// one is the same.

// CHECK: predicate-invalid.mlir:[[# @LINE + 2]]:18: error: custom op 'index.cmp' expected ::mlir::index::IndexCmpPredicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge
func.func @predicate(%a: index, %b: index) {
  %r = index.cmp foo(%a, %b)
  return
}

// -----

// CHECK: predicate-invalid.mlir:[[# @LINE + 2]]:58: error: expected ::mlir::index::IndexCmpPredicate to be one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge
func.func @generic_predicate(%a: index, %b: index) {
  %r = "index.cmp"(%a, %b) <{pred = #index<cmp_predicate foo>}> : (index, index) -> i1
  return
}
