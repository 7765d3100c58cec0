// `xgpu-opt --mlir-style` prints as mlir-opt 22 does (the lines below are
// mlir-opt's output); without the flag, xgpu-opt keeps xdsl-opt's
// conventions: the names written in the source, `builtin.module`,
// `func.return`.
// RUN: xgpu-opt --mlir-style -split-input-file %s | filecheck %s
// RUN: xgpu-opt --split-input-file %s | filecheck %s --check-prefix=XDSL
// RUN: xgpu-opt --mlir-style -split-input-file -mlir-print-op-generic %s | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: module {
// CHECK-NEXT:   func.func @constants(%arg0: index) -> (index, i32, i8, i1, f32, f32, f32, f16) {
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     %c42_i32 = arith.constant 42 : i32
// CHECK-NEXT:     %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:     %cst_0 = arith.constant 0x7FC00000 : f32
// CHECK-NEXT:     %cst_1 = arith.constant 4.2949673E+9 : f32
// CHECK-NEXT:     %cst_2 = arith.constant 3.330080e-01 : f16
// CHECK-NEXT:     %c0_3 = arith.constant 0 : index
// CHECK-NEXT:     return %c0_3, %c42_i32, %c-1_i8, %true, %cst, %cst_0, %cst_1, %cst_2 : index, i32, i8, i1, f32, f32, f32, f16
// CHECK-NEXT:   }
// CHECK-NEXT: }
// XDSL-LABEL: builtin.module {
// XDSL:         %a = arith.constant 0 : index
// XDSL:         func.return %z, %b, %c, %t, %x, %y, %big, %h
func.func @constants(%n: index) -> (index, i32, i8, i1, f32, f32, f32, f16) {
  %a = arith.constant 0 : index
  %b = arith.constant 42 : i32
  %c = arith.constant 255 : i8
  %t = arith.constant true
  %x = arith.constant 1.5 : f32
  %y = arith.constant 0x7FC00000 : f32
  %big = arith.constant 4294967296.0 : f32
  %h = arith.constant 0.333 : f16
  %z = arith.constant 0 : index
  return %z, %b, %c, %t, %x, %y, %big, %h : index, i32, i8, i1, f32, f32, f32, f16
}

// -----

// Region arguments continue the enclosing function's %argN and values its
// numbers; sibling regions start again from the same counters.
// CHECK-LABEL: func.func @regions(%arg0: memref<?xf32>, %arg1: index) {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %dim = memref.dim %arg0, %c1 : memref<?xf32>
// CHECK-NEXT:     %alloc = memref.alloc(%arg1) : memref<?xf32>
// CHECK-NEXT:     %alloc_0 = memref.alloc(%dim) : memref<?xf32>
// CHECK-NEXT:     %0 = arith.addi %dim, %c1 : index
// CHECK-NEXT:     gpu.launch blocks(%arg2, %arg3, %arg4) in (%arg8 = %arg1, %arg9 = %c1, %arg10 = %c1) threads(%arg5, %arg6, %arg7) in (%arg11 = %c1, %arg12 = %c1, %arg13 = %c1) {
// CHECK-NEXT:       %thread_id_x = gpu.thread_id  x
// CHECK-NEXT:       %block_dim_y = gpu.block_dim  y
// CHECK-NEXT:       %1 = gpu.lane_id
// CHECK-NEXT:       %2 = arith.addi %thread_id_x, %block_dim_y : index
// CHECK-NEXT:       %3 = memref.load %arg0[%2] : memref<?xf32>
// CHECK-NEXT:       memref.store %3, %alloc[%1] : memref<?xf32>
// CHECK-NEXT:       gpu.terminator
// CHECK-NEXT:     }
// CHECK-NEXT:     scf.for %arg2 = %c1 to %arg1 step %c1 {
// CHECK-NEXT:       %1 = memref.load %alloc[%arg2] : memref<?xf32>
// CHECK-NEXT:       memref.store %1, %alloc_0[%arg2] : memref<?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     return
// GENERIC-LABEL: "func.func"() <{function_type = (memref<?xf32>, index) -> (), sym_name = "regions"}> ({
// GENERIC-NEXT:  ^bb0(%arg0: memref<?xf32>, %arg1: index):
// GENERIC-NEXT:    %0 = "arith.constant"() <{value = 1 : index}> : () -> index
// GENERIC-NEXT:    %1 = "memref.dim"(%arg0, %0) : (memref<?xf32>, index) -> index
// GENERIC:         ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index, %arg8: index, %arg9: index, %arg10: index, %arg11: index, %arg12: index, %arg13: index, %arg14: index):
// GENERIC-NEXT:      %6 = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// GENERIC:         ^bb0(%arg2: index):
// GENERIC-NEXT:      %5 = "memref.load"(%2, %arg2) : (memref<?xf32>, index) -> f32
func.func @regions(%buf: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %d = memref.dim %buf, %c1 : memref<?xf32>
  %m = memref.alloc(%n) : memref<?xf32>
  %m2 = memref.alloc(%d) : memref<?xf32>
  %e = arith.addi %d, %c1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %i = gpu.thread_id x
    %j = gpu.block_dim y
    %lane = gpu.lane_id
    %sum = arith.addi %i, %j : index
    %v = memref.load %buf[%sum] : memref<?xf32>
    memref.store %v, %m[%lane] : memref<?xf32>
    gpu.terminator
  }
  scf.for %iv = %c1 to %n step %c1 {
    %q = memref.load %m[%iv] : memref<?xf32>
    memref.store %q, %m2[%iv] : memref<?xf32>
  }
  return
}

// -----

// Blocks are ^bbN by position, with their predecessors; `call` and `return`
// lose their prefix directly inside a func.func only.
// CHECK-LABEL: func.func @blocks(%arg0: i1, %arg1: index) -> index {
// CHECK-NEXT:     cf.cond_br %arg0, ^bb1, ^bb2(%arg1 : index)
// CHECK-NEXT:   ^bb1:  // pred: ^bb0
// CHECK-NEXT:     %0 = call @blocks(%arg0, %arg1) : (i1, index) -> index
// CHECK-NEXT:     cf.br ^bb2(%0 : index)
// CHECK-NEXT:   ^bb2(%1: index):  // 3 preds: ^bb0, ^bb1, ^bb3
// CHECK-NEXT:     %2 = scf.if %arg0 -> (index) {
// CHECK-NEXT:       %3 = func.call @id(%1) : (index) -> index
// CHECK:          return %2 : index
// CHECK-NEXT:   ^bb3:  // no predecessors
// CHECK-NEXT:     %c0 = arith.constant 0 : index
// CHECK-NEXT:     cf.br ^bb2(%c0 : index)
// GENERIC-LABEL: "func.func"() <{function_type = (i1, index) -> index, sym_name = "blocks"}> ({
// In generic form one set of counters serves the whole module, and the
// regions are numbered from the last: @id, below, takes %arg0.
// GENERIC-NEXT:  ^bb0(%arg1: i1, %arg2: index):
// GENERIC-NEXT:    "cf.cond_br"(%arg1, %arg2)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (i1, index) -> ()
// GENERIC-NEXT:  ^bb1:  // pred: ^bb0
func.func @blocks(%c: i1, %a: index) -> index {
  cf.cond_br %c, ^bb1, ^bb2(%a : index)
^bb1:
  %b = func.call @blocks(%c, %a) : (i1, index) -> index
  cf.br ^bb2(%b : index)
^bb2(%r: index):
  %s = scf.if %c -> (index) {
    %t = func.call @id(%r) : (index) -> index
    scf.yield %t : index
  } else {
    scf.yield %r : index
  }
  func.return %s : index
^bb3:
  %z = arith.constant 0 : index
  cf.br ^bb2(%z : index)
}
func.func private @id(%x: index) -> index {
  return %x : index
}

// -----

// Several named results (%memref, %asyncToken); a named module.
// CHECK-LABEL: module @host attributes {gpu.container_module} {
// CHECK:          %0 = gpu.wait async
// CHECK-NEXT:     %memref, %asyncToken = gpu.alloc async [%0] (%arg0) : memref<?xf32>
// CHECK-NEXT:     %1 = gpu.dealloc async [%asyncToken] %memref : memref<?xf32>
// CHECK-NEXT:     %memref_0 = gpu.alloc  (%arg0) : memref<?xf32>
module @host attributes {gpu.container_module} {
  func.func @host(%n: index) {
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
    %m2 = gpu.alloc (%n) : memref<?xf32>
    gpu.wait [%t2]
    return
  }
}
