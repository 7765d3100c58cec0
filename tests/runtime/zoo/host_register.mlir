// Host memory registered with gpu.host_register: kernels use it directly
// (no copies); the host reads the results after a blocking wait.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @square_plus(%m: memref<8xi64>, %c: i64) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<8xi64>
      %s = arith.muli %x, %x : i64
      %r = arith.addi %s, %c : i64
      memref.store %r, %m[%i] : memref<8xi64>
      gpu.return
    }
  }

  func.func private @printMemrefI64(memref<*xi64>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<8xi64>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i64
      memref.store %v, %h[%i] : memref<8xi64>
    }
    %u = memref.cast %h : memref<8xi64> to memref<*xi64>
    gpu.host_register %u : memref<*xi64>
    %big = arith.constant 1000000000000 : i64
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@square_plus blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xi64>, %big : i64)
    gpu.wait [%t1]
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    gpu.host_unregister %u : memref<*xi64>
    return
  }
}
// CHECK: rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1000000000000,  1000000000001,  1000000000004,  1000000000009,  1000000000016,  1000000000025,  1000000000036,  1000000000049]
