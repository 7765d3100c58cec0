// The forum program with a real missing dependency: @square is made to
// depend on the copy to the device (%341) instead of on the @module_1 kernels
// (%343), so it may run while @scale and @shift still read and write %dev.
// `xgpu-opt -p gpu-check-async` warns at @square (see docs/async-tokens.md).
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
  func.func @main(%host: memref<?xf32>, %n: index) {
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
    scf.for %i = %c0 to %c4 step %c1 {
    }
    %345 = gpu.launch_func async [%341] @module_2::@square blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %346 = gpu.launch_func async [%345] @module_2::@negate blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %347 = gpu.memcpy async [%346] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%347]
    return
  }
}
