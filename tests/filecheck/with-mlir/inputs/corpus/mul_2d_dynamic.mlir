// Pipeline corpus: elementwise multiplication, 2-d, dynamic shapes.
// tile-sizes: 16,16
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mul_2d(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %out: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<?x?xf32>, memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %p = arith.mulf %l, %r : f32
    linalg.yield %p : f32
  }
  return
}
