// gpu.printf's literal text reaches the OpenCL C only as a completely escaped
// string literal: '?' is escaped (under -cl-std=CL1.2 PoCL's clang reads
// trigraphs, and ??/ is a backslash that would end the string early), as are
// quotes, backslashes, '%' (doubled: the format is generated, not copied) and
// every byte outside printable ASCII (3-digit octal: no following digit can
// extend the escape). tests/unit/test_printf_format.py runs this program on
// OpenCL and on the simulator and checks the bytes both print.
// RUN: xgpu-opt -t opencl %s | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @t {
    gpu.func @k(%n: i32) kernel {
      gpu.printf "??/\22); evil(); printf(\22%d\n", %n : i32
      gpu.printf "??= ??( ??) ??< ??> ??' ??! ??- \\ \\\\ 100%% \09\01\1B\7F \C3\A9 \FF\0A"
      gpu.printf "\5C0\5C1\07712\n"
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 7 : i32
    gpu.launch_func @t::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }
}
// CHECK:      printf("\?\?/\"); evil(); printf(\"%d\012", (int)(a0_n));
// CHECK-NEXT: printf("\?\?= \?\?( \?\?) \?\?< \?\?> \?\?' \?\?! \?\?- \\ \\\\ 100%% \011\001\033\177 \303\251 \377\012");
// CHECK-NEXT: printf("\\0\\1\007712\012");
