// A fork and a join: two launches wait for the token argument %in, a
// gpu.wait async joins them (a dotted node that waits for nothing), a third
// launch waits for the join; the host blocks, then reads %a.
// RUN: xgpu-opt %s -p gpu-async-graph -o /dev/null 2>&1 | filecheck %s

// CHECK: [[ENTRY:n[0-9]+]] [{{.*}}class="xgpu-entry", label="@fork_join\nentry"
// CHECK: [[IN:n[0-9]+]] [{{.*}}class="xgpu-argument", label="%in: token argument\nwork issued before the call"
// CHECK: [[A:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@fill\n%ta · line 34"
// CHECK: [[B:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@fill\n%tb · line 35"
// CHECK: [[C:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@fill\n%tc · line 37"
// CHECK: [[J:n[0-9]+]] [{{.*}}class="xgpu-join", label="%j = gpu.wait async [%ta, %tb]\njoin: waits for nothing\nline 36", shape="diamond", style="dotted"
// CHECK: [[W:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%tc]: the host blocks
// CHECK: [[LOAD:n[0-9]+]] [{{.*}}class="xgpu-host", label="memref.load %a, %c0\nline 40"
// CHECK: [[IN]] -> [[A]] [{{.*}}class="xgpu-token", {{.*}}label="%in"
// CHECK: [[ENTRY]] -> [[A]] [{{.*}}class="xgpu-issue"
// CHECK: [[IN]] -> [[B]] [{{.*}}class="xgpu-token", {{.*}}label="%in"
// CHECK: [[A]] -> [[J]] [{{.*}}class="xgpu-token", {{.*}}label="%ta"
// CHECK: [[B]] -> [[J]] [{{.*}}class="xgpu-token", {{.*}}label="%tb"
// CHECK: [[J]] -> [[C]] [{{.*}}class="xgpu-token", {{.*}}label="%j"
// The third launch starts after the entry because the ones it joins do: no
// issue edge of its own.
// CHECK-NOT: [[ENTRY]] -> [[C]]
// CHECK: [[C]] -> [[W]] [{{.*}}class="xgpu-token", {{.*}}label="%tc"
// CHECK: [[ENTRY]] -> [[W]] [{{.*}}class="xgpu-order"
// CHECK: [[W]] -> [[LOAD]] [{{.*}}class="xgpu-order"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @fork_join(%a: memref<?xf32>, %b: memref<?xf32>, %in: !gpu.async.token) {
    %c1 = arith.constant 1 : index
    %ta = gpu.launch_func async [%in] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %tb = gpu.launch_func async [%in] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>)
    %j = gpu.wait async [%ta, %tb]
    %tc = gpu.launch_func async [%j] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%tc]
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<?xf32>
    return
  }
}
