// Tiled matmul C = A @ B, 128x128 f32, 16x16 tiles in workgroup memory, two
// gpu.barrier per tile (the kernel of bench/kernels/matmul_tiled.mlir).
// A[i, j] = 1 + ((i + 2j) mod 7) / 8, B[i, j] = 1 + ((3i + j) mod 5) / 8 (made
// with arith.bitcast: cheap on the host); prints the sum of C.
// Run: xgpu-run --backend sim [--detect-races] 128; oclgrind xgpu-run.
module attributes {gpu.container_module} {
  gpu.module @matmul {
    gpu.func @matmul_tiled(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tb: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %n = memref.dim %A, %c0 : memref<?x?xf32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = gpu.global_id y
      %col = gpu.global_id x
      %acc = scf.for %t = %c0 to %n step %c16 iter_args(%sum = %zero) -> (f32) {
        %ac = arith.addi %t, %tx : index
        %av = memref.load %A[%row, %ac] : memref<?x?xf32>
        memref.store %av, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %bv = memref.load %B[%br, %col] : memref<?x?xf32>
        memref.store %bv, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %inner = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %a = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %inner : f32
      }
      memref.store %acc, %C[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }

  func.func private @printF32(f32)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c16 = arith.constant 16 : index
    %c20i = arith.constant 20 : i32
    %one_bits = arith.constant 1065353216 : i32
    %n = arith.constant 128 : index
    %A = memref.alloc(%n, %n) : memref<?x?xf32>
    %B = memref.alloc(%n, %n) : memref<?x?xf32>
    %C = memref.alloc(%n, %n) : memref<?x?xf32>
    scf.for %i = %c0 to %n step %c1 {
      scf.for %j = %c0 to %n step %c1 {
        %j2 = arith.muli %j, %c2 : index
        %a0 = arith.addi %i, %j2 : index
        %a1 = arith.remui %a0, %c7 : index
        %a2 = arith.index_cast %a1 : index to i32
        %as = arith.shli %a2, %c20i : i32
        %ao = arith.addi %as, %one_bits : i32
        %a3 = arith.bitcast %ao : i32 to f32
        memref.store %a3, %A[%i, %j] : memref<?x?xf32>
        %i3 = arith.muli %i, %c3 : index
        %b0 = arith.addi %i3, %j : index
        %b1 = arith.remui %b0, %c5 : index
        %b2 = arith.index_cast %b1 : index to i32
        %bs = arith.shli %b2, %c20i : i32
        %bo = arith.addi %bs, %one_bits : i32
        %b3 = arith.bitcast %bo : i32 to f32
        memref.store %b3, %B[%i, %j] : memref<?x?xf32>
      }
    }
    %g = arith.divui %n, %c16 : index
    %dA = gpu.alloc (%n, %n) : memref<?x?xf32>
    %dB = gpu.alloc (%n, %n) : memref<?x?xf32>
    %dC = gpu.alloc (%n, %n) : memref<?x?xf32>
    gpu.memcpy %dA, %A : memref<?x?xf32>, memref<?x?xf32>
    gpu.memcpy %dB, %B : memref<?x?xf32>, memref<?x?xf32>
    gpu.launch_func @matmul::@matmul_tiled blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1) args(%dA : memref<?x?xf32>, %dB : memref<?x?xf32>, %dC : memref<?x?xf32>)
    gpu.memcpy %C, %dC : memref<?x?xf32>, memref<?x?xf32>
    %zero = arith.constant 0.0 : f32
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
      %r = scf.for %j = %c0 to %n step %c1 iter_args(%t = %s) -> (f32) {
        %v = memref.load %C[%i, %j] : memref<?x?xf32>
        %t2 = arith.addf %t, %v : f32
        scf.yield %t2 : f32
      }
      scf.yield %r : f32
    }
    call @printF32(%sum) : (f32) -> ()
    gpu.dealloc %dA : memref<?x?xf32>
    gpu.dealloc %dB : memref<?x?xf32>
    gpu.dealloc %dC : memref<?x?xf32>
    return
  }
}
