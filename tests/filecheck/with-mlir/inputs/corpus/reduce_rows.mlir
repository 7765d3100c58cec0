// Pipeline corpus: row sums (a reduction over the inner dimension), static.
// tile-sizes: 8
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_sums(%m: memref<64x128xf32>, %sums: memref<64xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<64x128xf32>) outs(%sums : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}
