// RUN: xgpu-opt -p gpu-kernel-outlining --split-input-file --allow-unregistered-dialect %s | filecheck %s
// The output verifies and parses back.
// RUN: xgpu-opt -p gpu-kernel-outlining --split-input-file --allow-unregistered-dialect %s | xgpu-opt --split-input-file --allow-unregistered-dialect | filecheck %s
// A data layout string goes on every kernel module.
// RUN: xgpu-opt -p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i32>"}' %s --split-input-file --allow-unregistered-dialect | filecheck %s --check-prefix=DL

// Captured values become arguments in first-use order (a post-order walk:
// the scf.for body's %w before the loop bounds %c1 and %n); outside constants stay
// arguments; ids and sizes are recomputed at the kernel's entry, in this
// order; constant sizes give known_block_size / known_grid_size.
// CHECK-LABEL: builtin.module attributes {gpu.container_module} {
// CHECK-NEXT:    func.func @basic(%a: memref<?xf32>, %n: index, %v: f32, %w: f32) {
// CHECK-NEXT:      %c1 = arith.constant 1 : index
// CHECK-NEXT:      %c32 = arith.constant 32 : index
// CHECK-NEXT:      gpu.launch_func @basic_kernel::@basic_kernel blocks in (%n, %c1, %c1) threads in (%c32, %c1, %c1) args(%v : f32, %a : memref<?xf32>, %w : f32, %c1 : index, %n : index)
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.module @basic_kernel {
// CHECK-NEXT:      gpu.func @basic_kernel(%[[V:.*]]: f32, %[[A:.*]]: memref<?xf32>, %[[W:.*]]: f32, %[[C1:.*]]: index, %[[N:.*]]: index) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
// CHECK-NEXT:        %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:        %{{.*}} = gpu.block_id y
// CHECK-NEXT:        %{{.*}} = gpu.block_id z
// CHECK-NEXT:        %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:        %{{.*}} = gpu.thread_id y
// CHECK-NEXT:        %{{.*}} = gpu.thread_id z
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim x
// CHECK-NEXT:        %[[GY:.*]] = gpu.grid_dim y
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim z
// CHECK-NEXT:        %[[SX:.*]] = gpu.block_dim x
// CHECK-NEXT:        %{{.*}} = gpu.block_dim y
// CHECK-NEXT:        %{{.*}} = gpu.block_dim z
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[BX]], %[[TX]] : index
// CHECK-NEXT:        %[[J:.*]] = arith.muli %[[I]], %[[SX]] : index
// CHECK-NEXT:        memref.store %[[V]], %[[A]][%[[J]]] : memref<?xf32>
// CHECK-NEXT:        scf.for %[[K:.*]] = %[[C1]] to %[[N]] step %[[GY]] {
// CHECK-NEXT:          memref.store %[[W]], %[[A]][%[[K]]] : memref<?xf32>
// CHECK-NEXT:        }
// CHECK-NEXT:        gpu.return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// DL:          gpu.module @basic_kernel attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
func.func @basic(%a: memref<?xf32>, %n: index, %v: f32, %w: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = arith.addi %bx, %tx : index
    %j = arith.muli %i, %sx : index
    memref.store %v, %a[%j] : memref<?xf32>
    scf.for %k = %c1 to %n step %gy {
      memref.store %w, %a[%k] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Names: `<func>_kernel`, made unique with MLIR's counter, shared by all the
// modules of the run (@f_kernel and @f_kernel_1 are taken). Each new module
// goes right after its function.
// CHECK-LABEL: builtin.module attributes {gpu.container_module} {
// CHECK-NEXT:    func.func private @f_kernel()
// CHECK-NEXT:    func.func @f(%n: index) {
// CHECK-NEXT:      gpu.launch_func @f_kernel_0::@f_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
// CHECK-NEXT:      gpu.launch_func @f_kernel_2::@f_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.module @f_kernel_0 {
// CHECK-NEXT:      gpu.func @f_kernel() kernel {
// CHECK:         gpu.module @f_kernel_2 {
// CHECK-NEXT:      gpu.func @f_kernel() kernel {
// CHECK:         func.func @g(%n: index) {
// CHECK-NEXT:      gpu.launch_func @g_kernel::@g_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n)
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.module @g_kernel {
// CHECK-NEXT:      gpu.func @g_kernel() kernel {
// CHECK:         func.func private @f_kernel_1()
// CHECK-NEXT:  }
func.func private @f_kernel()
func.func @f(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}
func.func @g(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}
func.func private @f_kernel_1()

// -----

// Async dependencies and token, clusters, dynamic shared memory: all on the
// launch_func; the cluster ids and sizes become gpu.cluster_id/cluster_dim.
// CHECK-LABEL: func.func @async_clusters(
// CHECK:         %[[TOK:.*]] = gpu.launch_func async [%t, %t2] @async_clusters_kernel::@async_clusters_kernel clusters in (%c2, %c1, %c1) blocks in (%c4, %c1, %c1) threads in (%c2, %c2, %c1) dynamic_shared_memory_size %smem args(%v : f32, %a : memref<?xf32>)
// CHECK-NEXT:    gpu.wait [%[[TOK]]]
// CHECK:         gpu.func @async_clusters_kernel(%{{.*}}: f32, %{{.*}}: memref<?xf32>) kernel attributes {known_block_size = array<i32: 2, 2, 1>, known_grid_size = array<i32: 4, 1, 1>} {
// CHECK-COUNT-3:   gpu.block_dim
// CHECK-NEXT:      %[[CX:.*]] = gpu.cluster_id x
// CHECK-NEXT:      %{{.*}} = gpu.cluster_id y
// CHECK-NEXT:      %[[CZ:.*]] = gpu.cluster_id z
// CHECK-NEXT:      %[[CSX:.*]] = gpu.cluster_dim x
// CHECK-NEXT:      %{{.*}} = gpu.cluster_dim y
// CHECK-NEXT:      %{{.*}} = gpu.cluster_dim z
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[CX]], %[[CSX]] : index
// CHECK-NEXT:      %{{.*}} = arith.addi %[[I]], %[[CZ]] : index
func.func @async_clusters(%a: memref<?xf32>, %t: !gpu.async.token, %t2: !gpu.async.token, %smem: i32, %v: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %tok = gpu.launch async [%t, %t2] clusters(%cx, %cy, %cz) in (%csx = %c2, %csy = %c1, %csz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c2, %sy = %c2, %sz = %c1)
             dynamic_shared_memory_size %smem {
    %i = arith.addi %cx, %csx : index
    %j = arith.addi %i, %cz : index
    memref.store %v, %a[%j] : memref<?xf32>
    gpu.terminator
  }
  gpu.wait [%tok]
  return
}

// -----

// Workgroup and private attributions; multi-block bodies (the launch's entry
// block continues the kernel's entry block, no cf.br); every gpu.terminator
// becomes gpu.return.
// CHECK-LABEL: gpu.module @attributions_kernel {
// CHECK-NEXT:    gpu.func @attributions_kernel(%[[C:.*]]: i1, %[[V:.*]]: f32) workgroup(%[[WG:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) private(%[[P:.*]] : memref<1xf32, #gpu.address_space<private>>) kernel {
// CHECK:           %[[TX:.*]] = gpu.thread_id x
// CHECK-COUNT-8:   = gpu.
// CHECK-NEXT:      cf.cond_br %[[C]], ^[[BB1:.*]], ^[[BB2:.*]]
// CHECK-NEXT:    ^[[BB1]]:
// CHECK-NEXT:      memref.store %[[V]], %[[WG]][%[[TX]]]
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    ^[[BB2]]:
// CHECK-NEXT:      memref.store %[[V]], %[[P]][%[[TX]]]
// CHECK-NEXT:      gpu.return
// CHECK-NEXT:    }
func.func @attributions(%n: index, %c: i1, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>)
             private(%p : memref<1xf32, #gpu.address_space<private>>) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    memref.store %v, %wg[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  ^bb2:
    memref.store %v, %p[%tx] : memref<1xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// module(@m) function(@k): a gpu.module made for one launch is reused by the
// next (kernel renamed @k_0); an existing gpu.module is reused; function(@only)
// alone names the module too.
// CHECK-LABEL: builtin.module attributes {gpu.container_module} {
// CHECK-NEXT:    gpu.module @existing {
// CHECK-NEXT:      gpu.func @attrs_kernel() {
// CHECK-NEXT:        gpu.return
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.func @attrs_kernel_0() kernel {
// CHECK:         func.func @attrs(%n: index) {
// CHECK-NEXT:      gpu.launch_func @m::@k blocks
// CHECK-NEXT:      gpu.launch_func @m::@k_0 blocks
// CHECK-NEXT:      gpu.launch_func @existing::@attrs_kernel_0 blocks
// CHECK-NEXT:      gpu.launch_func @only::@only blocks
// CHECK-NEXT:      func.return
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.module @m {
// CHECK-NEXT:      gpu.func @k() kernel {
// CHECK:           gpu.func @k_0() kernel {
// CHECK:         gpu.module @only {
// CHECK-NEXT:      gpu.func @only() kernel {
// DL:            gpu.module @existing attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>} {
gpu.module @existing {
  gpu.func @attrs_kernel() {
    gpu.return
  }
}
func.func @attrs(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@m) function(@k) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@m) function(@k) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@existing) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) function(@only) {
    gpu.terminator
  }
  return
}

// -----

// Callees are copied into the kernel module, transitively, in MLIR's
// worklist order; the originals stay.
// CHECK-LABEL: gpu.module @calls_kernel {
// CHECK-NEXT:    gpu.func @calls_kernel(
// CHECK:           func.call @helper(
// CHECK:         func.func @helper(%x: f32) -> f32 {
// CHECK:         func.func private @ext(f32) -> f32
// CHECK-NEXT:    func.func @helper2(%x: f32) -> f32 {
// CHECK:       }
func.func private @ext(f32) -> f32
func.func @helper(%x: f32) -> f32 {
  %y = func.call @ext(%x) : (f32) -> f32
  %z = func.call @helper2(%y) : (f32) -> f32
  return %z : f32
}
func.func @helper2(%x: f32) -> f32 {
  %y = func.call @helper(%x) : (f32) -> f32
  return %y : f32
}
func.func @calls(%n: index, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %r = func.call @helper(%v) : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

// Nested launches are outlined inside-out.
// CHECK-LABEL: func.func @nested(%n: index, %v: f32) {
// CHECK-NEXT:    gpu.launch_func @nested_kernel_0::@nested_kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%n : index, %v : f32)
// CHECK:         gpu.module @nested_kernel {
// CHECK-NEXT:      gpu.func @nested_kernel(%[[V:.*]]: f32, %[[BX:.*]]: index) kernel {
// CHECK:             "test.use"(%[[V]], %[[BX]]) : (f32, index) -> ()
// CHECK:         gpu.module @nested_kernel_0 {
// CHECK-NEXT:      gpu.func @nested_kernel(%[[N:.*]]: index, %[[V2:.*]]: f32) kernel {
// CHECK-NEXT:        %[[BX2:.*]] = gpu.block_id x
// CHECK:             gpu.launch_func @nested_kernel::@nested_kernel blocks in (%[[BX2]], %[[N]], %[[N]]) threads in (%[[N]], %[[N]], %[[N]]) args(%[[V2]] : f32, %[[BX2]] : index)
// CHECK-NEXT:        gpu.return
func.func @nested(%n: index, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %bx, %gy2 = %n, %gz2 = %n)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) {
      "test.use"(%v, %bx) : (f32, index) -> ()
      gpu.terminator
    }
    gpu.terminator
  }
  return
}

// -----

// Sizes: the unsigned value as an i32; above 2^32 - 1 (or negative): none.
// CHECK-LABEL: gpu.func @sizes_kernel() kernel attributes {known_grid_size = array<i32: -1294967296, 0, 0>} {
// CHECK:       gpu.func @sizes_kernel() kernel {
func.func @sizes() {
  %big = arith.constant 3000000000 : index
  %huge = arith.constant 5000000000 : index
  %neg = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c0, %gz = %c0)
             threads(%tx, %ty, %tz) in (%sx = %huge, %sy = %c0, %sz = %c0) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %neg, %gy = %c0, %gz = %c0)
             threads(%tx, %ty, %tz) in (%sx = %huge, %sy = %c0, %sz = %c0) {
    gpu.terminator
  }
  return
}

// -----

// No launch: nothing changes, no gpu.container_module.
// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    func.func @none() {
func.func @none() {
  return
}
