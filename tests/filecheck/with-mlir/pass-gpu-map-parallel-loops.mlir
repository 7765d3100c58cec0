// RUN: %mlir-diff --pass gpu-map-parallel-loops %s
// RUN: %mlir-diff --pass 'gpu-map-parallel-loops{mapping-policy=innermost-first}' %s
// RUN: %mlir-diff --pass 'gpu-map-parallel-loops{mapping-policy=Outermost-First}' %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-map-parallel-loops' %s

// xgpu-opt -p gpu-map-parallel-loops against mlir-opt --gpu-map-parallel-loops,
// chunk by chunk. scf.parallel is written in generic form (xgpu-opt reads
// and prints the custom form too, see scf-ops.mlir).

// Outermost loop: blocks; loops directly in its body: threads; deeper and
// extra dimensions: sequential. A loop nested in an scf.for is not mapped (it
// is neither the start of a mapping nor directly in a mapped body).
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

// Four dimensions: the fourth is sequential at every level. A loop that already
// has a mapping keeps it, and the loops in its body are left alone.
func.func @wide(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %c0, %c0, %c0, %n, %n, %n, %n, %c1, %c1, %c1, %c1) <{operandSegmentSizes = array<i32: 4, 4, 4, 0>}> ({
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    "scf.parallel"(%c0, %c0, %c0, %c0, %n, %n, %n, %n, %c1, %c1, %c1, %c1) <{operandSegmentSizes = array<i32: 4, 4, 4, 0>}> ({
    ^bb0(%a: index, %b: index, %c: index, %d: index):
      scf.reduce
    }) : (index, index, index, index, index, index, index, index, index, index, index, index) -> ()
    scf.reduce
  }) : (index, index, index, index, index, index, index, index, index, index, index, index) -> ()
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%i: index):
    "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%j: index):
      scf.reduce
    }) : (index, index, index) -> ()
    scf.reduce
  }) {mapping = [#gpu.loop_dim_map<processor = thread_y, map = (d0) -> (d0), bound = (d0) -> (d0)>]} : (index, index, index) -> ()
  return
}

// -----

// Reductions and loops inside other ops (here a gpu.launch) are mapped too;
// the other attributes stay.
func.func @in_launch(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z1 = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %w = %c1, %q = %c1) {
    %r = "scf.parallel"(%c0, %n, %c1, %z) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
    ^bb0(%i: index):
      %v = memref.load %a[%i] : memref<?xf32>
      scf.reduce(%v : f32) {
      ^bb0(%l: f32, %m: f32):
        %s = arith.addf %l, %m : f32
        scf.reduce.return %s : f32
      }
    }) {tag = "kept"} : (index, index, index, f32) -> f32
    memref.store %r, %a[%c0] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Only the func.func ops directly in the top-level module are visited (MLIR
// anchors the pass on func.func): not those of nested modules or gpu.modules,
// nor other ops' regions.
module attributes {gpu.container_module} {
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
  "test.op"() ({
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    "scf.parallel"(%c0, %c1, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
    ^bb0(%i: index):
      scf.reduce
    }) : (index, index, index) -> ()
    "test.end"() : () -> ()
  }) : () -> ()
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
