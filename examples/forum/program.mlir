// The forum program ("do I need a gpu.wait after host code?"), runnable:
//
//   xgpu-run examples/forum/program.mlir
//   xgpu-run --backend sim --detect-races examples/forum/program.mlir
//
// @main fills a host buffer with x[i] = i (n = 10) and calls @forum, the
// forum's pattern: @module_1's kernels (scale: 2x, shift: +1) are issued
// async, the host runs a loop (it sums 1..4, touching no GPU memory),
// `%356 = gpu.wait async [%343]` (an alias of %343: it waits for nothing),
// @module_2's kernels (square, negate), a copy back and the blocking
// `gpu.wait [%347]`, the one wait the host needs before it reads %host.
// Each element becomes -(2x + 1)^2, on every schedule:
//
//   [-1,  -9,  -25,  -49,  -81,  -121,  -169,  -225,  -289,  -361]
//   10
module attributes {gpu.container_module} {
  gpu.module @module_1 {
    gpu.func @scale(%buf: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %buf[%i] : memref<?xf32>
        %two = arith.constant 2.0 : f32
        %r = arith.mulf %v, %two : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @shift(%buf: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %buf[%i] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        %r = arith.addf %v, %one : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  gpu.module @module_2 {
    gpu.func @square(%buf: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %buf[%i] : memref<?xf32>
        %r = arith.mulf %v, %v : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @negate(%buf: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %buf[%i] : memref<?xf32>
        %r = arith.negf %v : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @forum(%host: memref<?xf32>, %n: index) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c63 = arith.constant 63 : index
    %m = arith.addi %n, %c63 : index
    %blocks = arith.divui %m, %c64 : index
    %339 = gpu.wait async
    %dev, %340 = gpu.alloc async [%339] (%n) : memref<?xf32>
    %341 = gpu.memcpy async [%340] %dev, %host : memref<?xf32>, memref<?xf32>
    %342 = gpu.launch_func async [%341] @module_1::@scale blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %343 = gpu.launch_func async [%342] @module_1::@shift blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    // host work while the device runs (it touches no memory the device uses)
    %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
      %k = arith.addi %i, %c1 : index
      %next = arith.addi %acc, %k : index
      scf.yield %next : index
    }
    %356 = gpu.wait async [%343]
    %345 = gpu.launch_func async [%356] @module_2::@square blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %346 = gpu.launch_func async [%345] @module_2::@negate blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %347 = gpu.memcpy async [%346] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%347]
    gpu.dealloc %dev : memref<?xf32>
    return %sum : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 10 : index
    %host = memref.alloc(%n) : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %ii = arith.index_cast %i : index to i32
      %x = arith.sitofp %ii : i32 to f32
      memref.store %x, %host[%i] : memref<?xf32>
    }
    %sum = call @forum(%host, %n) : (memref<?xf32>, index) -> index
    // an unranked view of the result, for printMemrefF32
    %u = memref.cast %host : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %s = arith.index_cast %sum : index to i64
    call @printI64(%s) : (i64) -> ()
    call @printNewline() : () -> ()
    memref.dealloc %host : memref<?xf32>
    return
  }
}
