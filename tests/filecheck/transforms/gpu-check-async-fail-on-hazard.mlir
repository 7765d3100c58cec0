// fail-on-hazard (or fail_on_hazard): warnings become errors, nothing is
// printed and the exit status is 1 (for CI). Remarks stay remarks.
// RUN: xgpu-opt -p 'gpu-check-async{fail-on-hazard=true}' --verify-diagnostics %s
// RUN: not xgpu-opt -p 'gpu-check-async{fail-on-hazard=true}' %s 2>&1 | filecheck %s
// RUN: not xgpu-opt -p 'gpu-check-async{fail_on_hazard=true}' %s 2>&1 | filecheck %s
// CHECK-NOT: builtin.module
// CHECK: gpu-check-async-fail-on-hazard.mlir:[[# @LINE + 18]]:8: error: host reads %host while gpu.memcpy (line [[# @LINE + 16]]) may still write it: wait for %t1 first
// CHECK: gpu-check-async-fail-on-hazard.mlir:[[# @LINE + 15]]:9: note: the gpu.memcpy is here
// CHECK-NOT: builtin.module
// Without the option: a warning, the IR is printed, the exit status is 0.
// RUN: xgpu-opt -p gpu-check-async %s 2>&1 | filecheck %s --check-prefix=WARN
// WARN: warning: host reads %host while gpu.memcpy
// WARN: builtin.module
// Remarks alone do not fail.
// RUN: xgpu-opt -p 'gpu-check-async{fail-on-hazard=true}' %S/../../../examples/forum.mlir 2>&1 | filecheck %s --check-prefix=FORUM
// FORUM: remark: this gpu.wait async is an alias of %343
// FORUM: builtin.module

func.func @read_too_early(%host: memref<?xf32>, %dev: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  // expected-note @below {{the gpu.memcpy is here}}
  %t1 = gpu.memcpy async [%t0] %host, %dev : memref<?xf32>, memref<?xf32>
  // expected-error @below {{host reads %host while gpu.memcpy (line 23) may still write it: wait for %t1 first}}
  %x = memref.load %host[%c0] : memref<?xf32>
  gpu.wait [%t1]
  return %x : f32
}
