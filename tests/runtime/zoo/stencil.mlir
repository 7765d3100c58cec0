// A 2-D five-point stencil on a 6x6 grid (2x2 blocks of 3x3 threads), two
// sweeps with ping-pong buffers; boundary cells are copied.
module attributes {gpu.container_module} {
  gpu.module @stencil {
    gpu.func @sweep(%src: memref<6x6xf32>, %dst: memref<6x6xf32>) kernel {
      %i = gpu.global_id y
      %j = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %top = arith.cmpi eq, %i, %c0 : index
      %bottom = arith.cmpi eq, %i, %c5 : index
      %left = arith.cmpi eq, %j, %c0 : index
      %right = arith.cmpi eq, %j, %c5 : index
      %b0 = arith.ori %top, %bottom : i1
      %b1 = arith.ori %left, %right : i1
      %edge = arith.ori %b0, %b1 : i1
      %v = memref.load %src[%i, %j] : memref<6x6xf32>
      %r = scf.if %edge -> (f32) {
        scf.yield %v : f32
      } else {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %n = memref.load %src[%im, %j] : memref<6x6xf32>
        %s = memref.load %src[%ip, %j] : memref<6x6xf32>
        %w = memref.load %src[%i, %jm] : memref<6x6xf32>
        %e = memref.load %src[%i, %jp] : memref<6x6xf32>
        %s1 = arith.addf %n, %s : f32
        %s2 = arith.addf %w, %e : f32
        %s3 = arith.addf %s1, %s2 : f32
        %s4 = arith.addf %s3, %v : f32
        %q = arith.constant 0.25 : f32
        %avg = arith.mulf %s4, %q : f32
        scf.yield %avg : f32
      }
      memref.store %r, %dst[%i, %j] : memref<6x6xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c6 = arith.constant 6 : index
    %grid = memref.alloc() : memref<6x6xf32>
    scf.for %i = %c0 to %c6 step %c1 {
      scf.for %j = %c0 to %c6 step %c1 {
        %k = arith.muli %i, %c6 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.sitofp %li : i32 to f32
        memref.store %f, %grid[%i, %j] : memref<6x6xf32>
      }
    }
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] () : memref<6x6xf32>
    %b, %t2 = gpu.alloc async [%t0] () : memref<6x6xf32>
    %t3 = gpu.memcpy async [%t1] %a, %grid : memref<6x6xf32>, memref<6x6xf32>
    %t4 = gpu.launch_func async [%t2, %t3] @stencil::@sweep blocks in (%c2, %c2, %c1) threads in (%c3, %c3, %c1) args(%a : memref<6x6xf32>, %b : memref<6x6xf32>)
    %t5 = gpu.launch_func async [%t4] @stencil::@sweep blocks in (%c2, %c2, %c1) threads in (%c3, %c3, %c1) args(%b : memref<6x6xf32>, %a : memref<6x6xf32>)
    %t6 = gpu.memcpy async [%t5] %grid, %a : memref<6x6xf32>, memref<6x6xf32>
    gpu.wait [%t6]
    %u = memref.cast %grid : memref<6x6xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
// CHECK: Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [6, 6] strides = [6, 1] data =
// CHECK-NEXT: [[0,   1,   2,   3,   4,   5],
// CHECK-NEXT:  [6,   10.5,   12.375,   13.875,   14.6875,   11],
// CHECK-NEXT:  [12,   19.5625,   21.875,   23.4375,   23.9375,   17],
// CHECK-NEXT:  [18,   28.5625,   31.25,   32.8125,   32.9375,   23],
// CHECK-NEXT:  [24,   35.625,   38.625,   40.125,   39.8125,   29],
// CHECK-NEXT:  [30,   31,   32,   33,   34,   35]]
