// Pipeline corpus: out = max(x + bias (broadcast along rows), 0), static.
// tile-sizes: 4,32
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%x: memref<32x256xf32>, %bias: memref<256xf32>, %out: memref<32x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %bias : memref<32x256xf32>, memref<256xf32>) outs(%out : memref<32x256xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %pos = arith.cmpf ogt, %s, %zero : f32
    %r = arith.select %pos, %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}
