// gpu.printf prints C's (glibc's) output for every conversion it accepts,
// byte for byte the same on OpenCL (PoCL) and on the simulator
// (tests/unit/test_printf_format.py runs this file on both and compares):
// NaN without a sign, inf, -0.0, alternate forms, precision 0, %c, %g and %a
// corners, length modifiers replaced by the argument's width, flags that mean
// nothing dropped, an f64 value (one that f32 holds exactly: PoCL 3.0 prints
// doubles at single precision), and literal text that C
// would read as trigraphs or escapes.
// RUN: xgpu-run --backend sim %s | filecheck %s --match-full-lines --strict-whitespace
module attributes {gpu.container_module} {
  gpu.module @p {
    gpu.func @show(%zero: f32, %one: f32, %i8: i8, %i16: i16, %i32: i32, %ix: index, %t: i1, %d: f64) kernel {
      %nan = arith.divf %zero, %zero : f32
      %negnan = arith.constant 0xFFC00001 : f32
      %inf = arith.divf %one, %zero : f32
      %neginf = arith.negf %inf : f32
      %negzero = arith.negf %zero : f32
      gpu.printf "[%f][%e][%g][%F][%E][%G][%a][%+f][%5f][%-5f|]\n", %nan, %nan, %nan, %nan, %nan, %nan, %nan, %nan, %nan, %nan : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
      gpu.printf "[%f][%e][%G]\n", %negnan, %negnan, %negnan : f32, f32, f32
      gpu.printf "[%f][%e][%g][%F][%010f][% f][%+g]\n", %inf, %inf, %inf, %inf, %inf, %inf, %inf : f32, f32, f32, f32, f32, f32, f32
      gpu.printf "[%f][%e][%g][%a]\n", %neginf, %neginf, %neginf, %neginf : f32, f32, f32, f32
      gpu.printf "[%f][%e][%g][%a][%+.0f]\n", %negzero, %negzero, %negzero, %negzero, %negzero : f32, f32, f32, f32, f32
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %c255 = arith.constant 255 : i32
      gpu.printf "[%#o][%#x][%#X][%#o][%#x][%#X][%#.0o][%#5x][%#-6x|][%#06x]\n", %c0, %c0, %c0, %c8, %c255, %c255, %c0, %c255, %c255, %c255 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
      gpu.printf "[%.0d][%.0x][%+.0d][% .0d][%.3d][%5.3d][%-5d|][%+d][% d][%05d]\n", %c0, %c0, %c0, %c0, %c8, %c8, %c8, %c8, %c8, %c8 : i32, i32, i32, i32, i32, i32, i32, i32, i32, i32
      %two5 = arith.constant 2.5 : f32
      %one5 = arith.constant 1.5 : f32
      gpu.printf "[%+.0e][%.0e][%#.0e][%.0f][%#.0f][%.0f][%.0g][%#.0g]\n", %two5, %two5, %two5, %two5, %two5, %one5, %two5, %two5 : f32, f32, f32, f32, f32, f32, f32, f32
      %cA = arith.constant 65 : i32
      %cA2 = arith.constant 321 : i32
      gpu.printf "[%c][%5c][%-3c|][%c][%05c][%.3c]\n", %cA, %cA, %cA, %cA2, %cA, %cA : i32, i32, i32, i32, i32, i32
      %g1 = arith.constant 100000.0 : f32
      %g2 = arith.constant 1000000.0 : f32
      %g3 = arith.constant 0.0001 : f32
      %g4 = arith.constant 0.00001 : f32
      %g5 = arith.constant 123456789.0 : f32
      %g6 = arith.constant 15.0 : f32
      gpu.printf "[%g][%g][%g][%g][%g][%#g][%.0g][%.1g][%.3g][%g][%#.3g]\n", %g1, %g2, %g3, %g4, %g5, %one, %zero, %g6, %g5, %zero, %zero : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
      %m1 = arith.constant -1 : i8
      %m2 = arith.constant -1 : i16
      %big = arith.constant 300 : i32
      %nix = arith.constant -5 : index
      %ix40 = arith.constant 1099511627776 : index
      gpu.printf "[%lld][%d][%d][%u][%x][%hx][%hhd][%ld][%zu][%d][%d][%u][%llx]\n", %ix, %i8, %m1, %m1, %m2, %m2, %big, %i32, %nix, %ix40, %t, %t, %nix : index, i8, i8, i8, i16, i16, i32, i32, index, index, i1, i1, index
      %pi = arith.constant 3.14159 : f32
      gpu.printf "[%0-5d|][%+u][% x][%-08.3f|][%+ d][%#d][%010.3f][%-+10.2e|]\n", %c8, %c8, %c8, %pi, %c8, %c8, %pi, %pi : i32, i32, i32, f32, i32, i32, f32, f32
      gpu.printf "[%.10f][%g][%e][%lf]\n", %d, %d, %d, %d : f64, f64, f64, f64
      %h1 = arith.constant 1.96875 : f32
      %h2 = arith.constant 0.1 : f32
      %h3 = arith.constant 1.0e-45 : f32
      gpu.printf "[%a][%.1a][%A][%a][%a][%.0a][%#.0a][%10a][%-12a|][%+a][%010a][%.3a]\n", %one, %h1, %h2, %zero, %h3, %one5, %one5, %one, %one, %one, %neginf, %h2 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
      gpu.printf "%% ??/ ??= ??( ??' \"q\" \\ \t|%5d%%\n", %c8 : i32
      gpu.printf "[%128.100f]\n", %h2 : f32
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %i8 = arith.constant -128 : i8
    %i16 = arith.constant 7 : i16
    %i32 = arith.constant -7 : i32
    %ix = arith.constant -5 : index
    %t = arith.constant true
    %d = arith.constant 0.375 : f64
    gpu.launch_func @p::@show blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%zero : f32, %one : f32, %i8 : i8, %i16 : i16, %i32 : i32, %ix : index, %t : i1, %d : f64)
    return
  }
}
// CHECK: [nan][nan][nan][NAN][NAN][NAN][nan][+nan][  nan][nan  |]
// CHECK-NEXT: [nan][nan][NAN]
// CHECK-NEXT: [inf][inf][inf][INF][       inf][ inf][+inf]
// CHECK-NEXT: [-inf][-inf][-inf][-inf]
// CHECK-NEXT: [-0.000000][-0.000000e+00][-0][-0x0p+0][-0]
// CHECK-NEXT: [0][0][0][010][0xff][0XFF][0][ 0xff][0xff  |][0x00ff]
// CHECK-NEXT: [][][+][ ][008][  008][8    |][+8][ 8][00008]
// CHECK-NEXT: [+2e+00][2e+00][2.e+00][2][2.][2][2][2.]
// CHECK-NEXT: [A][    A][A  |][A][    A][A]
// CHECK-NEXT: [100000][1e+06][0.0001][1e-05][1.23457e+08][1.00000][0][2e+01][1.23e+08][0][0.00]
// CHECK-NEXT: [-5][-128][-1][255][ffff][ffff][300][-7][18446744073709551611][1099511627776][1][1][fffffffffffffffb]
// CHECK-NEXT: [8    |][8][8][3.142   |][+8][8][000003.142][+3.14e+00 |]
// CHECK-NEXT: [0.3750000000][0.375][3.750000e-01][0.375000]
// CHECK-NEXT: [0x1p+0][0x2.0p+0][0X1.99999AP-4][0x0p+0][0x1p-149][0x2p+0][0x2.p+0][    0x1p+0][0x1p+0      |][+0x1p+0][      -inf][0x1.99ap-4]
// CHECK-NEXT: % ??/ ??= ??( ??' "q" \ {{\t}}|    8%
// CHECK-NEXT: [                          0.1000000014901161193847656250000000000000000000000000000000000000000000000000000000000000000000000000]
// CHECK-NOT: {{.}}
