// --trace writes a Chrome/Perfetto trace: one slice per device command (kernels
// by symbol, copies, fills) from OpenCL profiling; host loops, calls and
// waits, each named by its op and line; the device.
// RUN: xgpu-run %s --trace %t.json | filecheck %s
// RUN: filecheck %s --check-prefix=TRACE --input-file %t.json
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @twice(%a: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %three = arith.constant 3.0 : f32
    %h = memref.alloc() : memref<8xf32>
    %c0 = arith.constant 0 : index
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %three, %h[%i] : memref<8xf32>
    }
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memset async [%t1] %d, %three : memref<8xf32>, f32
    %t3 = gpu.launch_func async [%t2] @m::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xf32>)
    %t4 = gpu.memcpy async [%t3] %h, %d : memref<8xf32>, memref<8xf32>
    gpu.wait [%t4]
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
// CHECK: [6,  6,  6,  6,  6,  6,  6,  6]
// TRACE: "traceEvents": [
// TRACE-DAG: "name": "memset",
// TRACE-DAG: "name": "@m::@twice",
// TRACE-DAG: "name": "memcpy D2H",
// TRACE-DAG: "name": "gpu.wait (line 31)",
// TRACE-DAG: "name": "scf.for (line 23)",
// TRACE-DAG: "cat": "host loop",
// TRACE-DAG: "name": "func.call @printMemrefF32 (line 33)",
// TRACE-DAG: "name": "@main",
// TRACE-DAG: "cat": "host wait",
// TRACE-DAG: "name": "device lane 0"
// TRACE: "otherData": {
// TRACE-NEXT: "device": "{{.+}}",
