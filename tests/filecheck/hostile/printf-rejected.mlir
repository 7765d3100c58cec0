// gpu.printf formats are checked against their arguments, with an error at
// the op (the OpenCL emitter's; the simulator reports the same message, see
// tests/unit/test_printf_format.py): unsupported conversions (%s, %p and %n
// would read or write memory the input chooses), counts and types that do
// not match, '*', a width or precision too large, length modifiers that do
// not apply, NUL bytes and unfinished conversions.
// RUN: xgpu-opt -t opencl --split-input-file --verify-diagnostics %s

gpu.module @m0 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%s' is not supported: gpu.printf prints integers and floats (conversions d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%s", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m1 {
  gpu.func @k(%a0: index) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%p' is not supported: gpu.printf prints integers and floats (conversions d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%p", %a0 : index
    gpu.return
  }
}

// -----

gpu.module @m2 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%n' is not supported: gpu.printf prints integers and floats (conversions d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%n", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m3 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op the format has 2 conversions for 1 argument}}
    gpu.printf "%d %d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m4 {
  gpu.func @k(%a0: i32, %a1: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op the format has 1 conversion for 2 arguments}}
    gpu.printf "%d", %a0, %a1 : i32, i32
    gpu.return
  }
}

// -----

gpu.module @m5 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op the format has 0 conversions for 1 argument}}
    gpu.printf "no conversion", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m6 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%f' takes a floating-point argument, but argument #0 has type 'i32'}}
    gpu.printf "%f", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m7 {
  gpu.func @k(%a0: i32, %a1: f32) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%x' takes an integer or index argument, but argument #1 has type 'f32'}}
    gpu.printf "%d %x", %a0, %a1 : i32, f32
    gpu.return
  }
}

// -----

gpu.module @m8 {
  gpu.func @k(%a0: f64) kernel {
    // expected-error @+1 {{'gpu.printf' op conversion '%c' takes an integer or index argument, but argument #0 has type 'f64'}}
    gpu.printf "%c", %a0 : f64
    gpu.return
  }
}

// -----

gpu.module @m9 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op '*' in '%*d': the width must be a number in the format}}
    gpu.printf "%*d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m10 {
  gpu.func @k(%a0: f32) kernel {
    // expected-error @+1 {{'gpu.printf' op '*' in '%.*f': the precision must be a number in the format}}
    gpu.printf "%.*f", %a0 : f32
    gpu.return
  }
}

// -----

gpu.module @m11 {
  gpu.func @k(%a0: f32) kernel {
    // expected-error @+1 {{'gpu.printf' op the precision in '%.999999999f' is larger than 128}}
    gpu.printf "%.999999999f", %a0 : f32
    gpu.return
  }
}

// -----

gpu.module @m12 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op the width in '%129d' is larger than 128}}
    gpu.printf "%129d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m13 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op the precision in '%.65d' is larger than 64, the largest for an integer conversion}}
    gpu.printf "%.65d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m14 {
  gpu.func @k(%a0: f64) kernel {
    // expected-error @+1 {{'gpu.printf' op length modifier 'L' is not supported in '%Lf'}}
    gpu.printf "%Lf", %a0 : f64
    gpu.return
  }
}

// -----

gpu.module @m15 {
  gpu.func @k(%a0: f32) kernel {
    // expected-error @+1 {{'gpu.printf' op length modifier 'h' is not supported in '%hf'}}
    gpu.printf "%hf", %a0 : f32
    gpu.return
  }
}

// -----

gpu.module @m16 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op length modifier 'l' is not supported in '%lc'}}
    gpu.printf "%lc", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m17 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op invalid conversion '%v' (supported: d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%v4d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m18 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op invalid conversion '%1$' (supported: d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%1$d", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m19 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op invalid conversion '%k' (supported: d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%k", %a0 : i32
    gpu.return
  }
}

// -----

gpu.module @m20 {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gpu.printf' op '%5%': '%%' takes no flags, width, precision or length}}
    gpu.printf "%5%"
    gpu.return
  }
}

// -----

gpu.module @m21 {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gpu.printf' op the format ends inside the conversion '%'}}
    gpu.printf "100%"
    gpu.return
  }
}

// -----

gpu.module @m22 {
  gpu.func @k(%a0: i64) kernel {
    // expected-error @+1 {{'gpu.printf' op the format ends inside the conversion '%-08.3l'}}
    gpu.printf "%-08.3l", %a0 : i64
    gpu.return
  }
}

// -----

gpu.module @m23 {
  gpu.func @k() kernel {
    // expected-error @+1 {{'gpu.printf' op the format contains a NUL byte}}
    gpu.printf "a\00b"
    gpu.return
  }
}

// -----

gpu.module @m24 {
  gpu.func @k(%a0: i32) kernel {
    // expected-error @+1 {{'gpu.printf' op invalid conversion '%\C3' (supported: d i u o x X c f F e E g G a A, and %%)}}
    gpu.printf "%\C3\A9", %a0 : i32
    gpu.return
  }
}

// -----

// The accepted forms of MLIR's own tests: %lld and %d for index, %d for i8.
gpu.module @ok {
  gpu.func @k(%i: index, %b: i8, %x: f32) kernel {
    gpu.printf "%lld %d %d %f %lf %%\n", %i, %i, %b, %x, %x : index, index, i8, f32, f32
    gpu.return
  }
}
