// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

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

  // CHECK-LABEL: func.func @launches
  func.func @launches(%c: index, %i: i32, %l: i64, %x: f32, %m: memref<?xf32>, %t: !gpu.async.token, %s: !llvm.ptr) {
    // CHECK-NEXT: gpu.launch_func  @kernels::@noargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  {{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
    gpu.launch_func @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)

    // CHECK-NEXT: gpu.launch_func  @kernels::@twoargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  args(%{{.*}} : f32, %{{.*}} : memref<?xf32>){{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@twoargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> : (index, index, index, index, index, index, f32, memref<?xf32>) -> ()
    gpu.launch_func @kernels::@twoargs blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%x : f32, %m : memref<?xf32>)

    // CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}] @kernels::@twoargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  dynamic_shared_memory_size %{{.*}} args(%{{.*}} : f32, %{{.*}} : memref<?xf32>){{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@twoargs, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2, 0>}> : (!gpu.async.token, index, index, index, index, index, index, i32, f32, memref<?xf32>) -> !gpu.async.token
    %t1 = gpu.launch_func async [%t] @kernels::@twoargs blocks in (%c, %c, %c) threads in (%c, %c, %c) dynamic_shared_memory_size %i args(%x : f32, %m : memref<?xf32>)

    // CHECK-NEXT: gpu.launch_func [%{{.*}}, %{{.*}}] @kernels::@noargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i32 {{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, !gpu.async.token, i32, i32, i32, i32, i32, i32) -> ()
    gpu.launch_func [%t, %t1] @kernels::@noargs blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32

    // CHECK-NEXT: gpu.launch_func  @kernels::@noargs clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 {{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> : (i64, i64, i64, i64, i64, i64, i64, i64, i64) -> ()
    gpu.launch_func @kernels::@noargs clusters in (%l, %l, %l) blocks in (%l, %l, %l) threads in (%l, %l, %l) : i64

    // CHECK-NEXT: gpu.launch_func  @kernels::@noargs clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  dynamic_shared_memory_size %{{.*}} {{$}}
    // GENERIC: operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0>
    gpu.launch_func @kernels::@noargs clusters in (%c, %c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c) dynamic_shared_memory_size %i

    // CHECK-NEXT: gpu.launch_func <%{{.*}} : !llvm.ptr> @kernels::@noargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  {{$}}
    // GENERIC: "gpu.launch_func"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1>}> : (index, index, index, index, index, index, !llvm.ptr) -> ()
    gpu.launch_func <%s : !llvm.ptr> @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)

    // CHECK-NEXT: %{{.*}} = gpu.launch_func async [%{{.*}}]<%{{.*}} : !llvm.ptr> @kernels::@noargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i32 dynamic_shared_memory_size %{{.*}}  {a, b = 1 : i64}{{$}}
    // GENERIC: <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1>}> {a, b = 1 : i64} : (!gpu.async.token, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr) -> !gpu.async.token
    %t2 = gpu.launch_func async [%t] <%s : !llvm.ptr> @kernels::@noargs blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 dynamic_shared_memory_size %i args() {b = 1, a}

    // CHECK-NEXT: %{{.*}} = gpu.launch_func async<%{{.*}} : !llvm.ptr> @kernels::@noargs blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  {{$}}
    %t3 = gpu.launch_func async <%s : !llvm.ptr> @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c) : index

    // A gpu.binary container is not looked into.
    // CHECK-NEXT: gpu.launch_func  @bin::@anything blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}})  args(%{{.*}} : i32){{$}}
    gpu.launch_func @bin::@anything blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%i : i32)
    // CHECK-NEXT: func.return
    return
  }
}
