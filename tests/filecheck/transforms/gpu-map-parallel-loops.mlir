// RUN: xgpu-opt -p gpu-map-parallel-loops --split-input-file --allow-unregistered-dialect %s | filecheck %s
// Its output reads back (scf.parallel in custom form, the mappings):
// RUN: xgpu-opt -p gpu-map-parallel-loops --split-input-file --allow-unregistered-dialect %s | xgpu-opt --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: xgpu-opt -p 'gpu-map-parallel-loops{mapping-policy=innermost-first}' --split-input-file --allow-unregistered-dialect %s | filecheck %s --check-prefix=INNER
// An unknown policy is an error, reported at each function (case and blanks around
// the name do not matter).
// RUN: printf 'func.func @f() {\n  return\n}\nfunc.func @g() {\n  return\n}\n' | not xgpu-opt -p 'gpu-map-parallel-loops{mapping-policy=diagonal}' 2>&1 | filecheck %s --check-prefix=BAD
// BAD: <stdin>:1:1: error: Invalid mapping policy specified.
// BAD: <stdin>:4:1: error: Invalid mapping policy specified.
// RUN: xgpu-opt -p 'gpu-map-parallel-loops{mapping-policy=Innermost-First}' --split-input-file --allow-unregistered-dialect %s | filecheck %s --check-prefix=INNER

// (Inputs in generic form: xgpu-opt prints scf.parallel in custom form, as mlir-opt does.)

// Outermost loop: block ids; the loops directly in its body: thread ids; the
// next level and dimensions past the third: sequential. The loop inside the
// scf.for is not mapped.
// CHECK-LABEL: func.func @nest
// CHECK:       scf.parallel (%l, %m, %o, %p) =
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:  scf.reduce
// CHECK-NEXT:  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:  scf.for
// CHECK-NEXT:    scf.parallel (%k) =
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    {{^ *}}}{{$}}
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.reduce
// CHECK-NEXT:  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]}

// innermost-first: the last of the first three dimensions gets x.
// INNER-LABEL: func.func @nest
// INNER:       } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// INNER:       } {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @nest(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c4) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%k: index):
      "scf.parallel"(%c0, %c0, %c0, %c0, %n, %n, %n, %n, %c1, %c1, %c1, %c1) <{operandSegmentSizes = array<i32: 4, 4, 4, 0>}> ({
      ^bb0(%l: index, %m: index, %o: index, %p: index):
        %x = arith.addi %l, %p : index
        %v = memref.load %a[%x, %m] : memref<?x?xf32>
        memref.store %v, %a[%o, %k] : memref<?x?xf32>
        scf.reduce
      }) : (index, index, index, index, index, index, index, index, index, index, index, index) -> ()
      scf.reduce
    }) : (index, index, index) -> ()
    scf.for %q = %c0 to %n step %c1 {
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%k: index):
        scf.reduce
      }) : (index, index, index) -> ()
    }
    scf.reduce
  }) : (index, index, index, index, index, index) -> ()
  return
}

// -----

// Four dimensions at the thread level: x, y, z, sequential (innermost-first:
// z, y, x, sequential). A loop with a mapping keeps it, its body is left alone.
// CHECK-LABEL: func.func @wide
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
// CHECK-NEXT:    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    {{^ *}}}{{$}}
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  } {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], tag = "kept"}

// INNER-LABEL: func.func @wide
// INNER:       } {mapping = [#gpu.loop_dim_map<processor = thread_z, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @wide(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %c0, %c0, %c0, %n, %n, %n, %n, %c1, %c1, %c1, %c1) <{operandSegmentSizes = array<i32: 4, 4, 4, 0>}> ({
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      scf.reduce
    }) : (index, index, index, index, index, index, index, index, index, index, index, index) -> ()
    scf.reduce
  }) : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      scf.reduce
    }) : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>], tag = "kept"} : (index, index, index) -> ()
  return
}

// -----

// Only the func.func ops directly in the top-level module: not a nested
// module's, not a gpu.module's.
// CHECK-LABEL: func.func @nested_module
// CHECK:       {{^ *}}}{{$}}
// CHECK-LABEL: func.func @device
// CHECK:       {{^ *}}}{{$}}
// CHECK-LABEL: func.func @top
// CHECK:       } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
module {
  module {
    func.func @nested_module(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%i: index):
        scf.reduce
      }) : (index, index, index) -> ()
      return
    }
  }
  gpu.module @kernels {
    func.func @device(%n: index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%i: index):
        scf.reduce
      }) : (index, index, index) -> ()
      return
    }
  }
  func.func @top(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      scf.reduce
    }) : (index, index, index) -> ()
    return
  }
}

