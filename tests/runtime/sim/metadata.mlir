// memref.extract_strided_metadata in a kernel, on both backends (tests/unit/test_sim.py).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4x8xi32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %base, %off, %s0, %s1, %t0, %t1 = memref.extract_strided_metadata %m : memref<4x8xi32> -> memref<i32>, index, index, index, index, index
      %sum = arith.addi %s1, %t0 : index
      %v = arith.index_cast %sum : index to i32
      memref.store %v, %m[%c0, %i] : memref<4x8xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc() : memref<4x8xi32>
    %u = memref.cast %h : memref<4x8xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4x8xi32>)
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
