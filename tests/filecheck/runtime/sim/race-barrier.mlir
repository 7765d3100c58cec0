// Work-items racing inside one launch: a tree reduction in workgroup memory
// with the gpu.barrier of its loop removed, and two blocks storing to the
// same global element.
// Both blocks store the same sum to %out[0]: a uniform write, reported with =all.
// RUN: not xgpu-run --backend sim --detect-races=all %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim --detect-races %s 2>&1 | filecheck %s --check-prefix=UNIFORM
// UNIFORM-NOT: writes %out[0]
// With the barrier back (and one block per output element) no race is left:
// RUN: sed -e 's,// FIX: ,,' -e 's,constant 2 : index // blocks,constant 1 : index,' %s | xgpu-run --backend sim --detect-races - | filecheck %s --check-prefix=FIXED
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum(%x: memref<8xf32>, %out: memref<1xf32>)
        workgroup(%s : memref<8xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %v = memref.load %x[%tid] : memref<8xf32>
      memref.store %v, %s[%tid] : memref<8xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c3 step %c1 {
        %stride = arith.shrui %c4, %k : index
        %active = arith.cmpi ult, %tid, %stride : index
        scf.if %active {
          %j = arith.addi %tid, %stride : index
          %a = memref.load %s[%tid] : memref<8xf32, #gpu.address_space<workgroup>>
          // CHECK-DAG: race-barrier.mlir:[[# @LINE + 1]]:16: note: the other access: memref.load by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@sum read %s[1] (workgroup memory of block (0, 0, 0))
          %b = memref.load %s[%j] : memref<8xf32, #gpu.address_space<workgroup>>
          %r = arith.addf %a, %b : f32
          // CHECK-DAG: race-barrier.mlir:[[# @LINE + 1]]:11: error: data race: memref.store by work-item (1, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@sum writes %s[1] (workgroup memory of block (0, 0, 0)), which memref.load by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@sum read: no gpu.barrier between the two accesses of the block
          memref.store %r, %s[%tid] : memref<8xf32, #gpu.address_space<workgroup>>
        }
        // FIX: gpu.barrier
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %t = memref.load %s[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
        // CHECK-DAG: race-barrier.mlir:[[# @LINE + 2]]:9: error: data race: memref.store by work-item (0, 0, 0) of block (1, 0, 0) of gpu.launch_func @k::@sum writes %out[0], which memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@sum wrote: work-items of different blocks are not ordered
        // CHECK-DAG: race-barrier.mlir:[[# @LINE + 1]]:9: note: the other access: memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@sum wrote %out[0]
        memref.store %t, %out[%c0] : memref<1xf32>
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %x = memref.alloc() : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<8xf32>
    }
    %out = memref.alloc() : memref<1xf32>
    %ux = memref.cast %x : memref<8xf32> to memref<*xf32>
    %u = memref.cast %out : memref<1xf32> to memref<*xf32>
    gpu.host_register %ux : memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %blocks = arith.constant 2 : index // blocks
    gpu.launch_func @k::@sum blocks in (%blocks, %c1, %c1) threads in (%c8, %c1, %c1) args(%x : memref<8xf32>, %out : memref<1xf32>)
    // FIXED: [28]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
