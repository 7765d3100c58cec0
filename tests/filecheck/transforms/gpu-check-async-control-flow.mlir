// Control flow: loops run zero or more times (any bounds), tokens are carried
// across iterations, both branches of an scf.if / cf.cond_br are possible.
// RUN: xgpu-opt -p gpu-check-async --verify-diagnostics --split-input-file %s

// A wait on one branch only does not make the host read safe.
func.func @wait_on_one_branch(%host: memref<?xf32>, %dev: memref<?xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memcpy is here}}
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
  scf.if %c {
    gpu.wait [%t1]
  }
  // expected-warning @below {{host reads %host while gpu.memcpy (line 10) may still write it: wait for %t1 first}}
  %x = memref.load %host[%c0] : memref<?xf32>
  gpu.wait [%t1]
  return
}

// -----

// The same with cf branches, and a loop made of blocks.
func.func @cf(%host: memref<?xf32>, %dev: memref<?xf32>, %c: i1, %v: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  cf.br ^loop(%t0 : !gpu.async.token)
^loop(%t: !gpu.async.token):
  %t1 = gpu.memset async [%t] %dev, %v : memref<?xf32>, f32
  // expected-note @below {{the gpu.memcpy is here}}
  %t2 = gpu.memcpy async [%t1] %host, %dev : memref<?xf32>, memref<?xf32>
  cf.cond_br %c, ^loop(%t2 : !gpu.async.token), ^exit
^exit:
  cf.cond_br %c, ^wait, ^read
^wait:
  gpu.wait [%t2]
  cf.br ^read
^read:
  // expected-warning @below {{host reads %host while gpu.memcpy (line 30) may still write it: wait for %t2 first}}
  %x = memref.load %host[%c0] : memref<?xf32>
  gpu.wait [%t2]
  return
}

// -----

// A loop whose iterations do not depend on each other, with dynamic bounds:
// each run of the memset may overlap the previous one.
func.func @independent_iterations(%dev: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    // expected-warning @below {{gpu.memset writes %dev while an earlier run of it (a previous loop iteration) may still write it: no token orders them}}
    %t1 = gpu.memset async [%t0] %dev, %v : memref<?xf32>, f32
    %j = gpu.wait async [%t, %t1]
    scf.yield %j : !gpu.async.token
  }
  gpu.wait [%r]
  return
}

// -----

// A token carried from the previous iteration orders the copies, but the host
// read at the top of the body runs while the previous iteration's copy may write.
func.func @carried(%host: memref<?xf32>, %dev: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
    // expected-warning @below {{host reads %host while gpu.memcpy (line 74) may still write it: wait for %t1 first}}
    %x = memref.load %host[%c0] : memref<?xf32>
    // expected-note @below {{the gpu.memcpy is here}}
    %t1 = gpu.memcpy async [%t] %host, %dev : memref<?xf32>, memref<?xf32>
    scf.yield %t1 : !gpu.async.token
  }
  gpu.wait [%r]
  return
}

// -----

// scf.while: the after region may run any number of times; the before region
// runs again after it.
func.func @while(%host: memref<?xf32>, %dev: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %r = scf.while (%t = %t0) : (!gpu.async.token) -> !gpu.async.token {
    // expected-warning @below {{host reads %host while gpu.memcpy (line 96) may still write it: wait for %t2 first}}
    %x = memref.load %host[%c0] : memref<?xf32>
    %c = "test.cond"() : () -> i1
    scf.condition(%c) %t : !gpu.async.token
  } do {
  ^bb0(%t: !gpu.async.token):
    // expected-note @below {{the gpu.memcpy is here}}
    %t2 = gpu.memcpy async [%t] %host, %dev : memref<?xf32>, memref<?xf32>
    scf.yield %t2 : !gpu.async.token
  }
  gpu.wait [%r]
  %y = memref.load %host[%c0] : memref<?xf32>
  return
}

// -----

// Regions run once: scf.execute_region and scf.index_switch.
func.func @regions(%host: memref<?xf32>, %dev: memref<?xf32>, %k: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %a = scf.execute_region -> !gpu.async.token {
    %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
    scf.yield %t1 : !gpu.async.token
  }
  %b = scf.index_switch %k -> !gpu.async.token
  case 0 {
    gpu.wait [%a]
    %t2 = gpu.wait async
    scf.yield %t2 : !gpu.async.token
  }
  default {
    scf.yield %a : !gpu.async.token
  }
  gpu.wait [%b]
  %x = memref.load %host[%c0] : memref<?xf32>
  return
}
