// examples/forum/program.mlir where the host loop writes %host, the buffer
// that the async copy %341 to the device reads, without waiting for it. Here
// a gpu.wait after the async work IS needed: `gpu.wait [%341]` before the
// loop (the FIX line). Without it the copy may read the partial sums:
//
//   xgpu-run --backend sim --detect-races examples/forum/host_touch.mlir
//       error: data race: memref.store by the host writes %host[0], ...
//   sed 's,// FIX: ,,' examples/forum/host_touch.mlir | xgpu-run --backend sim --detect-races -
//       no race, the output of program.mlir
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
    // host work that keeps its partial sums in %host[0..3], which the copy
    // %341 may still be reading: the host must first block on that copy
    // FIX: gpu.wait [%341]
    %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {
      %k = arith.addi %i, %c1 : index
      %next = arith.addi %acc, %k : index
      %next32 = arith.index_cast %next : index to i32
      %nextf = arith.sitofp %next32 : i32 to f32
      memref.store %nextf, %host[%i] : memref<?xf32>
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
