// RUN: %mlir-diff --pass canonicalize %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -canonicalize' %s

// Dead-code removal on gpu ops: unused results of ops without memory effects
// (or with only an allocation of their own result) go; the others stay.
func.func @host_ops(%n: index, %t: !gpu.async.token, %m: memref<?xf32>, %u: memref<*xf32>, %v: f32, %d: i32) {
  %a0 = gpu.alloc (%n) : memref<?xf32>
  %a1, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  %a2 = gpu.alloc host_shared (%n) : memref<?xf32>
  %a3 = gpu.alloc [%t] (%n) : memref<?xf32>
  %w = gpu.wait async
  %t2 = gpu.dealloc async [%t] %m : memref<?xf32>
  %t3 = gpu.memcpy async [%t] %m, %m : memref<?xf32>, memref<?xf32>
  %t4 = gpu.memset async [%t] %m, %v : memref<?xf32>, f32
  gpu.host_register %u : memref<*xf32>
  gpu.host_unregister %u : memref<*xf32>
  gpu.set_default_device %d
  return
}

// -----

// An allocation whose token is used stays.
func.func @alloc_token_used(%n: index, %t: !gpu.async.token) -> !gpu.async.token {
  %a1, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  return %t1 : !gpu.async.token
}

// -----

// An allocation that is freed stays (the dealloc uses it).
func.func @alloc_dealloc(%n: index) {
  %a = gpu.alloc (%n) : memref<?xf32>
  gpu.dealloc %a : memref<?xf32>
  return
}

// -----

gpu.module @kernel_ops {
  gpu.func @ids(%x: f32, %i: i32, %vec: vector<4xf32>) kernel {
    %0 = gpu.thread_id x
    %1 = gpu.block_id y
    %2 = gpu.block_dim z
    %3 = gpu.grid_dim x
    %4 = gpu.global_id y
    %5 = gpu.cluster_id x
    %6 = gpu.cluster_dim y
    %7 = gpu.cluster_dim_blocks z
    %8 = gpu.cluster_block_id x
    %9 = gpu.lane_id
    %10 = gpu.subgroup_id : index
    %11 = gpu.num_subgroups : index
    %12 = gpu.subgroup_size : index
    %13 = gpu.thread_id x upper_bound 64
    gpu.return
  }
  gpu.func @subgroup(%x: f32, %i: i32, %w: i32, %l: i32) kernel {
    %s, %sv = gpu.shuffle xor %x, %i, %w : f32
    %r, %rv = gpu.rotate %x, 1, 16 : f32
    %a = gpu.all_reduce add %x {} : (f32) -> f32
    %b = gpu.all_reduce %x {
    ^bb0(%p: f32, %q: f32):
      %z = arith.addf %p, %q : f32
      gpu.yield %z : f32
    } : (f32) -> f32
    %c = gpu.subgroup_reduce add %x : (f32) -> f32
    %d = gpu.subgroup_reduce add %x uniform cluster(size = 4) : (f32) -> f32
    %e = gpu.subgroup_broadcast %x, first_active_lane : f32
    %f = gpu.subgroup_broadcast %x, specific_lane %l : f32
    gpu.return
  }
  gpu.func @effects(%x: f32) kernel {
    %sm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.printf "x=%f\n", %x : f32
    gpu.barrier
    gpu.return
  }
}

// -----

func.func @warp(%lane: index, %v: vector<32xf32>, %m: memref<4xf32>, %x: f32) {
  %r = gpu.warp_execute_on_lane_0(%lane)[32] args(%v : vector<32xf32>) -> (vector<1xf32>) {
  ^bb0(%arg: vector<32xf32>):
    gpu.yield %arg : vector<32xf32>
  }
  gpu.warp_execute_on_lane_0(%lane)[32] {
    memref.store %x, %m[%lane] : memref<4xf32>
  }
  return
}

// -----

// Launches: an empty body, an unused token, a body with effects.
func.func @launches(%n: index, %t: !gpu.async.token, %m: memref<?xf32>, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %id = gpu.thread_id x
    gpu.terminator
  }
  %t1 = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    memref.store %v, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @launch_func(%n: index, %t: !gpu.async.token) {
    %t1 = gpu.launch_func async [%t] @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
