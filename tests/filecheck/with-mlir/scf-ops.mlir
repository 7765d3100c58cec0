// RUN: %mlir-diff %s
// RUN: xgpu-opt --split-input-file %s | filecheck %s --match-full-lines --strict-whitespace
// RUN: %mlir-opt --split-input-file %s | filecheck %s --match-full-lines --strict-whitespace
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The scf ops in each of their custom forms, checked against mlir-opt 22; the
// CHECK lines are mlir-opt's output (trailing spaces included: `scf.reduce `,
// `-> i32 ` before an index_switch's cases, two spaces before `: i32` in
// scf.for), and xgpu-opt must print the same lines. Values are named as
// mlir-opt names them, so that both print the same names (results aside).

// scf.parallel: no results (the implicit scf.reduce printed), one result
// (`-> f32`), two (`-> (f32, i32)`), attributes after the body.
// CHECK-LABEL:  func.func @parallel(%arg0: index, %arg1: memref<?xf32>, %arg2: i32) -> (f32, i32) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%arg0, %arg0) step (%c1, %c1) {
// CHECK-NEXT:      memref.store %cst, %arg1[%arg3] : memref<?xf32>
// CHECK-NEXT:      scf.reduce 
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.parallel (%arg3) = (%c0) to (%arg0) step (%c1) init (%cst) -> f32 {
// CHECK-NEXT:      {{%[0-9]+}} = memref.load %arg1[%arg3] : memref<?xf32>
// CHECK-NEXT:      scf.reduce({{%[0-9]+}} : f32) {
// CHECK-NEXT:      ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:        {{%[0-9]+}} = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT:        scf.reduce.return {{%[0-9]+}} : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    } {tag = "sum"}
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.parallel (%arg3) = (%c0) to (%arg0) step (%c1) init (%cst, %arg2) -> (f32, i32) {
// CHECK-NEXT:      {{%[0-9]+}} = memref.load %arg1[%arg3] : memref<?xf32>
// CHECK-NEXT:      scf.reduce({{%[0-9]+}}, %arg2 : f32, i32) {
// CHECK-NEXT:      ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:        {{%[0-9]+}} = arith.maximumf %arg4, %arg5 : f32
// CHECK-NEXT:        scf.reduce.return {{%[0-9]+}} : f32
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%arg4: i32, %arg5: i32):
// CHECK-NEXT:        {{%[0-9]+}} = arith.addi %arg4, %arg5 : i32
// CHECK-NEXT:        scf.reduce.return {{%[0-9]+}} : i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @parallel(%arg0: index, %arg1: memref<?xf32>, %arg2: i32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.parallel (%arg3, %arg4) = (%c0, %c0) to (%arg0, %arg0) step (%c1, %c1) {
    memref.store %cst, %arg1[%arg3] : memref<?xf32>
  }
  %0 = scf.parallel (%arg3) = (%c0) to (%arg0) step (%c1) init (%cst) -> f32 {
    %2 = memref.load %arg1[%arg3] : memref<?xf32>
    scf.reduce(%2 : f32) {
    ^bb0(%arg4: f32, %arg5: f32):
      %3 = arith.addf %arg4, %arg5 : f32
      scf.reduce.return %3 : f32
    }
  } {tag = "sum"}
  %1:2 = scf.parallel (%arg3) = (%c0) to (%arg0) step (%c1) init (%cst, %arg2) -> (f32, i32) {
    %2 = memref.load %arg1[%arg3] : memref<?xf32>
    scf.reduce(%2, %arg2 : f32, i32) {
    ^bb0(%arg4: f32, %arg5: f32):
      %3 = arith.maximumf %arg4, %arg5 : f32
      scf.reduce.return %3 : f32
    }, {
    ^bb0(%arg4: i32, %arg5: i32):
      %3 = arith.addi %arg4, %arg5 : i32
      scf.reduce.return %3 : i32
    }
  }
  return %1#0, %1#1 : f32, i32
}

// -----

// scf.forall: the `in (...)` form (lower bounds 0, steps 1, also when written
// in full), mixed constant and dynamic bounds, shared_outs with one and two
// results (scf.forall.in_parallel printed only then), mappings.
// CHECK-LABEL:  func.func @forall(%arg0: index, %arg1: index, %arg2: memref<?x?xf32>, %arg3: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %cst = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    scf.forall (%arg4, %arg5) in (%arg0, 8) {
// CHECK-NEXT:      memref.store %cst, %arg2[%arg4, %arg5] : memref<?x?xf32>
// CHECK-NEXT:    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:    scf.forall (%arg4) = (0) to (%arg0) step (2) {
// CHECK-NEXT:      memref.store %cst, %arg2[%arg4, %arg4] : memref<?x?xf32>
// CHECK-NEXT:    } {mapping = [#gpu.block<z>]}
// CHECK-NEXT:    scf.forall (%arg4, %arg5) = (%c0, 1) to (%arg0, %arg1) step (%arg1, 4) {
// CHECK-NEXT:      memref.store %cst, %arg2[%arg4, %arg5] : memref<?x?xf32>
// CHECK-NEXT:    } {mapping = [#gpu.warp<linear_dim_1>, #gpu.lane<linear_dim_0>], tag}
// CHECK-NEXT:    scf.forall (%arg4) in (16) {
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.forall (%arg4) in (%arg0) shared_outs(%arg5 = %arg3) -> (tensor<?xf32>) {
// CHECK-NEXT:      %extracted_slice = tensor.extract_slice %arg5[%arg4] [1] [1] : tensor<?xf32> to tensor<1xf32>
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.forall (%arg4) in (%arg0) shared_outs(%arg5 = %arg3, %arg6 = {{%[0-9]+}}) -> (tensor<?xf32>, tensor<?xf32>) {
// CHECK-NEXT:      scf.forall.in_parallel {
// CHECK-NEXT:      }
// CHECK-NEXT:    } {mapping = [#gpu.block<x>]}
func.func @forall(%arg0: index, %arg1: index, %arg2: memref<?x?xf32>, %arg3: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  scf.forall (%arg4, %arg5) in (%arg0, 8) {
    memref.store %cst, %arg2[%arg4, %arg5] : memref<?x?xf32>
  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  scf.forall (%arg4) = (0) to (%arg0) step (2) {
    memref.store %cst, %arg2[%arg4, %arg4] : memref<?x?xf32>
  } {mapping = [#gpu.block<z>]}
  scf.forall (%arg4, %arg5) = (%c0, 1) to (%arg0, %arg1) step (%arg1, 4) {
    memref.store %cst, %arg2[%arg4, %arg5] : memref<?x?xf32>
  } {mapping = [#gpu.warp<linear_dim_1>, #gpu.lane<linear_dim_0>], tag}
  scf.forall (%arg4) = (0) to (16) step (1) {
  }
  %0 = scf.forall (%arg4) in (%arg0) shared_outs(%arg5 = %arg3) -> (tensor<?xf32>) {
    %extracted_slice = tensor.extract_slice %arg5[%arg4] [1] [1] : tensor<?xf32> to tensor<1xf32>
    scf.forall.in_parallel {
    }
  }
  %1:2 = scf.forall (%arg4) in (%arg0) shared_outs(%arg5 = %arg3, %arg6 = %0) -> (tensor<?xf32>, tensor<?xf32>) {
    scf.forall.in_parallel {
    }
  } {mapping = [#gpu.block<x>]}
  return %0, %1#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// scf.while: with and without loop-carried values, `attributes {...}`.
// CHECK-LABEL:  func.func @while(%arg0: i32, %arg1: index, %arg2: i1) -> (i32, index) {
// CHECK-NEXT:    {{%[0-9]+}} = scf.while (%arg3 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:      {{%[0-9]+}} = arith.cmpi slt, %arg3, %arg0 : i32
// CHECK-NEXT:      scf.condition({{%[0-9]+}}) %arg3 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg3: i32):
// CHECK-NEXT:      scf.yield %arg3 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.while (%arg3 = %arg0, %arg4 = %arg1) : (i32, index) -> (index, i32) {
// CHECK-NEXT:      scf.condition(%arg2) %arg4, %arg3 : index, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg3: index, %arg4: i32):
// CHECK-NEXT:      scf.yield %arg4, %arg3 : i32, index
// CHECK-NEXT:    } attributes {tag = 1 : i32}
// CHECK-NEXT:    scf.while : () -> () {
// CHECK-NEXT:      scf.condition(%arg2)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.while : () -> () {
// CHECK-NEXT:      scf.condition(%arg2)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
func.func @while(%arg0: i32, %arg1: index, %arg2: i1) -> (i32, index) {
  %0 = scf.while (%arg3 = %arg0) : (i32) -> i32 {
    %2 = arith.cmpi slt, %arg3, %arg0 : i32
    scf.condition(%2) %arg3 : i32
  } do {
  ^bb0(%arg3: i32):
    scf.yield %arg3 : i32
  }
  %1:2 = scf.while (%arg3 = %arg0, %arg4 = %arg1) : (i32, index) -> (index, i32) {
    scf.condition(%arg2) %arg4, %arg3 : index, i32
  } do {
  ^bb0(%arg3: index, %arg4: i32):
    scf.yield %arg4, %arg3 : i32, index
  } attributes {tag = 1 : i32}
  scf.while : () -> () {
    scf.condition(%arg2)
  } do {
    scf.yield
  }
  scf.while () : () -> () {
    scf.condition(%arg2)
  } do {
    scf.yield
  }
  return %0, %1#0 : i32, index
}

// -----

// scf.execute_region: results, no_inline, the scf.yield always printed.
// CHECK-LABEL:  func.func @execute_region(%arg0: i32, %arg1: f32) -> (i32, f32) {
// CHECK-NEXT:    {{%[0-9]+}} = scf.execute_region -> i32 {
// CHECK-NEXT:      scf.yield %arg0 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.execute_region {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.execute_region no_inline {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.execute_region -> (i32, f32) no_inline {
// CHECK-NEXT:      scf.yield %arg0, %arg1 : i32, f32
// CHECK-NEXT:    }
func.func @execute_region(%arg0: i32, %arg1: f32) -> (i32, f32) {
  %0 = scf.execute_region -> i32 {
    scf.yield %arg0 : i32
  }
  scf.execute_region {
    scf.yield
  }
  scf.execute_region no_inline {
    scf.yield
  } {tag}
  %1:2 = scf.execute_region -> (i32, f32) no_inline {
    scf.yield %arg0, %arg1 : i32, f32
  }
  return %0, %1#1 : i32, f32
}

// -----

// scf.index_switch: results without parentheses, case regions print their
// scf.yield, the default region elides an empty one.
// CHECK-LABEL:  func.func @index_switch(%arg0: index, %arg1: i32) -> i32 {
// CHECK-NEXT:    {{%[0-9]+}} = scf.index_switch %arg0 -> i32 
// CHECK-NEXT:    case 2 {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    case -7 {
// CHECK-NEXT:      %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:      scf.yield %c7_i32 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.index_switch %arg0 {tag} 
// CHECK-NEXT:    case 0 {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.index_switch %arg0 -> i32, index 
// CHECK-NEXT:    default {
// CHECK-NEXT:      scf.yield %arg1, %arg0 : i32, index
// CHECK-NEXT:    }
func.func @index_switch(%arg0: index, %arg1: i32) -> i32 {
  %0 = scf.index_switch %arg0 -> i32 
  case 2 {
    scf.yield %arg1 : i32
  }
  case -7 {
    %c7_i32 = arith.constant 7 : i32
    scf.yield %c7_i32 : i32
  }
  default {
    scf.yield %arg1 : i32
  }
  scf.index_switch %arg0 {tag} 
  case 0 {
    scf.yield
  }
  default {
  }
  %1:2 = scf.index_switch %arg0 -> i32, index 
  default {
    scf.yield %arg1, %arg0 : i32, index
  }
  return %0 : i32
}

// -----

// scf.if: `-> i32` printed `-> (i32)`, a missing else stays missing.
// CHECK-LABEL:  func.func @if(%arg0: i1, %arg1: i32, %arg2: f32) -> (i32, f32) {
// CHECK-NEXT:    {{%[0-9]+}} = scf.if %arg0 -> (i32) {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.if %arg0 -> (i32, f32) {
// CHECK-NEXT:      scf.yield %arg1, %arg2 : i32, f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %arg1, %arg2 : i32, f32
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:      {{%[0-9]+}} = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %arg0 {
// CHECK-NEXT:    } else {
// CHECK-NEXT:      {{%[0-9]+}} = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:    }
func.func @if(%arg0: i1, %arg1: i32, %arg2: f32) -> (i32, f32) {
  %0 = scf.if %arg0 -> i32 {
    scf.yield %arg1 : i32
  } else {
    scf.yield %arg1 : i32
  }
  %1:2 = scf.if %arg0 -> (i32, f32) {
    scf.yield %arg1, %arg2 : i32, f32
  } else {
    scf.yield %arg1, %arg2 : i32, f32
  } {tag}
  scf.if %arg0 {
    %2 = arith.addi %arg1, %arg1 : i32
  }
  scf.if %arg0 {
  } else {
    %2 = arith.addi %arg1, %arg1 : i32
  }
  return %0, %1#1 : i32, f32
}

// -----

// scf.for: iter_args, an integer induction variable, `unsigned`.
// CHECK-LABEL:  func.func @for(%arg0: index, %arg1: i32, %arg2: f32, %arg3: i64) -> (i32, f32) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    scf.for %arg4 = %c0 to %arg0 step %c1 {
// CHECK-NEXT:      {{%[0-9]+}} = arith.addi %arg4, %arg4 : index
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.for %arg4 = %c0 to %arg0 step %c1 iter_args(%arg5 = %arg1) -> (i32) {
// CHECK-NEXT:      scf.yield %arg5 : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}}:2 = scf.for %arg4 = %c0 to %arg0 step %c1 iter_args(%arg5 = %arg1, %arg6 = %arg2) -> (i32, f32) {
// CHECK-NEXT:      scf.yield %arg5, %arg6 : i32, f32
// CHECK-NEXT:    } {tag}
// CHECK-NEXT:    scf.for %arg4 = %arg1 to %arg1 step %arg1  : i32 {
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for unsigned %arg4 = %arg3 to %arg3 step %arg3  : i64 {
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.for unsigned %arg4 = %arg1 to %arg1 step %arg1 iter_args(%arg5 = %arg2) -> (f32)  : i32 {
// CHECK-NEXT:      scf.yield %arg5 : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.for unsigned %arg4 = %c0 to %arg0 step %c1 {
// CHECK-NEXT:    }
func.func @for(%arg0: index, %arg1: i32, %arg2: f32, %arg3: i64) -> (i32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %arg4 = %c0 to %arg0 step %c1 {
    %3 = arith.addi %arg4, %arg4 : index
  }
  %0 = scf.for %arg4 = %c0 to %arg0 step %c1 iter_args(%arg5 = %arg1) -> (i32) {
    scf.yield %arg5 : i32
  }
  %1:2 = scf.for %arg4 = %c0 to %arg0 step %c1 iter_args(%arg5 = %arg1, %arg6 = %arg2) -> (i32, f32) {
    scf.yield %arg5, %arg6 : i32, f32
  } {tag}
  scf.for %arg4 = %arg1 to %arg1 step %arg1  : i32 {
  }
  scf.for unsigned %arg4 = %arg3 to %arg3 step %arg3  : i64 {
  }
  %2 = scf.for unsigned %arg4 = %arg1 to %arg1 step %arg1 iter_args(%arg5 = %arg2) -> (f32)  : i32 {
    scf.yield %arg5 : f32
  }
  scf.for unsigned %arg4 = %c0 to %arg0 step %c1 {
  }
  return %0, %1#1 : i32, f32
}

// -----

// scf.while with loop-carried values but no results, results but no
// loop-carried values, and one result (printed without parentheses).
// CHECK-LABEL:  func.func @while_forms(%arg0: i32, %arg1: i1) -> i32 {
// CHECK-NEXT:    scf.while (%arg2 = %arg0) : (i32) -> () {
// CHECK-NEXT:      scf.condition(%arg1)
// CHECK-NEXT:    } do {
// CHECK-NEXT:      {{%[0-9]+}} = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:      scf.yield {{%[0-9]+}} : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.while : () -> i32 {
// CHECK-NEXT:      scf.condition(%arg1) %arg0 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg2: i32):
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    {{%[0-9]+}} = scf.while (%arg2 = %arg0) : (i32) -> i32 {
// CHECK-NEXT:      scf.condition(%arg1) %arg2 : i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%arg2: i32):
// CHECK-NEXT:      scf.yield %arg2 : i32
// CHECK-NEXT:    }
func.func @while_forms(%arg0: i32, %arg1: i1) -> i32 {
  scf.while (%arg2 = %arg0) : (i32) -> () {
    scf.condition(%arg1)
  } do {
    %2 = arith.addi %arg0, %arg0 : i32
    scf.yield %2 : i32
  }
  %0 = scf.while : () -> i32 {
    scf.condition(%arg1) %arg0 : i32
  } do {
  ^bb0(%arg2: i32):
    scf.yield
  }
  %1 = scf.while (%arg2 = %arg0) : (i32) -> (i32) {
    scf.condition(%arg1) %arg2 : i32
  } do {
  ^bb0(%arg2: i32):
    scf.yield %arg2 : i32
  }
  return %0 : i32
}
