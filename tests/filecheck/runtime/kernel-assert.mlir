// cf.assert in a kernel: each failing work-item prints the line MLIR's GPU
// tests check (file:line: function: block, thread, message) and stops; the
// run ends with an error at the op naming the first failing work-item, the
// same on OpenCL and on the simulator (both engines).
// RUN: not xgpu-run %s > %t.out 2> %t.err
// RUN: filecheck %s --check-prefix=OUT < %t.out
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: not xgpu-run --backend sim %s > %t.sim.out 2> %t.sim.err
// RUN: filecheck %s --check-prefix=OUT < %t.sim.out
// RUN: filecheck %s --check-prefix=ERR < %t.sim.err
// RUN: env XGPU_SIM_ENGINE=workitem not xgpu-run --backend sim %s > %t.wi.out 2> %t.wi.err
// RUN: filecheck %s --check-prefix=OUT < %t.wi.out
// RUN: filecheck %s --check-prefix=ERR < %t.wi.err
// RUN: not xgpu-run --unchecked %s 2>&1 | filecheck %s --check-prefix=UNCHECKED
//
// OUT-DAG: lane 0 is past the check that holds
// OUT-DAG: lane 1 is past the check that holds
// OUT-DAG: lane 2 is past the check that holds
// OUT-DAG: lane 3 is past the check that holds
// OUT-DAG: {{.*}}kernel-assert.mlir:[[# @LINE + 25]]: (unknown): block: [0,0,0], thread: [1,0,0] Assertion `odd lanes stop: 100% "sure"` failed.
// OUT-DAG: {{.*}}kernel-assert.mlir:[[# @LINE + 24]]: (unknown): block: [0,0,0], thread: [3,0,0] Assertion `odd lanes stop: 100% "sure"` failed.
// OUT-DAG: lib.c:42: helper: block: [0,0,0], thread: [2,0,0] Assertion `lane 2 is named` failed.
// OUT-DAG: lane 0 went on
// OUT-NOT: lane 1 went on
// OUT-NOT: lane 3 went on
// OUT-NOT: lane 2 went on
//
// ERR: kernel-assert.mlir:[[# @LINE + 17]]:7: error: assertion failed: odd lanes stop: 100% "sure" (work-item (1, 0, 0) of block (0, 0, 0) of @k::@check)
// ERR-NEXT: cf.assert %even
// ERR-NOT: Traceback
//
// UNCHECKED: error: 'cf.assert' op in a kernel needs the checked build
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @check() kernel {
      %t = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %true = arith.constant true
      cf.assert %true, "always holds"
      gpu.printf "lane %ld is past the check that holds\n", %t : index
      %r = arith.remui %t, %c2 : index
      %c0 = arith.constant 0 : index
      %even = arith.cmpi eq, %r, %c0 : index
      cf.assert %even, "odd lanes stop: 100% \"sure\""
      %not2 = arith.cmpi ne, %t, %c2 : index
      cf.assert %not2, "lane 2 is named" loc("helper"("lib.c":42:3))
      gpu.printf "lane %ld went on\n", %t : index
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@check blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
    return
  }
}
