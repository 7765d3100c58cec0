// A gpu.dealloc whose token does not follow the kernel that uses the buffer,
// and a host store into memory that an async gpu.memcpy still reads.
// RUN: not xgpu-run --backend sim --detect-races %s 2>&1 | filecheck %s
// RUN: sed -e 's,dealloc async \[%%t0\],dealloc async [%%t3],' -e 's,// FIX: ,,' %s | xgpu-run --backend sim --detect-races --schedule random --seed 4 - | filecheck %s --check-prefix=FIXED
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @twice(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<4xf32>
      %r = arith.addf %v, %v : f32
      // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 1]]:7: note: the other access: memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@twice wrote %d[0]
      memref.store %r, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %h = memref.alloc() : memref<4xf32>
    %t0 = gpu.wait async
    %d, %ta = gpu.alloc async [%t0] () : memref<4xf32>
    // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 1]]:11: note: the other access: gpu.memcpy read %h[0]
    %t1 = gpu.memcpy async [%ta] %d, %h : memref<4xf32>, memref<4xf32>
    // FIX: gpu.wait [%t1]
    // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 1]]:5: error: data race: memref.store by the host writes %h[0], which gpu.memcpy read: the host does not wait for gpu.memcpy
    memref.store %one, %h[%c0] : memref<4xf32>
    %t2 = gpu.launch_func async [%t1] @k::@twice blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xf32>)
    // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 1]]:11: note: the other access: gpu.memcpy read %d[0]
    %t3 = gpu.memcpy async [%t2] %h, %d : memref<4xf32>, memref<4xf32>
    // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 2]]:11: error: data race: gpu.dealloc frees %d[0], which memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@twice wrote: no async dependency orders gpu.launch_func @k::@twice and gpu.dealloc
    // CHECK-DAG: race-dealloc.mlir:[[# @LINE + 1]]:11: error: data race: gpu.dealloc frees %d[0], which gpu.memcpy read: no async dependency orders gpu.memcpy and gpu.dealloc
    %t4 = gpu.dealloc async [%t0] %d : memref<4xf32>
    gpu.wait [%t3, %t4]
    %u = memref.cast %h : memref<4xf32> to memref<*xf32>
    // FIXED: [0,  0,  0,  0]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
