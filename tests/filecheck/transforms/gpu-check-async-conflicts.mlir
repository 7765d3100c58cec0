// Bug class 2: two async gpu ops that conflict (write/write or read/write on
// the same buffer, through views too) with no dependency path between them.
// Kernel effects come from the gpu.func body: @fill only stores to %out, @sum
// only loads from %in; a kernel that passes a buffer to a call reads and writes it.
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%out: memref<?xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @sum(%in: memref<?xf32>, %acc: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.thread_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %s = memref.load %acc[%c0] : memref<1xf32>
      %r = arith.addf %s, %x : f32
      memref.store %r, %acc[%c0] : memref<1xf32>
      gpu.return
    }
  }
  func.func @races(%a: memref<?xf32>, %acc: memref<1xf32>, %acc2: memref<1xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    // expected-note @below {{the gpu.launch_func is here}}
    %t1 = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %v : f32)
    // Read/write: @sum reads %a, which @fill writes; it only depends on %t0.
    // expected-warning @below {{gpu.launch_func reads %a while gpu.launch_func (line 28) may still write it: no token orders them; make it depend on %t1}}
    // expected-note @below {{the gpu.launch_func is here}}
    %t2 = gpu.launch_func async [%t0] @k::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %acc : memref<1xf32>)
    // Write/write on %acc (the atomic reads and writes it).
    // expected-note @below {{the gpu.launch_func is here}}
    %t3 = gpu.launch_func async [%t1] @k::@sum blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %acc2 : memref<1xf32>)
    // expected-warning @below {{gpu.launch_func writes %a while gpu.launch_func (line 35) may still read it: no token orders them; make it depend on %t3}}
    %t4 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %v : f32)
    // expected-warning @below {{gpu.memset writes %acc while gpu.launch_func (line 32) may still write it: no token orders them; make it depend on %t2}}
    %t5 = gpu.memset async [%t1] %acc, %v : memref<1xf32>, f32
    gpu.wait [%t2, %t3, %t4, %t5]
    return
  }
}

// -----

// Through a view: the memcpy writes a subview of %dev while the memset writes %dev.

func.func @view(%dev: memref<?xf32>, %host: memref<2xf32>, %v: f32) {
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memset is here}}
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  %sub = memref.subview %dev[0] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1]>>
  // expected-warning @below {{gpu.memcpy writes %sub while gpu.memset (line 52) may still write it: no token orders them; make it depend on %t1}}
  %t2 = gpu.memcpy async [%t0] %sub, %host : memref<2xf32, strided<[1]>>, memref<2xf32>
  gpu.wait [%t1, %t2]
  return
}

// -----

// A buffer used before the async gpu.alloc that creates it has completed.

func.func @alloc(%host: memref<?xf32>, %n: index) {
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.alloc is here}}
  %dev, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
  // expected-warning @below {{gpu.memcpy writes %dev while gpu.alloc (line 67) may still be allocating it: no token orders them; make it depend on %t1}}
  %t2 = gpu.memcpy async [%t0] %dev, %host : memref<?xf32>, memref<?xf32>
  gpu.wait [%t1, %t2]
  return
}

// -----

// Only the first op of a chain that misses a dependency is reported: the ops
// after it inherit the problem, and fixing the first fixes them.

func.func @root_cause(%dev: memref<?xf32>, %host: memref<?xf32>, %v: f32) {
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memset is here}}
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  // expected-warning @below {{gpu.memset writes %dev while gpu.memset (line 82) may still write it}}
  %t2 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  %t3 = gpu.memcpy async [%t2] %host, %dev : memref<?xf32>, memref<?xf32>
  gpu.wait [%t3]
  return
}
