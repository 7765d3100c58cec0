// gpu.alloc host_shared: memory both sides use; gpu.memset, a kernel, and
// host loads after a blocking wait (no copies); also a device-to-device
// gpu.memcpy and a synchronous gpu.memset.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @iota_add(%m: memref<6xi16>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<6xi16>
      %ii = arith.index_cast %i : index to i16
      %r = arith.addi %x, %ii : i16
      memref.store %r, %m[%i] : memref<6xi16>
      gpu.return
    }
  }

  func.func private @printMemrefI16(memref<*xi16>)
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func private @printComma()

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %seven = arith.constant 7 : i16
    %t0 = gpu.wait async
    %s, %t1 = gpu.alloc async [%t0] host_shared () : memref<6xi16>
    %t2 = gpu.memset async [%t1] %s, %seven : memref<6xi16>, i16
    %t3 = gpu.launch_func async [%t2] @k::@iota_add blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%s : memref<6xi16>)
    gpu.wait [%t3]
    %u = memref.cast %s : memref<6xi16> to memref<*xi16>
    call @printMemrefI16(%u) : (memref<*xi16>) -> ()
    %x = memref.load %s[%c5] : memref<6xi16>
    %x64 = arith.extsi %x : i16 to i64
    call @printI64(%x64) : (i64) -> ()
    call @printNewline() : () -> ()
    // device memory: fill it, copy it into the shared buffer
    %d = gpu.alloc () : memref<6xi16>
    %minus = arith.constant -3 : i16
    gpu.memset %d, %minus : memref<6xi16>, i16
    gpu.memcpy %s, %d : memref<6xi16>, memref<6xi16>
    scf.for %i = %c0 to %c6 step %c1 {
      %v = memref.load %s[%i] : memref<6xi16>
      %v64 = arith.extsi %v : i16 to i64
      call @printI64(%v64) : (i64) -> ()
      call @printComma() : () -> ()
    }
    call @printNewline() : () -> ()
    gpu.dealloc %d : memref<6xi16>
    gpu.dealloc %s : memref<6xi16>
    return
  }
}
// CHECK: rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [7,  8,  9,  10,  11,  12]
// CHECK-NEXT: 12
// CHECK-NEXT: -3, -3, -3, -3, -3, -3,
