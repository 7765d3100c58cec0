// gpu.printf output and the host's output, through a pipe, in program order.
// RUN: xgpu-run %s | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @say(%x: i32) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        gpu.printf "device %d\n", %x : i32
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c3 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      call @printI64(%i64) : (i64) -> ()
      call @printNewline() : () -> ()
      %i32 = arith.index_cast %i : index to i32
      gpu.launch_func @k::@say blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%i32 : i32)
    }
    return
  }
}
// CHECK: 0
// CHECK-NEXT: device 0
// CHECK-NEXT: 1
// CHECK-NEXT: device 1
// CHECK-NEXT: 2
// CHECK-NEXT: device 2
// CHECK-NOT: {{.}}
