// scf.while: the token carried by the loop comes back along a back edge
// inside the loop, and reaches the wait after the loop along a token edge
// (not a back edge). async.execute: a cluster issued from the spine, and its
// token stands for the end of its body.
// RUN: xgpu-opt %s -p gpu-async-graph -o /dev/null 2>&1 | filecheck %s

// CHECK: [[AFTER:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%r#1]: the host blocks\nline 39"
// CHECK: [[EXEC:n[0-9]+]] [{{.*}}class="xgpu-host", label="async.execute\nline 40"
// CHECK: [[AWAIT:n[0-9]+]] [{{.*}}class="xgpu-host", label="async.await\nline 45"
// CHECK: [[HEAD:n[0-9]+]] [{{.*}}class="xgpu-loop", label="scf.while\nhost loop · line 30"
// CHECK: [[BODY:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@f\n%x · line 35"
// CHECK: graph [label="async.execute (line 40)"
// CHECK: [[INNER:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@f\n%y · line 41"
// CHECK-NEXT: [[INWAIT:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%y]: the host blocks\nline 42"
// CHECK: [[BODY]] -> [[BODY]] [{{.*}}class="xgpu-back", {{.*}}label="%u (next iteration)"
// CHECK: [[BODY]] -> [[AFTER]] [{{.*}}class="xgpu-token", {{.*}}label="%r#1"
// CHECK-NOT: [[BODY]] -> [[AFTER]] [{{.*}}class="xgpu-back"
// CHECK: [[AFTER]] -> [[EXEC]] [{{.*}}class="xgpu-issue"
// CHECK: [[INWAIT]] -> [[AWAIT]] [{{.*}}class="xgpu-token", {{.*}}label="%e"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @w(%a: memref<?xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %r:2 = scf.while (%i = %c0, %t = %t0) : (index, !gpu.async.token) -> (index, !gpu.async.token) {
      %go = arith.cmpi ult, %i, %n : index
      scf.condition(%go) %i, %t : index, !gpu.async.token
    } do {
    ^bb0(%j: index, %u: !gpu.async.token):
      %x = gpu.launch_func async [%u] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
      %k = arith.addi %j, %c1 : index
      scf.yield %k, %x : index, !gpu.async.token
    }
    gpu.wait [%r#1]
    %e = async.execute {
      %y = gpu.launch_func async @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
      gpu.wait [%y]
      async.yield
    }
    async.await %e : !async.token
    return
  }
}
