// RUN: xgpu-opt -p gpu-async-region --split-input-file --allow-unregistered-dialect --verify-diagnostics %s
// The error as printed, with its source line, and a failing exit status.
// RUN: not xgpu-opt -p gpu-async-region --split-input-file --allow-unregistered-dialect %s 2>&1 | filecheck %s
// CHECK: gpu-async-region-invalid.mlir:[[# @LINE + 6]]:3: error: 'gpu.launch' op replace with gpu.launch_func first
// CHECK-NEXT: {{^}}  gpu.launch blocks

// gpu.launch must be outlined first (gpu-kernel-outlining).
func.func @launch(%n: index) {
  // expected-error @below {{'gpu.launch' op replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// -----

// Every function is processed: each launch is reported, async or not.
func.func @first(%n: index, %m: memref<?xf32>) {
  gpu.dealloc %m : memref<?xf32>
  // expected-error @below {{'gpu.launch' op replace with gpu.launch_func first}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}
func.func @second(%n: index) {
  %t = gpu.wait async
  // expected-error @below {{'gpu.launch' op replace with gpu.launch_func first}}
  %t2 = gpu.launch async [%t] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// -----

// As in MLIR, the current token lives on across blocks: a block that does not
// end with a terminator (here in an unregistered op's region) leaves its
// chain open, and the next gpu op takes a token it cannot see.
func.func @leak(%m: memref<?xf32>) {
  // expected-error @below {{operand #0 does not dominate this use}}
  "test.op"() ({
    // expected-note @below {{operand defined here (op in a child region)}}
    gpu.dealloc %m : memref<?xf32>
    %c = arith.constant 0 : index
  }) : () -> ()
  gpu.dealloc %m : memref<?xf32>
  return
}
