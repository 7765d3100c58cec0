// Copies and fills into part of a device buffer (subviews at an offset):
// host-to-device, device-to-device and gpu.memset, async and chained by
// tokens, then kernels over the whole buffers.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @double(%m: memref<8xi32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<8xi32>
      %y = arith.addi %x, %x : i32
      memref.store %y, %m[%i] : memref<8xi32>
      gpu.return
    }
  }

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1 : i32
    %five = arith.constant 5 : i32
    %seven = arith.constant 7 : i32
    %h = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %ten = arith.constant 10 : i32
      %v = arith.addi %ii, %ten : i32
      memref.store %v, %h[%i] : memref<4xi32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xi32>
    %e, %t2 = gpu.alloc async [%t0] () : memref<8xi32>
    %t3 = gpu.memset async [%t1] %d, %one : memref<8xi32>, i32
    %mid = memref.subview %d[2] [2] [1] : memref<8xi32> to memref<2xi32, strided<[1], offset: 2>>
    %t4 = gpu.memset async [%t3] %mid, %five : memref<2xi32, strided<[1], offset: 2>>, i32
    %top = memref.subview %d[4] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1], offset: 4>>
    %t5 = gpu.memcpy async [%t4] %top, %h : memref<4xi32, strided<[1], offset: 4>>, memref<4xi32>
    %t6 = gpu.memset async [%t2] %e, %seven : memref<8xi32>, i32
    %first = memref.subview %e[0] [2] [1] : memref<8xi32> to memref<2xi32, strided<[1]>>
    %t7 = gpu.memcpy async [%t5, %t6] %first, %mid : memref<2xi32, strided<[1]>>, memref<2xi32, strided<[1], offset: 2>>
    %t8 = gpu.launch_func async [%t7] @k::@double blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xi32>)
    %t9 = gpu.launch_func async [%t7] @k::@double blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%e : memref<8xi32>)
    %hd = memref.alloc() : memref<8xi32>
    %he = memref.alloc() : memref<8xi32>
    %t10 = gpu.memcpy async [%t8] %hd, %d : memref<8xi32>, memref<8xi32>
    %t11 = gpu.memcpy async [%t9] %he, %e : memref<8xi32>, memref<8xi32>
    gpu.wait [%t10, %t11]
    %ud = memref.cast %hd : memref<8xi32> to memref<*xi32>
    %ue = memref.cast %he : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%ud) : (memref<*xi32>) -> ()
    call @printMemrefI32(%ue) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<8xi32>
    gpu.dealloc %e : memref<8xi32>
    return
  }
}
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [2,  2,  10,  10,  20,  22,  24,  26]
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [10,  10,  14,  14,  14,  14,  14,  14]
