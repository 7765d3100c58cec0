// The claims of docs/async-tokens.md on examples/forum.mlir and
// examples/forum_missing_dep.mlir.

// canonicalize forwards the alias %356 = gpu.wait async [%343]: @square depends
// on the @shift token directly, and the empty host loop goes.
// RUN: xgpu-opt -p canonicalize %S/../../../examples/forum.mlir | filecheck %s --check-prefix=CANON
// CANON: func.func @main
// CANON-NOT: gpu.wait async [
// CANON: %[[SHIFT:[0-9]+]] = gpu.launch_func async [%{{[0-9]+}}] @module_1::@shift
// CANON-NEXT: = gpu.launch_func async [%[[SHIFT]]] @module_2::@square
// CANON-NOT: gpu.wait async [
// CANON: gpu.wait [%{{[0-9]+}}]

// gpu-check-async explains it with a remark, and finds no hazard.
// RUN: xgpu-opt -p gpu-check-async %S/../../../examples/forum.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=FORUM
// FORUM-NOT: {{warning|error}}
// FORUM: forum.mlir:70:12: remark: this gpu.wait async is an alias of %343; it synchronizes nothing
// FORUM-NEXT: {{^}}    %356 = gpu.wait async [%343]
// FORUM-NOT: {{warning|error|remark}}

// The variant with a missing dependency gets one warning, at @square, with a
// note at @shift; the consequences (@negate, the copy back, the unawaited
// @module_1 kernels) are not reported separately.
// RUN: xgpu-opt -p gpu-check-async %S/../../../examples/forum_missing_dep.mlir 2>&1 >/dev/null | filecheck %s --check-prefix=MISSING
// MISSING: forum_missing_dep.mlir:67:12: warning: gpu.launch_func reads and writes %dev while gpu.launch_func (line 64) may still write it: no token orders them; make it depend on %343
// MISSING-NEXT: {{^}}    %345 = gpu.launch_func async [%341] @module_2::@square
// MISSING-NEXT: {{^           \^$}}
// MISSING-NEXT: forum_missing_dep.mlir:64:12: note: the gpu.launch_func is here
// MISSING-NEXT: {{^}}    %343 = gpu.launch_func async [%342] @module_1::@shift
// MISSING-NEXT: {{^           \^$}}
// MISSING-NOT: {{warning|error|remark}}

// Depending on %343 fixes it: nothing is reported.
// RUN: sed 's/async \[%341\] @module_2::@square/async [%343] @module_2::@square/' %S/../../../examples/forum_missing_dep.mlir | xgpu-opt -p gpu-check-async 2>&1 >/dev/null | filecheck %s --check-prefix=FIXED --allow-empty
// FIXED-NOT: {{.}}

// fail-on-hazard: the warning is an error and the exit status is 1.
// RUN: not xgpu-opt -p 'gpu-check-async{fail-on-hazard=true}' %S/../../../examples/forum_missing_dep.mlir 2>&1 | filecheck %s --check-prefix=FAIL
// FAIL: forum_missing_dep.mlir:67:12: error: gpu.launch_func reads and writes %dev
