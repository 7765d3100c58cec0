// Memrefs flowing through control flow in a kernel (cf block arguments,
// scf.if results, scf.for iter_args): the simulator runs them (the OpenCL
// backend does not: OpenCL C 1.2 pointers cannot change address space).
// RUN: xgpu-run --backend sim --detect-races %s | filecheck %s
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
      cf.cond_br %even, ^first(%a, %tid : memref<8xi32>, index), ^first(%b, %c1 : memref<8xi32>, index)
    ^first(%m: memref<8xi32>, %k: index):
      %v = memref.load %m[%tid] : memref<8xi32>
      %big = arith.cmpi ugt, %k, %c4 : index
      cf.cond_br %big, ^done(%v : i32), ^twice(%v : i32)
    ^twice(%x: i32):
      %y = arith.addi %x, %x : i32
      cf.br ^done(%y : i32)
    ^done(%z: i32):
      memref.store %z, %out[%c0, %tid] : memref<2x8xi32>
      // scf.if yielding a memref, then a loop carrying a memref and a sum
      %sel = scf.if %even -> (memref<8xi32>) {
        scf.yield %b : memref<8xi32>
      } else {
        scf.yield %a : memref<8xi32>
      }
      %zero = arith.constant 0 : i32
      %res:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%mm = %sel, %s = %zero) -> (memref<8xi32>, i32) {
        %w = memref.load %mm[%i] : memref<8xi32>
        %s2 = arith.addi %s, %w : i32
        scf.yield %a, %s2 : memref<8xi32>, i32
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
// CHECK: sizes = [2, 8] strides = [8, 1] data =
// CHECK-NEXT: {{\[\[}}0,   20,   4,   60,   8,   100,   6,   140],
// CHECK-NEXT:  [6,   6,   6,   6,   6,   6,   6,   6{{\]\]}}
