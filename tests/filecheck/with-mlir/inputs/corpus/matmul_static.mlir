// Pipeline corpus (tests/unit/test_pipeline_corpus.py): C += A * B, static shapes.
// tile-sizes: 4,8
func.func @matmul_static(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %c: memref<16x32xf32>) {
  linalg.matmul ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>)
                outs(%c : memref<16x32xf32>)
  return
}
