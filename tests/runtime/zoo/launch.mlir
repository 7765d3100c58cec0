// gpu.launch, outlined on the fly (gpu-kernel-outlining) before the run; the
// body captures host values; an async launch in a host loop.
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %base = arith.constant 100 : i32
  %d = gpu.alloc () : memref<2x8xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %b = arith.index_cast %bx : index to i32
    %k = arith.constant 10 : i32
    %hb = arith.muli %b, %k : i32
    %s = arith.addi %hb, %t : i32
    %v = arith.addi %s, %base : i32
    memref.store %v, %d[%bx, %tx] : memref<2x8xi32>
    gpu.terminator
  }
  %t0 = gpu.wait async
  %tl = scf.for %i = %c0 to %c3 step %c1 iter_args(%tok = %t0) -> (!gpu.async.token) {
    %tn = gpu.launch async [%tok] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c2, %sz = %c1) {
      %v = memref.load %d[%ty, %tx] : memref<2x8xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %d[%ty, %tx] : memref<2x8xi32>
      gpu.terminator
    }
    scf.yield %tn : !gpu.async.token
  }
  %h = memref.alloc() : memref<2x8xi32>
  %tc = gpu.memcpy async [%tl] %h, %d : memref<2x8xi32>, memref<2x8xi32>
  gpu.wait [%tc]
  %u = memref.cast %h : memref<2x8xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
// CHECK: rank = 2 offset = 0 sizes = [2, 8] strides = [8, 1] data =
// CHECK-NEXT: [[103,   104,   105,   106,   107,   108,   109,   110],
// CHECK-NEXT:  [113,   114,   115,   116,   117,   118,   119,   120]]
