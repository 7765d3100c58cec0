// saxpy: y[i] = a * x[i] + y[i] over 2^20 f32, one work-item per element,
// 4096 blocks of 256 work-items. bench/sim.py times @main (the whole launch)
// after @warmup (one block of the same kernel: builds and compiles it).
module attributes {gpu.container_module} {
  gpu.module @saxpy {
    gpu.func @saxpy(%a: f32, %x: memref<1048576xf32>, %y: memref<1048576xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.global_id x
      %xi = memref.load %x[%i] : memref<1048576xf32>
      %yi = memref.load %y[%i] : memref<1048576xf32>
      %ax = arith.mulf %a, %xi : f32
      %r = arith.addf %ax, %yi : f32
      memref.store %r, %y[%i] : memref<1048576xf32>
      gpu.return
    }
  }
  func.func @axpy(%a: f32, %x: memref<1048576xf32>, %y: memref<1048576xf32>, %g: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<1048576xf32>
    %dy, %t2 = gpu.alloc async [%t0] () : memref<1048576xf32>
    %t3 = gpu.memcpy async [%t1] %dx, %x : memref<1048576xf32>, memref<1048576xf32>
    %t4 = gpu.memcpy async [%t2] %dy, %y : memref<1048576xf32>, memref<1048576xf32>
    %t5 = gpu.launch_func async [%t3, %t4] @saxpy::@saxpy blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : f32, %dx : memref<1048576xf32>, %dy : memref<1048576xf32>)
    %t6 = gpu.memcpy async [%t5] %y, %dy : memref<1048576xf32>, memref<1048576xf32>
    %t7 = gpu.dealloc async [%t6] %dx : memref<1048576xf32>
    %t8 = gpu.dealloc async [%t7] %dy : memref<1048576xf32>
    gpu.wait [%t8]
    return
  }
  func.func @main(%a: f32, %x: memref<1048576xf32>, %y: memref<1048576xf32>) {
    %g = arith.constant 4096 : index
    call @axpy(%a, %x, %y, %g) : (f32, memref<1048576xf32>, memref<1048576xf32>, index) -> ()
    return
  }
  func.func @warmup(%a: f32, %x: memref<1048576xf32>, %y: memref<1048576xf32>) {
    %c1 = arith.constant 1 : index
    call @axpy(%a, %x, %y, %c1) : (f32, memref<1048576xf32>, memref<1048576xf32>, index) -> ()
    return
  }
}
