// saxpy y = a * x + y over 2^20 f32, 256 work-items per block (4096 blocks,
// no barrier: the lockstep engine runs them as one batch). x and y are
// filled by a kernel; the host prints y[0], y[12345] and y[2^20 - 1].
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %c7 = arith.constant 7 : i32
      %i = gpu.global_id x
      %ii = arith.index_cast %i : index to i32
      %r = arith.remsi %ii, %c7 : i32
      %f = arith.sitofp %r : i32 to f32
      %one = arith.constant 1.0 : f32
      %g = arith.addf %f, %one : f32
      memref.store %f, %x[%i] : memref<?xf32>
      memref.store %g, %y[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func private @printF32(f32)
  func.func private @printComma()
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = arith.constant 1048576 : index
    %blocks = arith.divui %n, %c256 : index
    %a = arith.constant 2.5 : f32
    %x = gpu.alloc (%n) : memref<?xf32>
    %y = gpu.alloc (%n) : memref<?xf32>
    gpu.launch_func @k::@fill blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch_func @k::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    %h = memref.alloc(%n) : memref<?xf32>
    gpu.memcpy %h, %y : memref<?xf32>, memref<?xf32>
    %c0 = arith.constant 0 : index
    %c12345 = arith.constant 12345 : index
    %last = arith.subi %n, %c1 : index
    %v0 = memref.load %h[%c0] : memref<?xf32>
    %v1 = memref.load %h[%c12345] : memref<?xf32>
    %v2 = memref.load %h[%last] : memref<?xf32>
    call @printF32(%v0) : (f32) -> ()
    call @printComma() : () -> ()
    call @printF32(%v1) : (f32) -> ()
    call @printComma() : () -> ()
    call @printF32(%v2) : (f32) -> ()
    gpu.dealloc %x : memref<?xf32>
    gpu.dealloc %y : memref<?xf32>
    return
  }
}
