// Bug class 1: the host touches memory that in-flight GPU work writes (or
// writes memory it reads). In flight: issued on this path and not completed by
// a blocking gpu.wait on a token that depends on it, or by a synchronous op.
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s
// The warning as printed: at the host op, with a note at the GPU op.
// RUN: xgpu-opt -p gpu-check-async --split-input-file %s 2>&1 >/dev/null | filecheck %s --check-prefix=PRINTED
// PRINTED: gpu-check-async-host.mlir:[[# @LINE + 24]]:10: warning: host reads %host while gpu.memcpy (line [[# @LINE + 22]]) may still write it: wait for %347 first
// PRINTED-NEXT: {{^}}    %x = memref.load %host[%c0] : memref<?xf32>
// PRINTED-NEXT: {{^         \^$}}
// PRINTED-NEXT: gpu-check-async-host.mlir:[[# @LINE + 19]]:12: note: the gpu.memcpy is here

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @rw(%b: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %b[%c0] : memref<?xf32>
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @read_before_wait(%host: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %339 = gpu.wait async
    %dev, %340 = gpu.alloc async [%339] (%n) : memref<?xf32>
    %341 = gpu.memcpy async [%340] %dev, %host : memref<?xf32>, memref<?xf32>
    %343 = gpu.launch_func async [%341] @k::@rw blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>)
    // expected-note @below {{the gpu.memcpy is here}}
    %347 = gpu.memcpy async [%343] %host, %dev : memref<?xf32>, memref<?xf32>
    // expected-warning @below {{host reads %host while gpu.memcpy (line 29) may still write it: wait for %347 first}}
    %x = memref.load %host[%c0] : memref<?xf32>
    gpu.wait [%347]
    return
  }
}

// -----

// A host write to memory an in-flight copy reads; a call taking the buffer.

func.func private @use(memref<?xf32>)

func.func @write_while_read(%host: memref<?xf32>, %dev: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below 2 {{the gpu.memcpy is here}}
  %t1 = gpu.memcpy async [%t0] %dev, %host : memref<?xf32>, memref<?xf32>
  // Reading the source of a copy is fine.
  %r = memref.load %host[%c0] : memref<?xf32>
  // expected-warning @below {{host writes %host while gpu.memcpy (line 47) may still read it: wait for %t1 first}}
  memref.store %v, %host[%c0] : memref<?xf32>
  // expected-warning @below {{the call to @use may read and write %host while gpu.memcpy (line 47) may still read it: wait for %t1 first}}
  func.call @use(%host) : (memref<?xf32>) -> ()
  gpu.wait [%t1]
  memref.store %v, %host[%c0] : memref<?xf32>
  return
}

// -----

// A synchronous gpu op is a host access too; it completes its own dependencies.

func.func @sync_op(%host: memref<?xf32>, %dev: memref<?xf32>, %other: memref<?xf32>, %v: f32) {
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memset is here}}
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  %t2 = gpu.memset async [%t0] %other, %v : memref<?xf32>, f32
  // expected-warning @below {{gpu.memcpy (synchronous) reads %dev while gpu.memset (line 66) may still write it: wait for %t1 first}}
  gpu.memcpy %host, %dev : memref<?xf32>, memref<?xf32>
  // Completed by its dependency list: no warning.
  gpu.memcpy [%t2] %host, %other : memref<?xf32>, memref<?xf32>
  gpu.wait [%t1]
  return
}

// -----

// Returning a buffer that in-flight work writes, without a token covering it.

func.func @return_buffer(%dev: memref<?xf32>, %v: f32) -> memref<?xf32> {
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memset is here}}
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  // expected-warning @below {{the function returns %dev while gpu.memset (line 83) may still write it: wait for %t1 first, or return a token that depends on it}}
  return %dev : memref<?xf32>
}

func.func @return_buffer_and_token(%dev: memref<?xf32>, %v: f32) -> (memref<?xf32>, !gpu.async.token) {
  %t0 = gpu.wait async
  %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
  return %dev, %t1 : memref<?xf32>, !gpu.async.token
}

// -----

// Views alias their source: a store through a cast of the buffer conflicts.

func.func @through_views(%host: memref<?xf32>, %dev: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memcpy is here}}
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
  %sub = memref.subview %host[1] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1], offset: 1>>
  %cast = "memref.cast"(%sub) : (memref<2xf32, strided<[1], offset: 1>>) -> memref<?xf32, strided<[1], offset: 1>>
  // expected-warning @below {{host reads %cast while gpu.memcpy (line 102) may still write it: wait for %t1 first}}
  %x = memref.load %cast[%c0] : memref<?xf32, strided<[1], offset: 1>>
  gpu.wait [%t1]
  return
}

// -----

// host_shared and host-registered memory is shared by host and device.

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @write(%b: memref<?xf32>, %v: f32) kernel {
      %c0 = arith.constant 0 : index
      memref.store %v, %b[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @shared(%host: memref<?xf32>, %n: index, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] host_shared (%n) : memref<?xf32>
    // expected-note @below {{the gpu.launch_func is here}}
    %t2 = gpu.launch_func async [%t1] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %v : f32)
    // expected-warning @below {{host reads %m while gpu.launch_func (line 129) may still write it: wait for %t2 first}}
    %x = memref.load %m[%c0] : memref<?xf32>
    %u = "memref.cast"(%host) : (memref<?xf32>) -> memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    // expected-note @below 2 {{the gpu.launch_func is here}}
    %t3 = gpu.launch_func async [%t0] @k::@write blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%host : memref<?xf32>, %v : f32)
    // expected-warning @below {{host writes %host while gpu.launch_func (line 135) may still write it: wait for %t3 first}}
    memref.store %v, %host[%c0] : memref<?xf32>
    // expected-warning @below {{gpu.host_unregister unregisters %u while gpu.launch_func (line 135) may still write it: wait for %t3 first}}
    gpu.host_unregister %u : memref<*xf32>
    gpu.wait [%t2, %t3]
    return
  }
}

// -----

// The work behind a token returned by a call may read and write the buffers
// passed to the call: the host waits for the token before reading them.

func.func private @start(memref<?xf32>) -> !gpu.async.token

func.func @call_token(%host: memref<?xf32>, %other: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @below {{the func.call is here}}
  %t = func.call @start(%host) : (memref<?xf32>) -> !gpu.async.token
  // expected-warning @below {{host reads %host while func.call (line 155) may still write it: wait for %t first}}
  %x = memref.load %host[%c0] : memref<?xf32>
  %y = memref.load %other[%c0] : memref<?xf32>
  gpu.wait [%t]
  %z = memref.load %host[%c0] : memref<?xf32>
  return
}
