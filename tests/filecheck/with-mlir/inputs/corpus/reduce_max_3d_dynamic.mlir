// Pipeline corpus: maximum over the middle dimension of a 3-d dynamic memref.
// tile-sizes: 4,4
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @max_middle(%t: memref<?x?x?xf32>, %best: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%t : memref<?x?x?xf32>) outs(%best : memref<?x?xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %m = arith.maximumf %acc, %v : f32
    linalg.yield %m : f32
  }
  return
}
