// Pipeline corpus: out = x + y * 2, 3-d, static, in place of a fused op.
// tile-sizes: 2,4,8
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @add_3d(%x: memref<4x8x16xf32>, %y: memref<4x8x16xf32>, %out: memref<4x8x16xf32>) {
  %two = arith.constant 2.0 : f32
  linalg.generic {indexing_maps = [#id, #id, #id],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : memref<4x8x16xf32>, memref<4x8x16xf32>) outs(%out : memref<4x8x16xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %m = arith.mulf %r, %two : f32
    %s = arith.addf %l, %m : f32
    linalg.yield %s : f32
  }
  return
}
