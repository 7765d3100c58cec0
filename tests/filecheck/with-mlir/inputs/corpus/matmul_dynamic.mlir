// Pipeline corpus: C = 0; C += A * B on dynamic shapes, integer elements.
// tile-sizes: 8,8
func.func @matmul_dynamic(%a: memref<?x?xi32>, %b: memref<?x?xi32>, %c: memref<?x?xi32>) {
  %zero = arith.constant 0 : i32
  linalg.fill ins(%zero : i32) outs(%c : memref<?x?xi32>)
  linalg.matmul ins(%a, %b : memref<?x?xi32>, memref<?x?xi32>)
                outs(%c : memref<?x?xi32>)
  return
}
