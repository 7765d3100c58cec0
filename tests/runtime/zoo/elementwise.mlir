// Elementwise kernels: saxpy on f32 and an integer kernel on i32, with a
// bounds guard (n is not a multiple of the block size).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xi : f32
        %r = arith.addf %ax, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @collatz_step(%v: memref<?xi32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %x = memref.load %v[%i] : memref<?xi32>
        %c1 = arith.constant 1 : i32
        %c2 = arith.constant 2 : i32
        %c3 = arith.constant 3 : i32
        %odd = arith.andi %x, %c1 : i32
        %even = arith.cmpi ne, %odd, %c1 : i32
        %half = arith.divsi %x, %c2 : i32
        %t = arith.muli %x, %c3 : i32
        %up = arith.addi %t, %c1 : i32
        %r = arith.select %even, %half, %up : i32
        memref.store %r, %v[%i] : memref<?xi32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c10 = arith.constant 10 : index
    %a = arith.constant 0.5 : f32
    %x = memref.alloc(%c10) : memref<?xf32>
    %y = memref.alloc(%c10) : memref<?xf32>
    %v = memref.alloc(%c10) : memref<?xi32>
    scf.for %i = %c0 to %c10 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
      %ten = arith.constant 10.0 : f32
      memref.store %ten, %y[%i] : memref<?xf32>
      %c7 = arith.constant 7 : i32
      %s = arith.addi %ii, %c7 : i32
      memref.store %s, %v[%i] : memref<?xi32>
    }
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] (%c10) : memref<?xf32>
    %dy, %t2 = gpu.alloc async [%t0] (%c10) : memref<?xf32>
    %dv, %t3 = gpu.alloc async [%t0] (%c10) : memref<?xi32>
    %t4 = gpu.memcpy async [%t1] %dx, %x : memref<?xf32>, memref<?xf32>
    %t5 = gpu.memcpy async [%t2] %dy, %y : memref<?xf32>, memref<?xf32>
    %t6 = gpu.memcpy async [%t3] %dv, %v : memref<?xi32>, memref<?xi32>
    %t7 = gpu.launch_func async [%t4, %t5] @kernels::@saxpy blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : f32, %dx : memref<?xf32>, %dy : memref<?xf32>, %c10 : index)
    %t8 = gpu.launch_func async [%t6] @kernels::@collatz_step blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%dv : memref<?xi32>, %c10 : index)
    %t9 = gpu.launch_func async [%t8] @kernels::@collatz_step blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%dv : memref<?xi32>, %c10 : index)
    %t10 = gpu.memcpy async [%t7] %y, %dy : memref<?xf32>, memref<?xf32>
    %t11 = gpu.memcpy async [%t9] %v, %dv : memref<?xi32>, memref<?xi32>
    gpu.wait [%t10, %t11]
    %uy = memref.cast %y : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
    %uv = memref.cast %v : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%uv) : (memref<*xi32>) -> ()
    gpu.dealloc %dx : memref<?xf32>
    gpu.dealloc %dy : memref<?xf32>
    gpu.dealloc %dv : memref<?xi32>
    return
  }
}
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [10,  10.5,  11,  11.5,  12,  12.5,  13,  13.5,  14,  14.5]
// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data =
// CHECK-NEXT: [11,  2,  14,  16,  17,  3,  20,  22,  23,  4]
