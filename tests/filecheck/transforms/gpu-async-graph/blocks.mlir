// Unstructured control flow: each block is a cluster with a head node, a
// branch is an edge from the end of a block to the head of its successor (a
// back edge when the successor comes earlier), and a token passed to a
// block argument comes from what each branch passes.
// RUN: xgpu-opt %s -p gpu-async-graph -o /dev/null 2>&1 | filecheck %s

// CHECK: [[ENTRY:n[0-9]+]] [{{.*}}class="xgpu-entry", label="@blocks\nentry"
// CHECK: subgraph [[BB0:cluster_[0-9]+]] {
// CHECK-NEXT: graph [label="block ^bb0"
// CHECK-NEXT: [[FIRST:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t0 · line 32"
// CHECK: graph [label="block ^bb1"
// CHECK-NEXT: [[BB1:n[0-9]+]] [{{.*}}class="xgpu-branch", label="^bb1"
// CHECK-NEXT: [[BODY:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t1 · line 35"
// CHECK: graph [label="block ^bb2"
// CHECK-NEXT: [[BB2:n[0-9]+]] [{{.*}}class="xgpu-branch", label="^bb2"
// CHECK-NEXT: [[WAIT:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%done]: the host blocks\nline 38"
// The loop's token: %t0 on entry, %t1 along the back edge.
// CHECK-DAG: [[FIRST]] -> [[BODY]] [{{.*}}class="xgpu-token", {{.*}}label="%dep"
// CHECK-DAG: [[BODY]] -> [[BODY]] [{{.*}}class="xgpu-back", {{.*}}label="%dep (next iteration)"
// CHECK-DAG: [[BODY]] -> [[WAIT]] [{{.*}}class="xgpu-token", {{.*}}label="%done"
// CHECK-DAG: [[ENTRY]] -> [[BB1]] [{{.*}}class="xgpu-order"
// CHECK-DAG: [[BB1]] -> [[BB1]] [{{.*}}class="xgpu-back", {{.*}}label="back to ^bb1"
// CHECK-DAG: [[BB1]] -> [[BB2]] [{{.*}}class="xgpu-order"
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @blocks(%a: memref<?xf32>, %again: i1) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.launch_func async @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    cf.br ^bb1(%t0 : !gpu.async.token)
  ^bb1(%dep: !gpu.async.token):
    %t1 = gpu.launch_func async [%dep] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    cf.cond_br %again, ^bb1(%t1 : !gpu.async.token), ^bb2(%t1 : !gpu.async.token)
  ^bb2(%done: !gpu.async.token):
    gpu.wait [%done]
    return
  }
}
