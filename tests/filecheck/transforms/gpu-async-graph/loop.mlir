// Loops are drawn once: a cluster with the loop head on the spine, a back
// edge from the end of the body to the head, and a token carried by the loop
// coming back along a back edge. scf.if branches are clusters too; the
// if's result stands for what either branch yields.
// RUN: xgpu-opt %s -p gpu-async-graph -o /dev/null 2>&1 | filecheck %s

// CHECK: [[ENTRY:n[0-9]+]] [{{.*}}class="xgpu-entry", label="@loop\nentry"
// CHECK: [[T0:n[0-9]+]] [{{.*}}class="xgpu-no-work", label="%t0 = gpu.wait async\nstands for no work\nline 41"
// CHECK: [[IF:n[0-9]+]] [{{.*}}class="xgpu-branch", label="scf.if\nline 46"
// CHECK: [[W:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%u]: the host blocks\nline 52"
// CHECK: subgraph cluster_1 {
// CHECK-NEXT: graph [label="scf.for (line 42)"
// CHECK-NEXT: [[HEAD:n[0-9]+]] [{{.*}}class="xgpu-loop", label="scf.for %i = %c0 to %c4 step %c1\nhost loop · line 42"
// CHECK-NEXT: [[BODY:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@fill\n%next · line 43"
// CHECK: subgraph cluster_2 {
// CHECK-NEXT: graph [label="scf.if then"
// CHECK-NEXT: [[THEN:n[0-9]+]] [{{.*}}class="xgpu-gpu", label="gpu.launch_func @k::@fill\n%x · line 47"
// CHECK: [[ENTRY]] -> [[HEAD]] [{{.*}}class="xgpu-order"
// CHECK: [[T0]] -> [[BODY]] [{{.*}}class="xgpu-token", {{.*}}label="%dep"
// CHECK: [[BODY]] -> [[BODY]] [{{.*}}class="xgpu-back", {{.*}}label="%dep (next iteration)"
// CHECK: [[HEAD]] -> [[BODY]] [{{.*}}class="xgpu-issue"
// CHECK: [[HEAD]] -> [[HEAD]] [{{.*}}class="xgpu-back", {{.*}}label="next iteration"
// CHECK: [[HEAD]] -> [[IF]] [{{.*}}class="xgpu-order"
// After the loop %t is what the body yields, or %t0 when it runs no iteration.
// CHECK: [[BODY]] -> [[THEN]] [{{.*}}class="xgpu-token", {{.*}}label="%t"
// CHECK: [[T0]] -> [[THEN]] [{{.*}}class="xgpu-token", {{.*}}label="%t"
// CHECK: [[IF]] -> [[THEN]] [{{.*}}class="xgpu-issue"
// CHECK: [[THEN]] -> [[W]] [{{.*}}class="xgpu-token", {{.*}}label="%u"
// CHECK: [[BODY]] -> [[W]] [{{.*}}class="xgpu-token", {{.*}}label="%u"
// CHECK: [[IF]] -> [[W]] [{{.*}}class="xgpu-order"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @loop(%a: memref<?xf32>, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t0 = gpu.wait async
    %t = scf.for %i = %c0 to %c4 step %c1 iter_args(%dep = %t0) -> (!gpu.async.token) {
      %next = gpu.launch_func async [%dep] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
      scf.yield %next : !gpu.async.token
    }
    %u = scf.if %flag -> (!gpu.async.token) {
      %x = gpu.launch_func async [%t] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
      scf.yield %x : !gpu.async.token
    } else {
      scf.yield %t : !gpu.async.token
    }
    gpu.wait [%u]
    return
  }
}
