// The runner utilities read what they print: printing a buffer that an async
// gpu.memcpy may still write races with it.
// RUN: not xgpu-run --backend sim --detect-races %s 2>&1 | filecheck %s
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %f = arith.constant 3.0 : f32
  %h = memref.alloc() : memref<2xf32>
  %d = gpu.alloc () : memref<2xf32>
  gpu.memset %d, %f : memref<2xf32>, f32
  %t0 = gpu.wait async
  %t1 = gpu.memcpy async [%t0] %h, %d : memref<2xf32>, memref<2xf32>
  %u = memref.cast %h : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  gpu.wait [%t1]
  return
}
// CHECK: race-print.mlir:13:3: error: data race: func.call by the host reads %h[0], which gpu.memcpy wrote: the host does not wait for gpu.memcpy
// CHECK: race-print.mlir:11:9: note: the other access: gpu.memcpy wrote %h[0]
