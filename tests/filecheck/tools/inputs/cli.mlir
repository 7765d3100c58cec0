// Input of cli-mlir-flags.test.
func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %s = arith.addi %n, %c0 : index
  "test.use"(%s) : (index) -> ()
  return %s : index
}

// -----

module attributes {gpu.container_module} {
  func.func @f(%n: index, %buf: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %buf[%tx] : memref<?xf32>
      memref.store %v, %buf[%bx] : memref<?xf32>
      gpu.terminator
    }
    return
  }
}
