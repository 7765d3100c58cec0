// Valid but odd locations: the diagnostic is printed where mlir-opt prints it,
// with the source line and caret only where the location is inside the text,
// a call site's callers as `called from` notes.
// RUN: not %mlir-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not xgpu-opt %s --split-input-file 2>&1 | filecheck %s

// The largest column MLIR reads: no source line (no MemoryError either).
// CHECK: {{^}}diag-locations.mlir:[[# @LINE + 2]]:4294967295: error: 'gpu.thread_id' op requires attribute 'dimension'
// CHECK-NEXT: note: see current operation
"gpu.thread_id"() : () -> index loc("diag-locations.mlir":10:4294967295)

// -----

// A line past the end of the file, and line 0.
// CHECK: {{^}}diag-locations.mlir:9999:0: error: 'gpu.thread_id' op
// CHECK-NEXT: note: see current operation
"gpu.thread_id"() : () -> index loc("diag-locations.mlir":9999)

// -----

// CHECK: {{^}}nowhere.mlir:0:0: error: 'gpu.thread_id' op
// CHECK-NEXT: note: see current operation
"gpu.thread_id"() : () -> index loc("nowhere.mlir":0:0)

// -----

// A range shows its start; a fused location its first file location; a
// name its child.
// CHECK: {{^}}a.mlir:3:4: error: 'gpu.thread_id' op
"gpu.thread_id"() : () -> index loc(fused<"meta">["name", "n"("a.mlir":3:4 to 5:6), "b.mlir":1:1])

// -----

// CHECK: {{^}}q.mlir:3:4: error: 'gpu.thread_id' op
// CHECK-NEXT: {{^}}r.mlir:5:6: note: called from
// CHECK-NEXT: {{^}}s.mlir:7:8: note: called from
"gpu.thread_id"() : () -> index loc(callsite("q.mlir":3:4 at callsite("r.mlir":5:6 at "s.mlir":7:8)))
