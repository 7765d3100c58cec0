"""Run a GPU-dialect program from Python with `xgpu.run` (OpenCL; PoCL's CPU
device by default). The kernel doubles a vector in place on the device."""

import numpy as np

import xgpu

PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @double(%buf: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %buf[%i] : memref<?xf32>
        %r = arith.addf %v, %v : f32
        memref.store %r, %buf[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main(%host: memref<?xf32>, %n: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    %t3 = gpu.launch_func async [%t2] @k::@double blocks in (%blocks, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %n : index)
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %dev : memref<?xf32>
    %first = memref.load %host[%c0] : memref<?xf32>
    return %first : f32
  }
}
"""

if __name__ == "__main__":
    x = np.arange(1, 101, dtype=np.float32)
    first = xgpu.run(PROGRAM, entry="main", args=[x, x.size])
    assert np.array_equal(x, 2 * np.arange(1, 101, dtype=np.float32)), x
    print(f"returned {first}; x[:5] = {x[:5]}")
