// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

builtin.module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @noargs() kernel {
      gpu.return
    }
    gpu.func @twoargs(%a: f32, %b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  gpu.binary @bin [#gpu.object<#nvvm.target, "">]

  func.func @launches(%c: index, %i: i32, %l: i64, %x: f32, %m: memref<?xf32>, %t: !gpu.async.token, %s: !llvm.ptr) {
    gpu.launch_func @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)

    gpu.launch_func @kernels::@twoargs blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%x : f32, %m : memref<?xf32>)

    %t1 = gpu.launch_func async [%t] @kernels::@twoargs blocks in (%c, %c, %c) threads in (%c, %c, %c) dynamic_shared_memory_size %i args(%x : f32, %m : memref<?xf32>)

    gpu.launch_func [%t, %t1] @kernels::@noargs blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32

    gpu.launch_func @kernels::@noargs clusters in (%l, %l, %l) blocks in (%l, %l, %l) threads in (%l, %l, %l) : i64

    gpu.launch_func @kernels::@noargs clusters in (%c, %c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c) dynamic_shared_memory_size %i

    gpu.launch_func <%s : !llvm.ptr> @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)

    %t2 = gpu.launch_func async [%t] <%s : !llvm.ptr> @kernels::@noargs blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 dynamic_shared_memory_size %i args() {b = 1, a}

    %t3 = gpu.launch_func async <%s : !llvm.ptr> @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c) : index

    // A gpu.binary container is not looked into.
    gpu.launch_func @bin::@anything blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%i : i32)
    return
  }
}

// -----

// Launches nested deeper than a function of the container module are not
// checked against the kernel (as in MLIR).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @nested(%c: index) {
    scf.for %iv = %c to %c step %c {
      gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    }
    return
  }
}

// -----

// A kernel in a nested gpu.module; a func.func kernel (its operands are not checked).
module attributes {gpu.container_module} {
  gpu.module @outer {
    gpu.module @inner {
      gpu.func @k(%a: f32) kernel {
        gpu.return
      }
    }
    func.func @f(%a: i64) attributes {gpu.kernel} {
      return
    }
  }
  func.func @more(%c: index, %x: f32) {
    gpu.launch_func @outer::@inner::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%x : f32)
    gpu.launch_func @outer::@f blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%x : f32)
    return
  }
}
