// Distinct symbols are distinct Python functions, on host code and in
// simulated kernels: @a_b and @"a.b" (which once shared the name f_a_b, so
// a call of one ran the other), and symbols Python would normalize or reject
// as identifiers (@"f²", @"ｍain": NFKC, non-ASCII letters) all run, as
// callees and as the entry.
// RUN: xgpu-run --backend sim %s | filecheck %s
// RUN: xgpu-run --backend sim --entry "ｍain" %s | filecheck %s --check-prefix=ENTRY
module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @a_b() -> i32 {
      %c = arith.constant 1 : i32
      return %c : i32
    }
    func.func @"a.b"() -> i32 {
      %c = arith.constant 2 : i32
      return %c : i32
    }
    func.func @"f²"() -> i32 {
      %c = arith.constant 3 : i32
      return %c : i32
    }
    gpu.func @"ｍain"() kernel {
      %x = func.call @a_b() : () -> i32
      %y = func.call @"a.b"() : () -> i32
      %z = func.call @"f²"() : () -> i32
      gpu.printf "kernel ｍain: %d %d %d\n", %x, %y, %z : i32, i32, i32
      gpu.return
    }
    gpu.func @main() kernel {
      gpu.printf "kernel main\n"
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @a_b() -> i64 {
    %c = arith.constant 10 : i64
    return %c : i64
  }
  func.func @"a.b"() -> i64 {
    %c = arith.constant 20 : i64
    return %c : i64
  }
  func.func @"f²"() -> i64 {
    %c = arith.constant 30 : i64
    return %c : i64
  }
  func.func @"ｍain"() {
    %c1 = arith.constant 1 : index
    %x = call @a_b() : () -> i64
    call @printI64(%x) : (i64) -> ()
    call @printNewline() : () -> ()
    %y = call @"a.b"() : () -> i64
    call @printI64(%y) : (i64) -> ()
    call @printNewline() : () -> ()
    %z = call @"f²"() : () -> i64
    call @printI64(%z) : (i64) -> ()
    call @printNewline() : () -> ()
    gpu.launch_func @k::@"ｍain" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @k::@main blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
  func.func @main() {
    call @"ｍain"() : () -> ()
    return
  }
}

// CHECK:      10
// CHECK-NEXT: 20
// CHECK-NEXT: 30
// CHECK-NEXT: kernel ｍain: 1 2 3
// CHECK-NEXT: kernel main

// ENTRY:      10
// ENTRY-NEXT: 20
// ENTRY-NEXT: 30
// ENTRY-NEXT: kernel ｍain: 1 2 3
// ENTRY-NEXT: kernel main
