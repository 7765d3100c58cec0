// RUN: sed '/^\/\/ INVALID INPUTS/,$d' %s | xgpu-opt -p convert-parallel-loops-to-gpu --split-input-file | filecheck %s
// xgpu-opt reads back what the pass writes (semi-affine maps, affine.apply/min) and prints it again unchanged.
// RUN: sed '/^\/\/ INVALID INPUTS/,$d' %s | xgpu-opt -p convert-parallel-loops-to-gpu --split-input-file | xgpu-opt --split-input-file | filecheck %s
// RUN: sed -n '/^\/\/ INVALID INPUTS/,$p' %s | xgpu-opt -p convert-parallel-loops-to-gpu --split-input-file --verify-diagnostics

// (Inputs in generic form: xgpu-opt prints scf.parallel in custom form, as mlir-opt does.)

// Block dimension 0 and a sequential dimension 1, thread dimension 0 nested.
// Sizes before the launch: (ub - lb) ceildiv step; unmapped ones: a new
// constant 1. Indices in the body: id * step + lb. The loops' attributes but
// `mapping` go onto the launch, with SCFToGPU_visited.
// CHECK:       #map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
// CHECK-NEXT:  #map1 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
// CHECK-LABEL: func.func @basic(%a: memref<?x?xf32>, %n: index, %m: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[GX:.*]] = affine.apply #map(%n)[%c0, %c2]
// CHECK-NEXT:    %[[BX:.*]] = affine.apply #map(%c4)[%c0, %c1]
// CHECK-NEXT:    gpu.launch blocks(%[[IDX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%[[TIDX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BX]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) {
// CHECK-NEXT:      %[[I:.*]] = affine.apply #map1(%[[IDX]])[%c2, %c0]
// CHECK-NEXT:      scf.for %[[J:.*]] = %c1 to %m step %c4 {
// CHECK-NEXT:        %[[K:.*]] = affine.apply #map1(%[[TIDX]])[%c1, %c0]
// CHECK-NEXT:        %x = arith.addi %[[I]], %[[K]] : index
// CHECK-NEXT:        %v = memref.load %a[%x, %[[J]]] : memref<?x?xf32>
// CHECK-NEXT:        memref.store %v, %a[%[[J]], %x] : memref<?x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {SCFToGPU_visited, foo = "bar", inner = 1 : i32}
// CHECK-NEXT:    func.return
func.func @basic(%a: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c1, %n, %m, %c2, %c4) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    "scf.parallel"(%c0, %c4, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%k: index):
      %x = arith.addi %i, %k : index
      %v = memref.load %a[%x, %j] : memref<?x?xf32>
      memref.store %v, %a[%j, %x] : memref<?x?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>], inner = 1 : i32} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>], foo = "bar"} : (index, index, index, index, index, index) -> ()
  return
}

// -----

// An upper bound computed in the nest (affine.min) gets the static bound 4
// (a constant result of the min) and the body an scf.if guard; `map` and
// `bound` compose with the index and size maps.
// CHECK:       #map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
// CHECK-NEXT:  #map1 = affine_map<(d0)[s0, s1] -> (((d0 - s0) ceildiv s1) ceildiv 2)>
// CHECK-NEXT:  #map2 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
// CHECK-NEXT:  #map3 = affine_map<(d0)[s0] -> (4, -d0 + s0)>
// CHECK-NEXT:  #map4 = affine_map<(d0)[s0, s1] -> ((d0 * s0 + s1) * 2)>
// CHECK-LABEL: func.func @tiled(%a: memref<?xf32>, %n: index) {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[GX:.*]] = affine.apply #map(%n)[%c0, %c4]
// CHECK-NEXT:    %[[UB:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[BX:.*]] = affine.apply #map1(%[[UB]])[%c0, %c1]
// CHECK-NEXT:    gpu.launch blocks(%[[IDX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%[[TIDX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BX]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) {
// CHECK-NEXT:      %[[I:.*]] = affine.apply #map2(%[[IDX]])[%c4, %c0]
// CHECK-NEXT:      %ub = affine.min #map3(%[[I]])[%n]
// CHECK-NEXT:      %[[J:.*]] = affine.apply #map4(%[[TIDX]])[%c1, %c0]
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[J]], %ub : index
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        %x = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:        %v = memref.load %a[%x] : memref<?xf32>
// CHECK-NEXT:        memref.store %v, %a[%x] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {SCFToGPU_visited}
#map0 = affine_map<(d0)[s0] -> (4, s0 - d0)>
func.func @tiled(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %n, %c4) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %ub = affine.min #map0(%i)[%n]
    "scf.parallel"(%c0, %ub, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%k: index):
      %x = arith.addi %i, %k : index
      %v = memref.load %a[%x] : memref<?xf32>
      memref.store %v, %a[%x] : memref<?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0 * 2), bound = (d0) -> (d0 ceildiv 2)>]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// A nested loop's reduction becomes gpu.all_reduce with the reduction region
// (its initial value is not used).
// CHECK-LABEL: func.func @reduction(%a: memref<?xf32>, %n: index) {
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[J:.*]] = affine.apply #map1(%{{.*}})[%c1, %c0]
// CHECK-NEXT:      %[[I:.*]] = affine.apply #map1(%{{.*}})[%c1, %c0]
// CHECK-NEXT:      %v = memref.load %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:      %[[R:.*]] = gpu.all_reduce  %v {
// CHECK-NEXT:      ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:        %s = arith.addf %x, %y : f32
// CHECK-NEXT:        gpu.yield %s : f32
// CHECK-NEXT:      } : (f32) -> f32
// CHECK-NEXT:      memref.store %[[R]], %a[%[[J]]] : memref<?xf32>
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {SCFToGPU_visited}
func.func @reduction(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        scf.reduce.return %s : f32
      }
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index, f32) -> f32
    memref.store %r, %a[%j] : memref<?xf32>
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// A side effect before a nested loop is allowed when the nested loop only
// touches memory that cannot alias what was written (here a memref.alloc
// against a function argument).
// CHECK-LABEL: func.func @alias(%a: memref<?xf32>, %n: index, %f: f32) {
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[I:.*]] = affine.apply #map1(%{{.*}})[%c1, %c0]
// CHECK-NEXT:      memref.store %f, %p[%[[I]]] : memref<?xf32>
// CHECK-NEXT:      %[[J:.*]] = affine.apply #map1(%{{.*}})[%c1, %c0]
// CHECK-NEXT:      %v = memref.load %a[%[[J]]] : memref<?xf32>
// CHECK-NEXT:      memref.store %v, %a[%[[I]]] : memref<?xf32>
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {SCFToGPU_visited}
func.func @alias(%a: memref<?xf32>, %n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %p[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %v = memref.load %a[%j] : memref<?xf32>
      memref.store %v, %a[%i] : memref<?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// Not converted, and left exactly as it was: a side effect (the store) after
// leaving the scf.for of a sequential dimension; an unmapped loop.
// CHECK-LABEL: func.func @left(%a: memref<?xf32>, %n: index) {
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     SCFToGPU_visited
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:    memref.store %f, %a[%i] : memref<?xf32>
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK-NEXT:  scf.parallel (%k) = (%c0) to (%n) step (%c1) {
// CHECK-NEXT:    scf.reduce
// CHECK-NEXT:  {{^ *}}}{{$}}
// CHECK-NEXT:  func.return
func.func @left(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %v = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%k: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

// INVALID INPUTS (checked with --verify-diagnostics): where mlir-opt 22 fails
// or reports an error.

// The result of an outermost loop is still used after the conversion: mlir-opt
// fails with this error.
func.func @used_result(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{failed to legalize unresolved materialization from () to ('f32') that remained live after conversion}}
  %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %v = memref.load %a[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index, f32) -> f32
  // expected-note @+1 {{see existing live user here}}
  return %r : f32
}

// -----

// An induction variable without mapping entry is used: mlir-opt fails with
// "null operand found".
func.func @unmapped_iv(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{'scf.parallel' op induction variable #1 has no entry in `mapping` but is used (mlir-opt 22 fails here with 'null operand found')}}
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    memref.store %f, %a[%i, %j] : memref<?x?xf32>
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index, index, index, index) -> ()
  return
}

// -----

// A mapping entry that is not a #gpu.loop_dim_map (mlir-opt reports it, leaves
// the loop and goes on).
func.func @bad_entry(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op expected mapping attribute for lowering to GPU}}
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    scf.reduce
  }) {mapping = [1 : i32]} : (index, index, index) -> ()
  return
}
