// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// A barrier directly followed by a barrier is erased.
gpu.module @barriers {
  gpu.func @three() kernel {
    gpu.barrier
    gpu.barrier
    gpu.barrier
    gpu.return
  }
  gpu.func @separated(%m: memref<4xf32>, %v: f32, %i: index) kernel {
    gpu.barrier
    memref.store %v, %m[%i] : memref<4xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

func.func @barriers_in_launch(%n: index, %c: i1) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.barrier
    scf.if %c {
      gpu.barrier
      gpu.barrier
    }
    gpu.barrier
    gpu.terminator
  }
  return
}

// -----

// all_reduce and subgroup_reduce in the entry block of a launch become uniform.
func.func private @use(f32)
func.func @uniform_in_launch(%n: index, %x: f32, %c: i1) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    %b = gpu.all_reduce %a {
    ^bb0(%l: f32, %r: f32):
      %s = arith.mulf %l, %r : f32
      gpu.yield %s : f32
    } : (f32) -> f32
    %c2 = gpu.subgroup_reduce add %b : (f32) -> f32
    %c3 = gpu.subgroup_reduce maxnumf %c2 cluster(size = 4) : (f32) -> f32
    %u = gpu.all_reduce mul %c3 uniform {} : (f32) -> f32
    func.call @use(%u) : (f32) -> ()
    scf.if %c {
      %d = gpu.all_reduce add %x {} : (f32) -> f32
      %e = gpu.subgroup_reduce add %d : (f32) -> f32
      func.call @use(%e) : (f32) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// Outside a launch nothing becomes uniform.
gpu.module @kernels {
  gpu.func @not_in_launch(%x: f32, %m: memref<f32>) kernel {
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    %b = gpu.subgroup_reduce add %a : (f32) -> f32
    memref.store %b, %m[] : memref<f32>
    gpu.return
  }
}

// -----

// A launch whose body has several blocks: only the entry block's ops.
func.func private @use(f32)
func.func @multi_block_launch(%n: index, %x: f32, %c: i1) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %b = gpu.all_reduce add %a {} : (f32) -> f32
    %d = gpu.subgroup_reduce add %b : (f32) -> f32
    func.call @use(%d) : (f32) -> ()
    cf.br ^bb2
  ^bb2:
    gpu.terminator
  }
  return
}

// -----

// subgroup_reduce over clusters of one lane is its operand.
func.func @cluster_one(%x: f32, %v: vector<4xi32>) -> (f32, f32, vector<4xi32>, f32) {
  %0 = gpu.subgroup_reduce add %x cluster(size = 1) : (f32) -> f32
  %1 = gpu.subgroup_reduce mul %x uniform cluster(size = 1, stride = 4) : (f32) -> f32
  %2 = gpu.subgroup_reduce xor %v cluster(size = 1) : (vector<4xi32>) -> vector<4xi32>
  %3 = gpu.subgroup_reduce add %x cluster(size = 2) : (f32) -> f32
  return %0, %1, %2, %3 : f32, f32, vector<4xi32>, f32
}

// -----

func.func private @use(f32)
func.func @cluster_one_in_launch(%n: index, %x: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %0 = gpu.subgroup_reduce add %x cluster(size = 1) : (f32) -> f32
    %1 = gpu.subgroup_reduce add %0 cluster(size = 8, stride = 2) : (f32) -> f32
    func.call @use(%1) : (f32) -> ()
    gpu.terminator
  }
  return
}

// -----

// A broadcast of a broadcast is the inner broadcast, whatever the kinds.
func.func @broadcast_twice(%v: f32, %l: i32) -> (f32, f32, f32) {
  %0 = gpu.subgroup_broadcast %v, first_active_lane : f32
  %1 = gpu.subgroup_broadcast %0, specific_lane %l : f32
  %2 = gpu.subgroup_broadcast %v, specific_lane %l : f32
  %3 = gpu.subgroup_broadcast %2, first_active_lane : f32
  %4 = gpu.subgroup_broadcast %3, first_active_lane : f32
  return %1, %3, %4 : f32, f32, f32
}

// -----

// Broadcasts of other values are kept, even of uniform ones.
func.func @broadcast_kept(%v: f32, %l: i32) -> (f32, i32, f32) {
  %c = arith.constant 1.0 : f32
  %0 = gpu.subgroup_broadcast %c, first_active_lane : f32
  %1 = gpu.block_id x
  %2 = arith.index_cast %1 : index to i32
  %3 = gpu.subgroup_broadcast %2, specific_lane %l : i32
  %4 = gpu.subgroup_reduce add %v uniform : (f32) -> f32
  %5 = gpu.subgroup_broadcast %4, first_active_lane : f32
  return %0, %3, %5 : f32, i32, f32
}

// -----

// Index ops have no folder, even where the launch sizes are known.
func.func private @use(index)
func.func @index_ops_kept(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %t = gpu.thread_id x
    %b = gpu.block_dim x
    %i = gpu.global_id x
    func.call @use(%t) : (index) -> ()
    func.call @use(%b) : (index) -> ()
    func.call @use(%i) : (index) -> ()
    gpu.terminator
  }
  return
}
