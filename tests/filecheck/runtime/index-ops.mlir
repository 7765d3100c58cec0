// The index dialect in host code and in kernels (64-bit index), on OpenCL and
// on the simulator: the values are those mlir-opt's folders compute.
// RUN: xgpu-run %s | filecheck %s
// RUN: xgpu-run --backend sim %s | filecheck %s
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<4xi64>) kernel {
      %i = gpu.thread_id x
      %c = index.constant 10
      %a = index.mul %i, %c
      %b = index.ceildivu %a, %c
      %d = index.shru %a, %b
      %p = index.cmp sgt(%i, %b)
      %e = arith.select %p, %a, %d : index
      %s = index.sizeof
      %r = index.sub %e, %s
      %r64 = index.casts %r : index to i64
      memref.store %r64, %m[%i] : memref<4xi64>
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printMemrefI64(memref<*xi64>)
  func.func @show(%v: index) {
    %x = index.casts %v : index to i64
    func.call @printI64(%x) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
  func.func @main() {
    %a = index.constant 7
    %b = index.constant -2
    %0 = index.divs %a, %b
    %1 = index.divu %a, %b
    %2 = index.ceildivs %a, %b
    %3 = index.floordivs %a, %b
    %4 = index.rems %a, %b
    %5 = index.maxu %a, %b
    %6 = index.mins %a, %b
    %7 = index.shl %a, %a
    %8 = index.xor %a, %b
    %n = index.casts %b : index to i32
    %9 = index.castu %n : i32 to index
    %p = index.cmp ult(%a, %b)
    %10 = index.casts %p : i1 to index
    %t = index.bool.constant true
    %11 = index.castu %t : i1 to index
    // CHECK:      -3
    // CHECK-NEXT: 0
    // CHECK-NEXT: -3
    // CHECK-NEXT: -4
    // CHECK-NEXT: 1
    // CHECK-NEXT: -2
    // CHECK-NEXT: -2
    // CHECK-NEXT: 896
    // CHECK-NEXT: -7
    // CHECK-NEXT: 4294967294
    // CHECK-NEXT: -1
    // CHECK-NEXT: 1
    func.call @show(%0) : (index) -> ()
    func.call @show(%1) : (index) -> ()
    func.call @show(%2) : (index) -> ()
    func.call @show(%3) : (index) -> ()
    func.call @show(%4) : (index) -> ()
    func.call @show(%5) : (index) -> ()
    func.call @show(%6) : (index) -> ()
    func.call @show(%7) : (index) -> ()
    func.call @show(%8) : (index) -> ()
    func.call @show(%9) : (index) -> ()
    func.call @show(%10) : (index) -> ()
    func.call @show(%11) : (index) -> ()
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %h = memref.alloc() : memref<4xi64>
    %g = gpu.alloc () : memref<4xi64>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%g : memref<4xi64>)
    gpu.memcpy %h, %g : memref<4xi64>, memref<4xi64>
    %u = memref.cast %h : memref<4xi64> to memref<*xi64>
    // CHECK: data =
    // CHECK-NEXT: [-64,  -59,  -59,  -61]
    func.call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    return
  }
}
