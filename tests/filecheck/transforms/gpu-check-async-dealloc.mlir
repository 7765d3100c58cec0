// Bug class 3: gpu.dealloc of a buffer that an op not ordered before the
// dealloc uses; and uses of a buffer after (or while) it is freed.
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rw(%b: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<?xf32>
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @async_dealloc(%host: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    // expected-note @below {{the gpu.launch_func is here}}
    %t3 = gpu.launch_func async [%t2] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>)
    // The dealloc depends on the copy, not on the kernel.
    // expected-warning @below {{gpu.dealloc frees %dev while gpu.launch_func (line 20) may still write it: no token orders them; make it depend on %t3}}
    %t4 = gpu.dealloc async [%t2] %dev : memref<?xf32>
    gpu.wait [%t3, %t4]
    return
  }
}

// -----

// A synchronous dealloc waits for its dependencies only.

func.func @sync_dealloc(%host: memref<?xf32>, %n: index) {
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  // expected-note @below {{the gpu.memcpy is here}}
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  // expected-warning @below {{gpu.dealloc frees %dev while gpu.memcpy (line 37) may still read it: wait for %t2 first}}
  gpu.dealloc [%t1] %dev : memref<?xf32>
  gpu.wait [%t2]
  return
}

// -----

// An op issued after an async dealloc and not ordered after it may run while
// the buffer is freed; one ordered after it uses freed memory.

func.func @use_after_free(%host: memref<?xf32>, %host2: memref<?xf32>, %n: index) {
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  // expected-note @below 2 {{the gpu.dealloc is here}}
  %t2 = gpu.dealloc async [%t1] %dev : memref<?xf32>
  // expected-warning @below {{gpu.memcpy reads %dev while gpu.dealloc (line 53) may be freeing it: no token orders them; make it depend on %t2}}
  %t3 = gpu.memcpy async [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  // expected-warning @below {{gpu.memcpy reads %dev after gpu.dealloc (line 53) freed it}}
  %t4 = gpu.memcpy async [%t2] %host2, %dev : memref<?xf32>, memref<?xf32>
  gpu.wait [%t3, %t4]
  return
}

// -----

// A dealloc on one branch only: the use after the scf.if may see freed memory.

func.func @maybe_freed(%host: memref<?xf32>, %n: index, %c: i1) {
  %t0 = gpu.wait async
  %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  scf.if %c {
    // expected-note @below {{the gpu.dealloc is here}}
    gpu.dealloc [%t1] %dev : memref<?xf32>
  }
  // expected-warning @below {{gpu.memcpy (synchronous) reads %dev after gpu.dealloc (line 71) freed it}}
  gpu.memcpy [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  return
}

// -----

// Allocating, using and freeing in each iteration of a loop, in order, is fine.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rw(%b: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<?xf32>
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @per_iteration(%host: memref<?xf32>, %n: index, %steps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r = scf.for %i = %c0 to %steps step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
      %dev, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
      %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
      %t3 = gpu.launch_func async [%t2] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>)
      %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
      %t5 = gpu.dealloc async [%t4] %dev : memref<?xf32>
      scf.yield %t5 : !gpu.async.token
    }
    gpu.wait [%r]
    return
  }
}

// -----

// A buffer allocated before a loop and freed inside it is freed twice.

func.func @double_free(%n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dev = gpu.alloc (%n) : memref<?xf32>
  scf.for %i = %c0 to %steps step %c1 {
    // expected-warning @below {{gpu.dealloc frees %dev after an earlier run of it freed it (a previous loop iteration)}}
    gpu.dealloc %dev : memref<?xf32>
  }
  return
}
