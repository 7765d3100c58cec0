// Pipeline corpus: widen i16 to i32 and scale by an index-derived factor, 1-d dynamic.
// tile-sizes: 128
#id = affine_map<(d0) -> (d0)>
func.func @widen(%src: memref<?xi16>, %dst: memref<?xi32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%src : memref<?xi16>) outs(%dst : memref<?xi32>) {
  ^bb0(%v: i16, %o: i32):
    %i = linalg.index 0 : index
    %w = arith.extsi %v : i16 to i32
    %k = arith.index_cast %i : index to i32
    %r = arith.muli %w, %k : i32
    linalg.yield %r : i32
  }
  return
}
