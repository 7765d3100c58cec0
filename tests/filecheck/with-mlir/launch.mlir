// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// gpu.launch in every syntax combination, checked against mlir-opt 22.

func.func @plain(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %s = arith.addi %bx, %tx : index
    gpu.terminator
  }
  return
}

// -----

func.func @async(%n: index, %t0: !gpu.async.token, %t1: !gpu.async.token) -> (!gpu.async.token, !gpu.async.token, !gpu.async.token) {
  %a = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  %b = gpu.launch async [%t0, %a] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  %c = gpu.launch async [] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return %a, %b, %c : !gpu.async.token, !gpu.async.token, !gpu.async.token
}

// -----

func.func @clusters(%n: index, %m: index) {
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %m, %csy = %m, %csz = %m) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %i = arith.muli %cx, %csy : index
    gpu.terminator
  }
  return
}

// -----

func.func @dsm_symbols(%n: index, %bytes: i32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@kernels) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) function(@body) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes module(@kernels) function(@body) {
    gpu.terminator
  }
  // Written in the attribute dictionary, module/function are still the op's own.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  } {function = @f2, module = @m2}
  return
}

// -----

func.func @attributions(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>, %w2 : memref<4x4xi32, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %w[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) private(%p : memref<1xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>, %q : memref<2xi8, #gpu.address_space<private>>) {
    gpu.terminator
  }
  // An empty attribution list prints as nothing.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup() {
    gpu.terminator
  }
  return
}

// -----

func.func @everything(%n: index, %bytes: i32, %t: !gpu.async.token) -> !gpu.async.token {
  %r = gpu.launch async [%t] clusters(%cx, %cy, %cz) in (%csx = %n, %csy = %n, %csz = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes module(@mod) function(@fun) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
    gpu.terminator
  } {extra = 7 : i32, flag}
  return %r : !gpu.async.token
}

// -----

func.func @cfg(%n: index, %c: i1) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    gpu.terminator
  ^bb2:
    cf.br ^bb1
  }
  return
}

// -----

func.func @nested(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %gx, %gy2 = %sy, %gz2 = %bz) threads(%tx2, %ty2, %tz2) in (%sx2 = %tx, %sy2 = %n, %sz2 = %n) {
      gpu.terminator
    }
    gpu.terminator
  }
  return
}

// -----

// Generic-form input: a workgroup count taken as an i32, no count at all
// (everything after the configuration arguments is private), and extra
// private arguments after the clusters.
func.func @generic(%n: index) {
  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index, %p: memref<2xf32, #gpu.address_space<private>>):
    "gpu.terminator"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  "gpu.launch"(%n, %n, %n, %n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0>}> ({
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, %a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index, %a12: index, %a13: index, %a14: index, %a15: index, %a16: index, %a17: index, %w: memref<2xf32, #gpu.address_space<workgroup>>, %p: memref<2xf32, #gpu.address_space<private>>):
    "gpu.terminator"() : () -> ()
  }) {workgroup_attributions = 1 : i32} : (index, index, index, index, index, index, index, index, index) -> ()
  return
}
