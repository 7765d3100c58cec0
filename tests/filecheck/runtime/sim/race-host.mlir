// A host read of host_shared memory that an async kernel may still be writing:
// no blocking gpu.wait on the kernel's token comes between them.
// RUN: not xgpu-run --backend sim --detect-races %s 2>&1 | filecheck %s
// And with the wait, no report:
// RUN: sed -e 's,// FIX: ,,' %s | xgpu-run --backend sim --detect-races - | filecheck %s --check-prefix=FIXED
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      // CHECK-DAG: race-host.mlir:[[# @LINE + 1]]:7: note: the other access: memref.store by work-item (2, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@fill wrote %shared[2]
      memref.store %v, %m[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %shared = gpu.alloc host_shared () : memref<4xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%shared : memref<4xi32>)
    // FIX: gpu.wait [%t1]
    // CHECK-DAG: race-host.mlir:[[# @LINE + 1]]:10: error: data race: memref.load by the host reads %shared[2], which memref.store by work-item (2, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@fill wrote: the host does not wait for gpu.launch_func @k::@fill
    %x = memref.load %shared[%c2] : memref<4xi32>
    %y = arith.extsi %x : i32 to i64
    // FIXED: 2
    call @printI64(%y) : (i64) -> ()
    gpu.wait [%t1]
    return
  }
}
