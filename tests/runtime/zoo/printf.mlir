// gpu.printf output interleaves with the host's output in program order when
// the host waits for the kernel before printing again.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @hello(%n: i32, %x: f32) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        gpu.printf "kernel: n = %d, x = %f\n", %n, %x : i32, f32
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printNewline()

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1 : i64
    %two = arith.constant 2 : i64
    %three = arith.constant 3 : i64
    %n = arith.constant 42 : i32
    %x = arith.constant 2.5 : f32
    %m = arith.constant 7 : i32
    call @printI64(%one) : (i64) -> ()
    call @printNewline() : () -> ()
    gpu.launch_func @k::@hello blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%n : i32, %x : f32)
    call @printI64(%two) : (i64) -> ()
    call @printNewline() : () -> ()
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@hello blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : i32, %x : f32)
    gpu.wait [%t1]
    call @printI64(%three) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
}
// CHECK: 1
// CHECK-NEXT: kernel: n = 42, x = 2.500000
// CHECK-NEXT: 2
// CHECK-NEXT: kernel: n = 7, x = 2.500000
// CHECK-NEXT: 3
