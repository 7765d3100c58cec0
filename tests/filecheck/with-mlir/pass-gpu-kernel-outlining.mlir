// RUN: %mlir-diff --pass gpu-kernel-outlining %s
// With a data layout: every kernel module gets `dlti.dl_spec`.
// RUN: %mlir-diff --pass 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i32>"}' %s
// Sinking first, as MLIR's own outlining tests run it.
// RUN: %mlir-diff --pass gpu-launch-sink-index-computations,gpu-kernel-outlining %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file -gpu-kernel-outlining' %s

// Captured values become kernel arguments in first-use order; constants
// defined outside stay arguments (the outliner does not sink); the ids and
// sizes come back as gpu.block_id/thread_id/grid_dim/block_dim; constant block
// sizes give known_block_size (the grid size %n is not constant).
func.func @basic(%a: memref<?xf32>, %n: index, %v: f32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %i = arith.addi %bx, %tx : index
    %j = arith.muli %i, %sx : index
    %k = arith.addi %j, %d : index
    %l = arith.addi %k, %gy : index
    memref.store %v, %a[%l] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// First-use order follows a post-order walk: the operands of ops nested in
// an scf.for body come before the loop's own bounds.
func.func @first_use_order(%a: memref<?xf32>, %lb: index, %ub: index, %step: index, %v: f32, %w: f32) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %w, %a[%tx] : memref<?xf32>
    scf.for %i = %lb to %ub step %step {
      memref.store %v, %a[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// Naming: `<func>_kernel`, made unique with one counter for the whole run
// (@f_kernel and @f_kernel_1 exist: the kernels of @f go to @f_kernel_0 and
// @f_kernel_2, the kernel of @g to @g_kernel_3 as @g_kernel exists too).
func.func private @f_kernel()
func.func private @g_kernel()
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

// Async dependencies and token, dynamic shared memory, clusters (the cluster
// ids and sizes come back as gpu.cluster_id/gpu.cluster_dim); both sizes
// constant: known_block_size and known_grid_size, no known_cluster_size.
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

// A synchronous launch with a dynamic shared memory size only.
func.func @dynamic_smem(%n: index, %smem: i32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             dynamic_shared_memory_size %smem {
    gpu.terminator
  }
  return
}

// -----

// Workgroup and private attributions are carried over to the gpu.func.
func.func @attributions(%v: f32) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1)
             workgroup(%w0 : memref<32xf32, #gpu.address_space<workgroup>>, %w1 : memref<8xi32, #gpu.address_space<workgroup>>)
             private(%p : memref<1xf32, #gpu.address_space<private>>) {
    memref.store %v, %w0[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    %x = memref.load %p[%by] : memref<1xf32, #gpu.address_space<private>>
    memref.store %x, %w0[%bx] : memref<32xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// module(@m) / function(@k): the second launch reuses the gpu.module @m made
// for the first (its kernel, @k again, becomes @k_0: each module counts on
// its own); module(@existing) reuses that gpu.module (@mod_attrs_kernel is
// taken there: @mod_attrs_kernel_0); function(@only) alone names the module
// too; module(@notmod) names a func.func, so a new gpu.module is made and
// renamed @notmod_0.
func.func private @notmod()
gpu.module @existing {
  gpu.func @mod_attrs_kernel() {
    gpu.return
  }
}
func.func @mod_attrs(%n: index) {
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
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@notmod) {
    gpu.terminator
  }
  return
}

// -----

// A multi-block body: the launch's entry block continues the kernel's entry
// block (no cf.br), the other blocks follow; gpu.terminator -> gpu.return.
func.func @multi_block(%n: index, %c: i1, %v: f32, %a: memref<?xf32>) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    cf.cond_br %c, ^bb1, ^bb2(%v : f32)
  ^bb1:
    %w = arith.addf %v, %v : f32
    cf.br ^bb2(%w : f32)
  ^bb2(%x: f32):
    memref.store %x, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Callees are copied into the gpu.module, transitively (worklist order),
// recursion included; the originals stay.
func.func private @ext(f32) -> f32
func.func @helper(%x: f32) -> f32 {
  %y = func.call @ext(%x) : (f32) -> f32
  %z = func.call @helper2(%y) : (f32) -> f32
  return %z : f32
}
func.func @helper2(%x: f32) -> f32 {
  %y = func.call @helper(%x) : (f32) -> f32
  %z = func.call @leaf(%y) : (f32) -> f32
  return %z : f32
}
func.func @leaf(%x: f32) -> f32 {
  return %x : f32
}
func.func @calls(%n: index, %v: f32, %a: memref<?xf32>) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %r = func.call @helper(%v) : (f32) -> f32
    %s = func.call @leaf(%r) : (f32) -> f32
    memref.store %s, %a[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Symbols used by a kernel already in the reused gpu.module are not copied.
gpu.module @kernels {
  func.func @helper(%x: f32) -> f32 {
    return %x : f32
  }
}
func.func @helper(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @reuse(%n: index, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@kernels) {
    %r = func.call @helper(%v) : (f32) -> f32
    gpu.terminator
  }
  return
}

// -----

// Globals referenced by the kernel are copied as well (memref.global is
// written generically: xDSL 0.75 has no custom syntax for it).
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> ()
func.func @globals(%n: index, %a: memref<?xf32>) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %t = memref.get_global @table : memref<4xf32>
    %x = memref.load %t[%tx] : memref<4xf32>
    memref.store %x, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Nested launches are outlined inside-out: the inner one first (@nested_kernel),
// then the outer one (@nested_kernel_0), whose kernel launches the inner kernel.
func.func @nested(%n: index, %v: f32, %a: memref<?xf32>) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %bx, %gy2 = %n, %gz2 = %n)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) {
      memref.store %v, %a[%tx2] : memref<?xf32>
      gpu.terminator
    }
    gpu.terminator
  }
  return
}

// -----

// A launch in llvm.func and one in a loop of a func.func (the induction
// variable is captured); the kernels follow their function.
llvm.func @llvm_host(%s: i64) {
  %n = arith.index_cast %s : i64 to index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  llvm.return
}
func.func @in_loop(%n: index, %a: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      memref.store %i, %a[%bx] : memref<?xindex>
      gpu.terminator
    }
  }
  return
}

// -----

// known_*_size takes the unsigned value of each constant as an i32
// (3000000000 -> -1294967296); a size above 2^32 - 1 or negative gives none.
func.func @big_sizes() {
  %big = arith.constant 3000000000 : index
  %huge = arith.constant 5000000000 : index
  %neg = arith.constant -1 : index
  %c0 = arith.constant 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c0, %gz = %c0)
             threads(%tx, %ty, %tz) in (%sx = %huge, %sy = %c0, %sz = %c0) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %neg, %gy = %c0, %gz = %c0)
             threads(%tx, %ty, %tz) in (%sx = %c0, %sy = %c0, %sz = %c0) {
    gpu.terminator
  }
  return
}

// -----

// Unregistered ops in the body are copied as they are.
func.func @unregistered(%n: index) {
  %x = "test.value"() : () -> i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.region"(%x) ({
      "test.use"(%tx) : (index) -> ()
    }) : (i32) -> ()
    gpu.terminator
  }
  return
}

// -----

// Every named top-level symbol is visited, a gpu.module too: a launch in a
// gpu.func is outlined (named after the gpu.func). Launches nested in scf.if,
// one inside the other; unnamed nested modules are not visited.
gpu.module @dev {
  gpu.func @g(%n: index) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      gpu.terminator
    }
    gpu.return
  }
}
module {
  %n = "test.val"() : () -> index
}
func.func @h(%n: index, %c: i1) {
  scf.if %c {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      scf.if %c {
        "test.use"(%c) : (i1) -> ()
        gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %n, %gy2 = %n, %gz2 = %n)
                   threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) {
          "test.use"(%c, %tx, %tx2) : (i1, index, index) -> ()
          gpu.terminator
        }
      }
      gpu.terminator
    }
  }
  return
}

// -----

// MLIR's symbol copying looks symbols up by the leaf of the reference: the
// outer kernel's `gpu.launch_func @inner::@f` makes it copy the host function
// @f (which still holds the outer launch at that point) into @f_kernel; that
// copy's launch is outlined in turn when the pass reaches @f_kernel.
func.func @f(%n: index, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %bx, %gy2 = %n, %gz2 = %n)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) module(@inner) function(@f) {
      "test.use"(%v, %bx, %tx2) : (f32, index, index) -> ()
      gpu.terminator
    }
    gpu.terminator
  }
  return
}
