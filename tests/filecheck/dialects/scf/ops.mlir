// RUN: xgpu-opt --split-input-file %s | filecheck %s
// RUN: xgpu-opt --split-input-file --print-op-generic %s | xgpu-opt --split-input-file | filecheck %s
// RUN: xgpu-opt --split-input-file --print-op-generic %s | filecheck %s --check-prefix=GENERIC

// Round trips of the scf ops through xgpu-opt's custom and generic forms; the
// GENERIC lines check what the custom syntax stands for (properties, operand
// segments, implicit terminators).

// CHECK-LABEL: func.func @parallel
// CHECK:         scf.parallel (%i, %j) = (%lb, %lb) to (%n, %m) step (%one, %two) {
// CHECK-NEXT:      scf.reduce{{ $}}
// CHECK-NEXT:    } {tag}
// CHECK:         %sum = scf.parallel (%i) = (%lb) to (%n) step (%one) init (%x) -> i32 {
// CHECK-NEXT:      %i32 = arith.index_cast %i : index to i32
// CHECK-NEXT:      scf.reduce(%i32 : i32) {
// CHECK-NEXT:      ^bb0(%l: i32, %r: i32):
// CHECK-NEXT:        %t = arith.addi %l, %r : i32
// CHECK-NEXT:        scf.reduce.return %t : i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: "func.func"() <{function_type = (index, index, i32) -> i32, sym_name = "parallel"}>
// GENERIC:       "scf.parallel"(%lb, %lb, %n, %m, %one, %two) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
// GENERIC-NEXT:  ^bb0(%i: index, %j: index):
// GENERIC-NEXT:    "scf.reduce"() : () -> ()
// GENERIC-NEXT:  }) {tag} : (index, index, index, index, index, index) -> ()
// GENERIC:       %sum = "scf.parallel"(%lb, %n, %one, %x) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
// GENERIC:         "scf.reduce"(%i32) ({
// GENERIC-NEXT:    ^bb0(%l: i32, %r: i32):
// GENERIC:         }) : (i32) -> ()
// GENERIC:       }) : (index, index, index, i32) -> i32
func.func @parallel(%n: index, %m: index, %x: i32) -> i32 {
  %lb = arith.constant 0 : index
  %one = arith.constant 1 : index
  %two = arith.constant 2 : index
  scf.parallel (%i, %j) = (%lb, %lb) to (%n, %m) step (%one, %two) {
  } {tag}
  %sum = scf.parallel (%i) = (%lb) to (%n) step (%one) init (%x) -> i32 {
    %i32 = arith.index_cast %i : index to i32
    scf.reduce(%i32 : i32) {
    ^bb0(%l: i32, %r: i32):
      %t = arith.addi %l, %r : i32
      scf.reduce.return %t : i32
    }
  }
  return %sum : i32
}

// -----

// CHECK-LABEL: func.func @forall
// CHECK:         scf.forall (%i, %j) in (%n, 8) {
// CHECK-NEXT:    } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
// CHECK-NEXT:    scf.forall (%i) = (%lb) to (%n) step (3) {
// CHECK-NEXT:    } {mapping = [#gpu.block<linear_dim_2>], tag}
// CHECK-NEXT:    %r:2 = scf.forall (%i) in (4) shared_outs(%o = %t, %p = %t) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "forall"
// GENERIC:       "scf.forall"(%n) <{mapping = [#gpu.thread<x>, #gpu.thread<y>], operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1, 1>, staticUpperBound = array<i64: -9223372036854775808, 8>}> ({
// GENERIC-NEXT:  ^bb0(%i: index, %j: index):
// GENERIC-NEXT:    "scf.forall.in_parallel"() ({
// GENERIC-NEXT:    ^bb0:
// GENERIC-NEXT:    }) : () -> ()
// GENERIC-NEXT:  }) : (index) -> ()
// GENERIC:       "scf.forall"(%lb, %n) <{mapping = [#gpu.block<linear_dim_2>], operandSegmentSizes = array<i32: 1, 1, 0, 0>, staticLowerBound = array<i64: -9223372036854775808>, staticStep = array<i64: 3>, staticUpperBound = array<i64: -9223372036854775808>}> ({
// GENERIC:       }) {tag} : (index, index) -> ()
// GENERIC:       %r:2 = "scf.forall"(%t, %t) <{operandSegmentSizes = array<i32: 0, 0, 0, 2>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
// GENERIC-NEXT:  ^bb0(%i: index, %o: tensor<4xf32>, %p: tensor<4xf32>):
func.func @forall(%n: index, %t: tensor<4xf32>) {
  %lb = arith.constant 0 : index
  scf.forall (%i, %j) = (0, 0) to (%n, 8) step (1, 1) {
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  scf.forall (%i) = (%lb) to (%n) step (3) {
  } {tag, mapping = [#gpu.block<linear_dim_2>]}
  %r:2 = scf.forall (%i) in (4) shared_outs(%o = %t, %p = %t) -> (tensor<4xf32>, tensor<4xf32>) {
  }
  return
}

// -----

// CHECK-LABEL: func.func @while
// CHECK:         %w:2 = scf.while (%a = %x, %b = %y) : (i32, f32) -> (f32, i32) {
// CHECK-NEXT:      scf.condition(%c) %b, %a : f32, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%b: f32, %a: i32):
// CHECK-NEXT:      scf.yield %a, %b : i32, f32
// CHECK-NEXT:    } attributes {tag}
// CHECK-NEXT:    scf.while : () -> () {
// CHECK-NEXT:      scf.condition(%c)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "while"
// GENERIC:       %w:2 = "scf.while"(%x, %y) ({
// GENERIC-NEXT:  ^bb0(%a: i32, %b: f32):
// GENERIC-NEXT:    "scf.condition"(%c, %b, %a) : (i1, f32, i32) -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:  ^bb0([[B:%.+]]: f32, [[A:%.+]]: i32):
// GENERIC-NEXT:    "scf.yield"([[A]], [[B]]) : (i32, f32) -> ()
// GENERIC-NEXT:  }) {tag} : (i32, f32) -> (f32, i32)
// GENERIC-NEXT:  "scf.while"() ({
// GENERIC-NEXT:    "scf.condition"(%c) : (i1) -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:    "scf.yield"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()
func.func @while(%x: i32, %y: f32, %c: i1) {
  %w:2 = scf.while (%a = %x, %b = %y) : (i32, f32) -> (f32, i32) {
    scf.condition(%c) %b, %a : f32, i32
  } do {
  ^bb0(%b: f32, %a: i32):
    scf.yield %a, %b : i32, f32
  } attributes {tag}
  scf.while () : () -> () {
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}

// -----

// CHECK-LABEL: func.func @execute_region
// CHECK:         %e = scf.execute_region -> i32 no_inline {
// CHECK-NEXT:      scf.yield %x : i32
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "execute_region"
// GENERIC:       %e = "scf.execute_region"() <{no_inline}> ({
// GENERIC-NEXT:    "scf.yield"(%x) : (i32) -> ()
// GENERIC-NEXT:  }) {tag} : () -> i32
// GENERIC-NEXT:  "scf.execute_region"() ({
func.func @execute_region(%x: i32) -> i32 {
  %e = scf.execute_region -> i32 no_inline {
    scf.yield %x : i32
  } {tag}
  scf.execute_region {
    scf.yield
  }
  return %e : i32
}

// -----

// CHECK-LABEL: func.func @index_switch
// CHECK:         %s = scf.index_switch %n {tag} -> i32{{ $}}
// CHECK-NEXT:    case 4 {
// CHECK-NEXT:      scf.yield %x : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      scf.yield %x : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.index_switch %n{{ $}}
// CHECK-NEXT:    case 1 {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "index_switch"
// GENERIC:       %s = "scf.index_switch"(%n) <{cases = array<i64: 4>}> ({
// GENERIC-NEXT:    "scf.yield"(%x) : (i32) -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:    "scf.yield"(%x) : (i32) -> ()
// GENERIC-NEXT:  }) {tag} : (index) -> i32
// GENERIC-NEXT:  "scf.index_switch"(%n) <{cases = array<i64: 1>}> ({
// GENERIC-NEXT:    "scf.yield"() : () -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:    "scf.yield"() : () -> ()
// GENERIC-NEXT:  }) : (index) -> ()
func.func @index_switch(%n: index, %x: i32) -> i32 {
  %s = scf.index_switch %n {tag} -> i32
  case 4 {
    scf.yield %x : i32
  }
  default {
    scf.yield %x : i32
  }
  scf.index_switch %n
  case 1 {
    scf.yield
  }
  default {
  }
  return %s : i32
}

// -----

// CHECK-LABEL: func.func @if_for
// CHECK:         %v = scf.if %c -> (i32) {
// CHECK-NEXT:      scf.yield %x : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %x : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:    }
// CHECK-NEXT:    %f = scf.for unsigned %i = %x to %x step %x iter_args(%a = %v) -> (i32)  : i32 {
// CHECK-NEXT:      scf.yield %a : i32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "if_for"
// GENERIC:       %v = "scf.if"(%c) ({
// GENERIC:       "scf.if"(%c) ({
// GENERIC-NEXT:    "scf.yield"() : () -> ()
// GENERIC-NEXT:  }, {
// GENERIC-NEXT:  }) : (i1) -> ()
// GENERIC-NEXT:  %f = "scf.for"(%x, %x, %x, %v) <{unsignedCmp}> ({
// GENERIC-NEXT:  ^bb0(%i: i32, %a: i32):
func.func @if_for(%c: i1, %x: i32) -> i32 {
  %v = scf.if %c -> i32 {
    scf.yield %x : i32
  } else {
    scf.yield %x : i32
  }
  scf.if %c {
  }
  %f = scf.for unsigned %i = %x to %x step %x iter_args(%a = %v) -> i32 : i32 {
    scf.yield %a : i32
  }
  return %f : i32
}

// -----

// Inherent attributes written in the generic form's attribute dictionary are
// the ops' properties, as in MLIR.
// CHECK-LABEL: func.func @inherent_in_attr_dict
// CHECK:         scf.for unsigned %i = %x to %x step %x  : i32 {
// CHECK:         scf.execute_region no_inline {
// CHECK:         } {tag}
// GENERIC-LABEL: sym_name = "inherent_in_attr_dict"
// GENERIC:       "scf.for"(%x, %x, %x) <{unsignedCmp}> ({
// GENERIC:       "scf.execute_region"() <{no_inline}> ({
// GENERIC:       }) {tag} : () -> ()
func.func @inherent_in_attr_dict(%x: i32) {
  "scf.for"(%x, %x, %x) ({
  ^bb0(%i: i32):
    "scf.yield"() : () -> ()
  }) {unsignedCmp} : (i32, i32, i32) -> ()
  "scf.execute_region"() ({
    "scf.yield"() : () -> ()
  }) {no_inline, tag} : () -> ()
  return
}
