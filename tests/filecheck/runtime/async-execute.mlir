// async.execute in host code: each body runs where it stands (a sequential
// execution, which the async dialect allows), values pass through
// !async.value, groups count their members; before and after gpu-async-region
// (which moves the gpu tokens through !async.value<!gpu.async.token>).
// RUN: xgpu-run %s | filecheck %s
// RUN: xgpu-run --backend sim %s | filecheck %s
// RUN: xgpu-opt -p gpu-async-region %s | xgpu-run --backend sim - | filecheck %s
// RUN: xgpu-opt -p gpu-async-region %s | xgpu-run - | filecheck %s
// CHECK:      2
// CHECK-NEXT: 5
// CHECK-NEXT: 2
// CHECK-NEXT: 2
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %m[%i] : memref<4xf32>
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %m[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 2 : index
    %h = memref.alloc() : memref<4xf32>
    %z = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    scf.for %q = %c0 to %c4 step %c1 {
      memref.store %z, %h[%q] : memref<4xf32>
    }
    %g = gpu.alloc () : memref<4xf32>
    gpu.memcpy %g, %h : memref<4xf32>, memref<4xf32>
    %a, %r = async.execute -> !async.value<f32> {
      gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%g : memref<4xf32>)
      %two = arith.constant 5.0 : f32
      async.yield %two : f32
    }
    %b = async.execute [%a] (%r as %s : !async.value<f32>) {
      gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%g : memref<4xf32>)
      async.yield
    }
    async.await %b : !async.token
    %grp = async.create_group %n : !async.group
    %i0 = async.add_to_group %a, %grp : !async.token
    %i1 = async.add_to_group %b, %grp : !async.token
    async.await_all %grp
    %v = async.await %r : !async.value<f32>
    gpu.memcpy %h, %g : memref<4xf32>, memref<4xf32>
    memref.store %v, %h[%i1] : memref<4xf32>
    scf.for %q = %c0 to %c4 step %c1 {
      %e = memref.load %h[%q] : memref<4xf32>
      func.call @printF32(%e) : (f32) -> ()
      func.call @printNewline() : () -> ()
    }
    return
  }
}
