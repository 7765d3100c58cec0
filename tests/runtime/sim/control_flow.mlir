// Kernels with unstructured control flow (cf blocks with block arguments),
// loop-carried values and subviews, compared between the simulator and
// OpenCL (tests/unit/test_sim.py).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @cf(%a: memref<8xi32>, %b: memref<8xi32>, %out: memref<2x8xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %r = arith.remui %tid, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      %va = memref.load %a[%tid] : memref<8xi32>
      %vb = memref.load %b[%tid] : memref<8xi32>
      cf.cond_br %even, ^first(%va, %tid : i32, index), ^first(%vb, %c1 : i32, index)
    ^first(%v: i32, %k: index):
      %big = arith.cmpi ugt, %k, %c4 : index
      cf.cond_br %big, ^done(%v : i32), ^twice(%v : i32)
    ^twice(%x: i32):
      %y = arith.addi %x, %x : i32
      cf.br ^done(%y : i32)
    ^done(%z: i32):
      memref.store %z, %out[%c0, %tid] : memref<2x8xi32>
      // a loop carrying two values, into a row of %out through a subview
      %zero = arith.constant 0 : i32
      %res:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%j = %tid, %s = %zero) -> (index, i32) {
        %w = memref.load %b[%j] : memref<8xi32>
        %s2 = arith.addi %s, %w : i32
        %j2 = arith.addi %j, %c1 : index
        %j3 = arith.remui %j2, %c4 : index
        scf.yield %j3, %s2 : index, i32
      }
      %view = memref.subview %out[1, 0] [1, 8] [1, 1] : memref<2x8xi32> to memref<8xi32, strided<[1], offset: 8>>
      memref.store %res#1, %view[%tid] : memref<8xi32, strided<[1], offset: 8>>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %a = memref.alloc() : memref<8xi32>
    %b = memref.alloc() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %k10 = arith.constant 10 : i32
      %bi = arith.muli %ii, %k10 : i32
      memref.store %ii, %a[%i] : memref<8xi32>
      memref.store %bi, %b[%i] : memref<8xi32>
    }
    %out = memref.alloc() : memref<2x8xi32>
    %ua = memref.cast %a : memref<8xi32> to memref<*xi32>
    %ub = memref.cast %b : memref<8xi32> to memref<*xi32>
    %uo = memref.cast %out : memref<2x8xi32> to memref<*xi32>
    gpu.host_register %ua : memref<*xi32>
    gpu.host_register %ub : memref<*xi32>
    gpu.host_register %uo : memref<*xi32>
    gpu.launch_func @k::@cf blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<8xi32>, %b : memref<8xi32>, %out : memref<2x8xi32>)
    call @printMemrefI32(%uo) : (memref<*xi32>) -> ()
    return
  }
}
