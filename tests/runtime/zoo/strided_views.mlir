// Dynamic shapes and strided views: a kernel over a memref with a dynamic
// strided layout, launched on subviews of device memory (interior block,
// every other column); the host prints strided views too.
module attributes {gpu.container_module} {
  gpu.module @views {
    gpu.func @scale_add(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>, %f: f32, %g: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.global_id y
      %j = gpu.global_id x
      %rows = memref.dim %m, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %cols = memref.dim %m, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %ri = arith.cmpi ult, %i, %rows : index
      %cj = arith.cmpi ult, %j, %cols : index
      %ok = arith.andi %ri, %cj : i1
      scf.if %ok {
        %v = memref.load %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
        %s = arith.mulf %v, %f : f32
        %r = arith.addf %s, %g : f32
        memref.store %r, %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @run(%rows: index, %cols: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %host = memref.alloc(%rows, %cols) : memref<?x?xf32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %k = arith.muli %i, %cols : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        memref.store %f, %host[%i, %j] : memref<?x?xf32>
      }
    }
    %dev = gpu.alloc (%rows, %cols) : memref<?x?xf32>
    gpu.memcpy %dev, %host : memref<?x?xf32>, memref<?x?xf32>
    // rows 1..rows-2, columns 1..cols-2: x * 10
    %r2 = arith.subi %rows, %c2 : index
    %k2 = arith.subi %cols, %c2 : index
    %inner = memref.subview %dev[1, 1] [%r2, %k2] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
    %inner_dyn = memref.cast %inner : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    %ten = arith.constant 10.0 : f32
    %zero = arith.constant 0.0 : f32
    gpu.launch_func @views::@scale_add blocks in (%c2, %c2, %c1) threads in (%c4, %c4, %c1) args(%inner_dyn : memref<?x?xf32, strided<[?, ?], offset: ?>>, %ten : f32, %zero : f32)
    // every other column of row 0 and row 1 (columns 0, 2, 4, ...): -x - 0.5
    %half = arith.divui %cols, %c2 : index
    %evens = memref.subview %dev[0, 0] [2, %half] [1, 2] : memref<?x?xf32> to memref<2x?xf32, strided<[?, 2]>>
    %evens_dyn = memref.cast %evens : memref<2x?xf32, strided<[?, 2]>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    %m1 = arith.constant -1.0 : f32
    %mh = arith.constant -0.5 : f32
    gpu.launch_func @views::@scale_add blocks in (%c1, %c1, %c1) threads in (%c4, %c2, %c1) args(%evens_dyn : memref<?x?xf32, strided<[?, ?], offset: ?>>, %m1 : f32, %mh : f32)
    gpu.memcpy %host, %dev : memref<?x?xf32>, memref<?x?xf32>
    %u = memref.cast %host : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // a strided host view: column 1, every row
    %col = memref.subview %host[0, 1] [%rows, 1] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[?], offset: 1>>
    %uc = memref.cast %col : memref<?xf32, strided<[?], offset: 1>> to memref<*xf32>
    call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
    // a copy of a strided device view to the host
    %small = memref.alloc(%r2, %k2) : memref<?x?xf32>
    gpu.memcpy %small, %inner : memref<?x?xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>
    %us = memref.cast %small : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    gpu.dealloc %dev : memref<?x?xf32>
    return
  }

  func.func @main() {
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    call @run(%c5, %c6) : (index, index) -> ()
    return
  }
}
// CHECK: rank = 2 offset = 0 sizes = [5, 6] strides = [6, 1] data =
// CHECK-NEXT: [[-0.5,   1,   -2.5,   3,   -4.5,   5],
// CHECK-NEXT:  [-6.5,   70,   -80.5,   90,   -100.5,   11],
// CHECK-NEXT:  [12,   130,   140,   150,   160,   17],
// CHECK-NEXT:  [18,   190,   200,   210,   220,   23],
// CHECK-NEXT:  [24,   25,   26,   27,   28,   29]]
// CHECK: rank = 1 offset = 1 sizes = [5] strides = [6] data =
// CHECK-NEXT: [1,  70,  130,  190,  25]
// CHECK: rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: [[70,   -80.5,   90,   -100.5],
// CHECK-NEXT:  [130,   140,   150,   160],
// CHECK-NEXT:  [190,   200,   210,   220]]
