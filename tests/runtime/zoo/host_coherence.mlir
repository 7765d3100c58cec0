// Registered host memory used as CUDA allows: the host writes it between
// launches and reads it after each wait, a kernel works on a strided view of
// it while the host writes the other elements, memref.copy reads it, a
// host_shared buffer is filled by a device-to-device copy and read by a
// kernel, and after host_unregister it is plain host memory again. On devices
// without unified host memory (Oclgrind, discrete GPUs) every one of these is
// a point where the device copy and the host memory must agree.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add(%m: memref<8xf32>, %c: f32) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<8xf32>
      %r = arith.addf %x, %c : f32
      memref.store %r, %m[%i] : memref<8xf32>
      gpu.return
    }
    gpu.func @scale_view(%m: memref<4xf32, strided<[2]>>, %f: f32) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<4xf32, strided<[2]>>
      %r = arith.mulf %x, %f : f32
      memref.store %r, %m[%i] : memref<4xf32, strided<[2]>>
      gpu.return
    }
    gpu.func @sum_into(%dst: memref<8xf32>, %a: memref<8xf32>, %b: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = memref.load %b[%i] : memref<8xf32>
      %r = arith.addf %x, %y : f32
      memref.store %r, %dst[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f32
    %hundred = arith.constant 100.0 : f32
    %h = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %h[%i] : memref<8xf32>
    }
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    // Three rounds: the host adds 100 to h[0] (reading what the last kernel
    // wrote), then a kernel adds 1 to every element.
    scf.for %r = %c0 to %c3 step %c1 {
      %x = memref.load %h[%c0] : memref<8xf32>
      %y = arith.addf %x, %hundred : f32
      memref.store %y, %h[%c0] : memref<8xf32>
      %t0 = gpu.wait async
      %t1 = gpu.launch_func async [%t0] @k::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>, %one : f32)
      gpu.wait [%t1]
    }
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // The even elements, scaled by 10 on the device while the host negates
    // the odd ones: disjoint accesses, both kept.
    %evens = memref.subview %h[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
    %ten = arith.constant 10.0 : f32
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t2] @k::@scale_view blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%evens : memref<4xf32, strided<[2]>>, %ten : f32)
    scf.for %i = %c1 to %c8 step %c2 {
      %x = memref.load %h[%i] : memref<8xf32>
      %n = arith.negf %x : f32
      memref.store %n, %h[%i] : memref<8xf32>
    }
    gpu.wait [%t3]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // memref.copy of registered memory into plain host memory.
    %p = memref.alloc() : memref<8xf32>
    memref.copy %h, %p : memref<8xf32> to memref<8xf32>
    %up = memref.cast %p : memref<8xf32> to memref<*xf32>
    gpu.host_register %up : memref<*xf32>
    // host_shared memory filled from registered memory by the device; a
    // kernel sums both into the registered buffer.
    %t4 = gpu.wait async
    %s, %t5 = gpu.alloc async [%t4] host_shared () : memref<8xf32>
    %t6 = gpu.memcpy async [%t5] %s, %h : memref<8xf32>, memref<8xf32>
    %t7 = gpu.launch_func async [%t6] @k::@add blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%s : memref<8xf32>, %one : f32)
    %t8 = gpu.launch_func async [%t7] @k::@sum_into blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>, %s : memref<8xf32>, %p : memref<8xf32>)
    gpu.wait [%t8]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %us = memref.cast %s : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%us) : (memref<*xf32>) -> ()
    gpu.dealloc %s : memref<8xf32>
    gpu.host_unregister %u : memref<*xf32>
    gpu.host_unregister %up : memref<*xf32>
    memref.store %one, %h[%c0] : memref<8xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [303,  4,  5,  6,  7,  8,  9,  10]
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3030,  -4,  50,  -6,  70,  -8,  90,  -10]
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [6061,  -7,  101,  -11,  141,  -15,  181,  -19]
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [3031,  -3,  51,  -5,  71,  -7,  91,  -9]
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1,  -7,  101,  -11,  141,  -15,  181,  -19]
