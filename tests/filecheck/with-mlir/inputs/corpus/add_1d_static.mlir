// Pipeline corpus: elementwise addition, 1-d, static.
// tile-sizes: 64
#id = affine_map<(d0) -> (d0)>
func.func @add_1d(%x: memref<1024xf32>, %y: memref<1024xf32>, %out: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : memref<1024xf32>, memref<1024xf32>) outs(%out : memref<1024xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %s = arith.addf %l, %r : f32
    linalg.yield %s : f32
  }
  return
}
