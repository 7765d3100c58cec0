// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// FoldLaunchArguments: ids whose size is the constant 1 become 0.
func.func private @use(index, index, index, index, index, index, index, index, index)
func.func @fold_ids(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %c1) {
    func.call @use(%bx, %by, %bz, %tx, %ty, %tz, %gx, %gy, %sx) : (index, index, index, index, index, index, index, index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// No size is 1: nothing changes.
func.func private @use(index, index, index, index, index, index)
func.func @no_fold(%n: index) {
  %c2 = arith.constant 2 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c2, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %n, %sz = %n) {
    func.call @use(%bx, %by, %bz, %tx, %ty, %tz) : (index, index, index, index, index, index) -> ()
    gpu.terminator
  }
  return
}

// -----

// Sizes of 1 but ids unused: no constant is created.
func.func private @use(index)
func.func @unused_ids(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    func.call @use(%gx) : (index) -> ()
    gpu.terminator
  }
  return
}

// -----

// An async launch nested in a loop, with the id used in a nested region; the
// zero constant is hoisted to the function's entry block, and merged with
// the one already there.
func.func private @use(index)
func.func @nested(%n: index, %t: !gpu.async.token, %c: i1) -> !gpu.async.token {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%tok = %t) -> (!gpu.async.token) {
    %t2 = gpu.launch async [%tok] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %n, %gz = %n)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %c1) {
      scf.if %c {
        func.call @use(%bx) : (index) -> ()
      }
      func.call @use(%tz) : (index) -> ()
      func.call @use(%i) : (index) -> ()
      gpu.terminator
    }
    scf.yield %t2 : !gpu.async.token
  }
  return %r : !gpu.async.token
}

// -----

// Cluster sizes of 1 do not matter, only grid and block sizes.
func.func private @use(index, index, index)
func.func @clusters(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%ux = %c1, %uy = %c1, %uz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %n, %sz = %n) {
    func.call @use(%cx, %bx, %tx) : (index, index, index) -> ()
    gpu.terminator
  }
  return
}
