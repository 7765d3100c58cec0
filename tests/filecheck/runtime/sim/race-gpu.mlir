// Two launches with no token between them: the second reads what the first
// writes. The race is reported whatever the schedule.
// RUN: not xgpu-run --backend sim --detect-races %s 2>&1 | filecheck %s
// RUN: not xgpu-run --backend sim --detect-races --schedule random --seed 1 %s 2>&1 | filecheck %s --check-prefix=ANY
// RUN: not xgpu-run --backend sim --detect-races --schedule random --seed 2 %s 2>&1 | filecheck %s --check-prefix=ANY
// With the dependency, no report:
// RUN: sed -e 's,\[%%t0\] @k::@read,[%%t1] @k::@read,' %s | xgpu-run --backend sim --detect-races --schedule random --seed 1 - | filecheck %s --check-prefix=FIXED
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%m: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1.0 : f32
      // CHECK-DAG: race-gpu.mlir:[[# @LINE + 1]]:7: note: the other access: memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@write wrote %d[0]
      memref.store %one, %m[%i] : memref<8xf32>
      gpu.return
    }
    gpu.func @read(%m: memref<8xf32>, %out: memref<8xf32>) kernel {
      %i = gpu.global_id x
      // CHECK-DAG: race-gpu.mlir:[[# @LINE + 2]]:12: error: data race: memref.load by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@read reads %d[0], which memref.store by work-item (0, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@write wrote: no async dependency orders gpu.launch_func @k::@write and gpu.launch_func @k::@read
      // ANY: error: data race: {{.*}}: no async dependency orders gpu.launch_func @k::@{{write|read}} and gpu.launch_func @k::@{{write|read}}
      %x = memref.load %m[%i] : memref<8xf32>
      memref.store %x, %out[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc() : memref<8xf32>
    %t0 = gpu.wait async
    %d, %ta = gpu.alloc async [%t0] () : memref<8xf32>
    %o, %tb = gpu.alloc async [%t0] () : memref<8xf32>
    %t1 = gpu.launch_func async [%ta] @k::@write blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xf32>)
    %t2 = gpu.launch_func async [%t0] @k::@read blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xf32>, %o : memref<8xf32>)
    %t3 = gpu.memcpy async [%t2] %h, %o : memref<8xf32>, memref<8xf32>
    gpu.wait [%t3]
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    // FIXED: [1,  1,  1,  1,  1,  1,  1,  1]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
