// Dependencies gpu-async-simplify would remove are dashed, with its reason
// in the tooltip; a blocking wait it would merge into the next is dashed and
// says so; the next one carries gpu-check-async's remark.
// RUN: xgpu-opt %s -p gpu-async-graph -o /dev/null 2>&1 | filecheck %s
// The same removals as the pass's own remarks.
// RUN: xgpu-opt %s -p 'gpu-async-simplify{remarks=true}' -o /dev/null 2>&1 | filecheck %s --check-prefix=PASS

// CHECK: [[T1:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t1 · line 32"
// CHECK: [[T2:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t2 · line 33"
// CHECK: [[T3:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t3 · line 34"
// CHECK: [[W1:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%t3]: the host blocks\nline 35"
// CHECK: [[T4:n[0-9]+]] [{{.*}}label="gpu.launch_func @k::@fill\n%t4 · line 36"
// CHECK: [[W2:n[0-9]+]] [{{.*}}class="xgpu-wait xgpu-removable", label="gpu.wait [%t4]: the host blocks\nline 37\nremovable: gpu.wait merged into the gpu.wait at\nline 38", {{.*}}style="filled,dashed"
// CHECK: [[W3:n[0-9]+]] [{{.*}}class="xgpu-wait", label="gpu.wait [%t4]: the host blocks\nline 38\nnote: this gpu.wait synchronizes nothing: %t4\nhas already completed"
// CHECK: [[T1]] -> [[T2]] [{{.*}}class="xgpu-token", color="black", label="%t1"
// CHECK: [[T2]] -> [[T3]] [{{.*}}class="xgpu-token", color="black", label="%t2"
// CHECK: [[T1]] -> [[T3]] [{{.*}}class="xgpu-token xgpu-removable", {{.*}}style="dashed", label="%t1 (removable)", tooltip="gpu-async-simplify: dependency %t1 removed: implied by %t2"
// CHECK: [[T3]] -> [[T4]] [{{.*}}class="xgpu-token xgpu-removable", {{.*}}label="%t3 (removable)", tooltip="gpu-async-simplify: dependency %t3 removed: already completed by the gpu.wait at line 35"
// CHECK: [[T4]] -> [[W2]] [{{.*}}class="xgpu-token", color="black", label="%t4"

// PASS-DAG: 34:{{.*}}remark: dependency %t1 removed: implied by %t2
// PASS-DAG: 36:{{.*}}remark: dependency %t3 removed: already completed by the gpu.wait at line 35
// PASS-DAG: 37:{{.*}}remark: gpu.wait merged into the gpu.wait at line 38
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @removable(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %t1 = gpu.launch_func async @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %t2 = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    %t3 = gpu.launch_func async [%t2, %t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%t3]
    %t4 = gpu.launch_func async [%t3] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    gpu.wait [%t4]
    gpu.wait [%t4]
    return
  }
}
