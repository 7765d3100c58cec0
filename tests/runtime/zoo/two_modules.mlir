// Two gpu.modules, each with a kernel named @apply (one program each, built
// once: the second launch of each reuses it).
module attributes {gpu.container_module} {
  gpu.module @double {
    gpu.func @apply(%m: memref<?xf64>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<?xf64>
      %r = arith.addf %x, %x : f64
      memref.store %r, %m[%i] : memref<?xf64>
      gpu.return
    }
  }
  gpu.module @increment {
    gpu.func @apply(%m: memref<?xf64>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<?xf64>
      %one = arith.constant 1.0 : f64
      %r = arith.addf %x, %one : f64
      memref.store %r, %m[%i] : memref<?xf64>
      gpu.return
    }
  }

  func.func private @printMemrefF64(memref<*xf64>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %h = memref.alloc(%c5) : memref<?xf64>
    scf.for %i = %c0 to %c5 step %c1 {
      %ii = arith.index_cast %i : index to i64
      %f = arith.sitofp %ii : i64 to f64
      %s = arith.constant 0.125 : f64
      %v = arith.mulf %f, %s : f64
      memref.store %v, %h[%i] : memref<?xf64>
    }
    %d = gpu.alloc (%c5) : memref<?xf64>
    gpu.memcpy %d, %h : memref<?xf64>, memref<?xf64>
    // ((x * 2 + 1) * 2) + 1
    gpu.launch_func @double::@apply blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<?xf64>)
    gpu.launch_func @increment::@apply blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<?xf64>)
    gpu.launch_func @double::@apply blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<?xf64>)
    gpu.launch_func @increment::@apply blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%d : memref<?xf64>)
    gpu.memcpy %h, %d : memref<?xf64>, memref<?xf64>
    %u = memref.cast %h : memref<?xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    return
  }
}
// x = 0, 0.125, 0.25, 0.375, 0.5 -> 4x + 3
// CHECK: rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [3,  3.5,  4,  4.5,  5]
