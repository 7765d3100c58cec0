// RUN: %mlir-diff --pass convert-parallel-loops-to-gpu %s
// Mapping first (the loops without a mapping get one, the others keep theirs).
// RUN: %mlir-diff --pass gpu-map-parallel-loops,convert-parallel-loops-to-gpu %s

// xgpu-opt -p convert-parallel-loops-to-gpu against mlir-opt
// --convert-parallel-loops-to-gpu, chunk by chunk. scf.parallel is written in
// generic form (xgpu-opt reads and prints the custom form too).
// Inputs on which mlir-opt fails (a used result of an outermost loop, a used
// induction variable without mapping entry) are in
// tests/filecheck/transforms/convert-parallel-loops-to-gpu.mlir.

// A block dimension and a sequential one, a thread dimension nested: sizes
// ((ub - lb) ceildiv step) before the launch, unmapped sizes 1, indices
// (id * step + lb) in the body, an scf.for for the sequential dimension. The
// loops' attributes but `mapping` go onto the launch, with SCFToGPU_visited.
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

// Three levels; dimensions mapped in any order; the innermost loop sequential.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#by = #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @three_levels(%a: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  "scf.parallel"(%c0, %n, %c8) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %c0, %c8, %m, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
    ^bb0(%j: index, %k: index):
      "scf.parallel"(%c0, %m, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%l: index):
        %x = arith.addi %i, %j : index
        %v = memref.load %a[%x, %l] : memref<?x?xf32>
        memref.store %v, %a[%k, %x] : memref<?x?xf32>
        scf.reduce
      }) {mapping = [#sq], inner = 3 : i32} : (index, index, index) -> ()
      scf.reduce
    }) {mapping = [#tx, #ty, #bx], middle} : (index, index, index, index, index, index) -> ()
    scf.reduce
  }) {mapping = [#by], outer = "o"} : (index, index, index) -> ()
  return
}

// -----

// Tiled loops: an upper bound computed inside the nest gets a static bound
// (a constant result of affine.min; muli of two constants), the body is
// guarded by scf.if; constants of the nest used in bounds are copied before
// the launch and into the body; `map` and `bound` compose with the index and
// size maps.
#map0 = affine_map<(d0)[s0] -> (4, s0 - d0)>
func.func @tiled(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  "scf.parallel"(%c0, %c0, %n, %n, %c4, %c4) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    %ub = affine.min #map0(%i)[%n]
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %m = arith.muli %ub, %c3 : index
    "scf.parallel"(%c0, %c2, %ub, %m, %c1, %c2) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
    ^bb0(%k: index, %l: index):
      %x = arith.addi %i, %k : index
      %v = memref.load %a[%x, %l] : memref<?x?xf32>
      memref.store %v, %a[%l, %x] : memref<?x?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0 * 2), bound = (d0) -> (d0 ceildiv 2)>]} : (index, index, index, index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0 + 3), bound = (d0) -> (d0 floordiv 4 + 1)>]} : (index, index, index, index, index, index) -> ()
  return
}

// -----

// arith.minsi: the first operand with a static bound gives it.
func.func @minsi(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  "scf.parallel"(%c0, %n, %c16) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %rest = arith.subi %n, %i : index
    %ub = arith.minsi %rest, %c16 : index
    "scf.parallel"(%c0, %ub, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %x = arith.addi %i, %j : index
      %v = memref.load %a[%x] : memref<?xf32>
      memref.store %v, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// Reductions: a nested loop's reduction becomes gpu.all_reduce (its initial
// value is not used); an outermost loop's unused result too.
func.func @reductions(%a: memref<?xf32>, %n: index) {
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
  %unused = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%i: index):
    %v = memref.load %a[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.maximumf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index, f32) -> f32
  return
}

// -----

// Side effects after a nested mapped loop are fine while no scf.for/scf.if
// scope was left; two launches for two loops, one inside an scf.for.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @effect_after(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %v = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  scf.for %k = %c0 to %n step %c1 {
    "scf.parallel"(%c1, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %a[%k] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx, #bx]} : (index, index, index) -> ()
  }
  return
}

// -----

// A mapping longer than the loop is cut; a shorter one leaves the other
// induction variables unmapped (here unused).
func.func @mapping_length(%a: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    memref.store %f, %a[%i, %i] : memref<?x?xf32>
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index, index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i, %i] : memref<?x?xf32>
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = block_y, map = (d0) -> (d0), bound = (d0) -> (d0)>, #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// In a gpu.func too (the pass converts wherever the loops are).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @kern(%a: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%i: index):
        %v = memref.load %a[%i] : memref<?xf32>
        memref.store %v, %a[%i] : memref<?xf32>
        scf.reduce
      }) {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
      gpu.return
    }
  }
}

// -----

// Left as they are (SCFToGPU_visited is removed from the loops). Unmapped.
func.func @unmapped(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) : (index, index, index) -> ()
  return
}

// -----

// Left: a store to %a before a nested loop that loads from %a.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @effect_before(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %v = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Left: a side effect after leaving a sequential (scf.for) scope.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @effect_after_scope(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %v = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#sq]} : (index, index, index) -> ()
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Left: a mapped loop inside an scf.for of the nest (the copied scf.for would
// hold a mapped loop); two dimensions on one hardware id; already visited.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @left(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %k = %c0 to %n step %c1 {
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%j: index):
        %v = memref.load %a[%j] : memref<?xf32>
        scf.reduce
      }) {mapping = [#tx]} : (index, index, index) -> ()
    }
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %c0, %n, %n, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    scf.reduce
  }) {mapping = [#bx, #bx]} : (index, index, index, index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.reduce
  }) {mapping = [#bx], SCFToGPU_visited} : (index, index, index) -> ()
  return
}

// -----

// Left: bounds that cannot be computed before the launch (a muli of a
// non-constant; a step and a lower bound computed in the nest).
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @dynamic_bounds(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %m = arith.muli %i, %n : index
    "scf.parallel"(%c0, %m, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %s = arith.addi %i, %c1 : index
    "scf.parallel"(%c0, %n, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %s = arith.addi %i, %c1 : index
    "scf.parallel"(%s, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Left: reductions that are not converted (an index value; a region using an
// outer value; a sequential loop's, followed by a store outside its scope).
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func @reductions_left(%a: memref<?xindex>, %b: memref<?xi32>, %n: index, %w: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    %r = "scf.parallel"(%c0, %n, %c1, %c0) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
    ^bb0(%i: index):
      scf.reduce(%i : index) {
      ^bb0(%x: index, %y: index):
        %s = arith.addi %x, %y : index
        scf.reduce.return %s : index
      }
    }) {mapping = [#tx]} : (index, index, index, index) -> index
    memref.store %r, %a[%j] : memref<?xindex>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
    ^bb0(%i: index):
      %v = memref.load %b[%i] : memref<?xi32>
      scf.reduce(%v : i32) {
      ^bb0(%x: i32, %y: i32):
        %s = arith.addi %x, %w : i32
        scf.reduce.return %s : i32
      }
    }) {mapping = [#tx]} : (index, index, index, i32) -> i32
    memref.store %r, %b[%j] : memref<?xi32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
    ^bb0(%i: index):
      %v = memref.load %b[%i] : memref<?xi32>
      scf.reduce(%v : i32) {
      ^bb0(%x: i32, %y: i32):
        %s = arith.maxsi %x, %y : i32
        scf.reduce.return %s : i32
      }
    }) {mapping = [#sq]} : (index, index, index, i32) -> i32
    memref.store %r, %b[%j] : memref<?xi32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Left: a mapping that is not an array; an entry that is not a
// #gpu.loop_dim_map (mlir-opt reports "expected mapping attribute for lowering
// to GPU" and goes on; xgpu-opt reports it and stops).
func.func @bad_mappings(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    scf.reduce
  }) {mapping = 1 : i32} : (index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%j: index):
    scf.reduce
  }) {mapping = [1 : i32]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store to argument %a, then a nested loop loading argument %b (two arguments may alias): left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store, then a nested loop without memory accesses: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %x = arith.addi %j, %j : index
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store to %a, nested store to %b (may alias): left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: nested loop, then a store (same scope, no scope left): converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a load before the nested loop records nothing: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %l2 = memref.load %b[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: stores around a nested loop without accesses: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %x = arith.addi %j, %j : index
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store, then a sequential nested loop loading aliasing memory: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#sq]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store, then a sequential nested loop without accesses: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %x = arith.addi %j, %j : index
      scf.reduce
    }) {mapping = [#sq]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store to an argument, nested load of a memref.alloc (no alias): converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %q[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: store to an allocation, nested load of the same: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %p[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %p[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: func.call (no effect interface: records nothing) before the nested loop: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    func.call @ext() : () -> ()
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %b[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a nested func.call is not checked: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      func.call @ext() : () -> ()
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: the check looks into loops nested deeper: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
      ^bb0(%k: index):
        %l = memref.load %a[%k] : memref<?xf32>
        scf.reduce
      }) {mapping = [#sq]} : (index, index, index) -> ()
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a store in one nested loop, a load of the same memref in the next: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j2: index):
      %l = memref.load %a[%j2] : memref<?xf32>
      scf.reduce
    }) {mapping = [#ty]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: the check looks into the nested loop's scf.for: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      scf.for %k = %c0 to %n step %c1 {
        %l = memref.load %a[%k] : memref<?xf32>
      }
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a view of %a aliases %a: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %sv = memref.subview %a[0] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1]>>
    memref.store %f, %sv[%c0] : memref<4xf32, strided<[1]>>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: llvm.noalias arguments may still alias (for this analysis): left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %na[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %nb[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a read before, a write in the nested loop: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %l0 = memref.load %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      memref.store %f, %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: an scf.for (no effect interface) records nothing, even holding gpu.printf: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %k = %c0 to %n step %c1 {
      gpu.printf "x"
    }
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %x = arith.addi %j, %j : index
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: no side effect before the nested loop: its accesses are not checked: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %mm = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: after a side effect, a nested access to unknown memory (the mma load): left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %l2 = memref.load %b[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %mm = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a cast of an allocation is the allocation: no alias with %a: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    %pc = "memref.cast"(%p) : (memref<?xf32>) -> memref<4xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %pc[%c0] : memref<4xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a nested loop's own alloca does not alias %a: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %a[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %t = memref.alloca() : memref<4xf32>
      %l = memref.load %t[%c0] : memref<4xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: the copied alloca is compared with the original one (distinct allocations): converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %s = memref.alloca() : memref<4xf32>
    memref.store %f, %s[%c0] : memref<4xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %s[%c0] : memref<4xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: writes inside an scf.for are not recorded: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    scf.for %k = %c0 to %n step %c1 {
      memref.store %f, %a[%k] : memref<?xf32>
    }
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: gpu.printf writes unknown memory: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    gpu.printf "x"
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: gpu.printf in the nested loop: left.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %l2 = memref.load %b[%i] : memref<?xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      gpu.printf "x"
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: a gpu.alloc is an allocation too: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %g = gpu.alloc () : memref<4xf32>
    memref.store %f, %g[%c0] : memref<4xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: an allocation carried through scf.for iter_args: converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    %s = memref.alloca() : memref<4xf32>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%it = %s) -> (memref<4xf32>) {
      scf.yield %it : memref<4xf32>
    }
    memref.store %f, %r[%c0] : memref<4xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %a[%j] : memref<?xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}

// -----

// Side effects before a nested loop: two distinct allocations (one through a cast): converted.
#bx = #gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>
#ty = #gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>
#sq = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0), bound = (d0) -> (d0)>
func.func private @ext()
func.func @f(%a: memref<?xf32>, %b: memref<?xf32>, %n: index, %f: f32, %h: memref<16x16xf16>, %na: memref<?xf32> {llvm.noalias}, %nb: memref<?xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.alloc(%n) : memref<?xf32>
  %q = memref.alloc(%n) : memref<?xf32>
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    memref.store %f, %p[%i] : memref<?xf32>
    %cs = "memref.cast"(%q) : (memref<?xf32>) -> memref<4xf32>
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      %l = memref.load %cs[%c0] : memref<4xf32>
      scf.reduce
    }) {mapping = [#tx]} : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#bx]} : (index, index, index) -> ()
  return
}
