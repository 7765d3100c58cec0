// Pipeline corpus: a batched matmul and a 3-d transpose, static, f16 and f32.
// tile-sizes: 1,4,4
func.func @batch_matmul(%a: memref<2x16x8xf16>, %b: memref<2x8x16xf16>, %c: memref<2x16x16xf16>) {
  linalg.batch_matmul ins(%a, %b : memref<2x16x8xf16>, memref<2x8x16xf16>)
                      outs(%c : memref<2x16x16xf16>)
  return
}

func.func @transpose(%in: memref<8x16x4xf32>, %out: memref<4x8x16xf32>) {
  linalg.transpose ins(%in : memref<8x16x4xf32>) outs(%out : memref<4x8x16xf32>)
                   permutation = [2, 0, 1]
  return
}
