// A fork/join token graph: two independent chains (a: fill 1, +2 per step
// three times; b: fill 10, x3), joined with `gpu.wait async [%a, %b]`, then a
// kernel that needs both; a join token carried through a host loop.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add(%m: memref<16xf32>, %v: f32) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<16xf32>
      %r = arith.addf %x, %v : f32
      memref.store %r, %m[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @mul(%m: memref<16xf32>, %v: f32) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<16xf32>
      %r = arith.mulf %x, %v : f32
      memref.store %r, %m[%i] : memref<16xf32>
      gpu.return
    }
    gpu.func @combine(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<16xf32>
      %y = memref.load %b[%i] : memref<16xf32>
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %s = arith.addf %x, %y : f32
      %r = arith.addf %s, %fi : f32
      memref.store %r, %c[%i] : memref<16xf32>
      gpu.return
    }
  }

  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %three = arith.constant 3.0 : f32
    %ten = arith.constant 10.0 : f32
    %t0 = gpu.wait async
    %a, %ta0 = gpu.alloc async [%t0] () : memref<16xf32>
    %b, %tb0 = gpu.alloc async [%t0] () : memref<16xf32>
    %c, %tc0 = gpu.alloc async [%t0] () : memref<16xf32>
    %ta1 = gpu.memset async [%ta0] %a, %one : memref<16xf32>, f32
    %tb1 = gpu.memset async [%tb0] %b, %ten : memref<16xf32>, f32
    // chain a: three dependent launches issued by a host loop
    %ta = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %ta1) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @k::@add blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<16xf32>, %two : f32)
      scf.yield %tn : !gpu.async.token
    }
    // chain b
    %tb = gpu.launch_func async [%tb1] @k::@mul blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<16xf32>, %three : f32)
    // join: a union of the two event lists, nothing enqueued
    %join = gpu.wait async [%ta, %tb]
    %tc = gpu.launch_func async [%join, %tc0] @k::@combine blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<16xf32>, %b : memref<16xf32>, %c : memref<16xf32>)
    %host = memref.alloc() : memref<16xf32>
    %td = gpu.memcpy async [%tc] %host, %c : memref<16xf32>, memref<16xf32>
    gpu.wait [%td]
    %u = memref.cast %host : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    // a loop-carried join: each iteration adds a launch on a and one on b,
    // joined into the carried token
    %tj = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %td) -> (!gpu.async.token) {
      %x = gpu.launch_func async [%t] @k::@add blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<16xf32>, %one : f32)
      %y = gpu.launch_func async [%t] @k::@add blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%b : memref<16xf32>, %one : f32)
      %j = gpu.wait async [%x, %y]
      scf.yield %j : !gpu.async.token
    }
    %te = gpu.launch_func async [%tj] @k::@combine blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<16xf32>, %b : memref<16xf32>, %c : memref<16xf32>)
    %tf = gpu.memcpy async [%te] %host, %c : memref<16xf32>, memref<16xf32>
    gpu.wait [%tf]
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
// a = 1 + 3 * 2 = 7, b = 30, c[i] = 37 + i
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47,  48,  49,  50,  51,  52]
// a = 11, b = 34, c[i] = 45 + i
// CHECK: sizes = [16] strides = [1] data =
// CHECK-NEXT: [45,  46,  47,  48,  49,  50,  51,  52,  53,  54,  55,  56,  57,  58,  59,  60]
