// RUN: %mlir-diff --pass canonicalize %s

// index constants are uniqued per dialect and hoisted to the entry block of
// the nearest isolated region, as arith constants are (an execute body and a
// gpu.launch body are not isolated). xgpu folds no index arithmetic yet: these
// inputs have none that mlir-opt would fold.
module attributes {gpu.container_module} {
  func.func @f(%n: index, %m: memref<?xf32>, %v: f32) {
    %a = async.execute {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
        %c = index.constant 3
        %i = index.add %tx, %c
        memref.store %v, %m[%i] : memref<?xf32>
        gpu.terminator
      }
      async.yield
    }
    async.await %a : !async.token
    return
  }
}

// -----

func.func @unique(%a: index, %b: index) -> (index, index, index, i1, i1) {
  %c = index.constant 3
  %d = index.constant 3
  %e = arith.constant 3 : index
  %0 = index.mul %a, %c
  %1 = index.maxs %b, %d
  %2 = arith.addi %1, %e : index
  %t = index.bool.constant true
  %t2 = index.bool.constant true
  %p = index.cmp slt(%a, %b)
  %q = arith.andi %p, %t : i1
  return %0, %1, %2, %t2, %q : index, index, index, i1, i1
}
