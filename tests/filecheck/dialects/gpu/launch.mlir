// RUN: xgpu-opt %s | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// CHECK-NEXT:      %i = arith.addi %bx, %sz : index
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "plain"
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({
// GENERIC-NEXT:  ^bb0(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: index, %sx: index, %sy: index, %sz: index):
// GENERIC:       "gpu.terminator"() : () -> ()
// GENERIC-NEXT:  }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> ()
func.func @plain(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %i = arith.addi %bx, %sz : index
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @async
// CHECK-NEXT:    %a = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// CHECK:         %b = gpu.launch async [%t, %a] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// CHECK:         %c = gpu.launch async blocks(
// GENERIC-LABEL: sym_name = "async"
// GENERIC:       %a = "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}>
// GENERIC:       }) {workgroup_attributions = 0 : i64} : (index, index, index, index, index, index) -> !gpu.async.token
// GENERIC:       %b = "gpu.launch"(%t, %a, %n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}>
// GENERIC:       }) {workgroup_attributions = 0 : i64} : (!gpu.async.token, !gpu.async.token, index, index, index, index, index, index) -> !gpu.async.token
func.func @async(%n: index, %t: !gpu.async.token) -> !gpu.async.token {
  %a = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  %b = gpu.launch async [%t, %a] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  %c = gpu.launch async [] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return %b : !gpu.async.token
}

// A synchronous launch keeps its dependencies (MLIR 22 cannot print them).
// CHECK-LABEL: func.func @sync_deps
// CHECK-NEXT:    gpu.launch [%t] blocks(%bx, %by, %bz) in
// GENERIC-LABEL: sym_name = "sync_deps"
// GENERIC:       "gpu.launch"(%t, %n, %n, %n, %n, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}>
func.func @sync_deps(%n: index, %t: !gpu.async.token) {
  gpu.launch [%t] blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @clusters
// CHECK-NEXT:    gpu.launch clusters(%cx, %cy, %cz) in (%csx = %m, %csy = %m, %csz = %m) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// CHECK-NEXT:      %i = arith.muli %cx, %csz : index
// GENERIC-LABEL: sym_name = "clusters"
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n, %m, %m, %m) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0>}> ({
// GENERIC-NEXT:  ^bb0(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: index, %sx: index, %sy: index, %sz: index, %cx: index, %cy: index, %cz: index, %csx: index, %csy: index, %csz: index):
func.func @clusters(%n: index, %m: index) {
  gpu.launch clusters(%cx, %cy, %cz) in (%csx = %m, %csy = %m, %csz = %m) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %i = arith.muli %cx, %csz : index
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @options
// CHECK-NEXT:    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes {
// CHECK:         gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@kernels) function(@body) {
// CHECK:         gpu.launch blocks({{.*}}) function(@only_func) {
// CHECK:         gpu.launch blocks({{.*}}) module(@m2) function(@f2) {
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {extra = 7 : i32, flag}
// GENERIC-LABEL: sym_name = "options"
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n, %bytes) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1>}>
// GENERIC:       : (index, index, index, index, index, index, i32) -> ()
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n) <{function = @body, module = @kernels, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}>
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n) <{function = @only_func, operandSegmentSizes
// GENERIC:       "gpu.launch"(%n, %n, %n, %n, %n, %n) <{function = @f2, module = @m2, operandSegmentSizes
// GENERIC:       }) {extra = 7 : i32, flag, workgroup_attributions = 0 : i64} :
func.func @options(%n: index, %bytes: i32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) module(@kernels) function(@body) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) function(@only_func) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  } {module = @m2, function = @f2, extra = 7 : i32, flag}
  return
}

// CHECK-LABEL: func.func @attributions
// CHECK-NEXT:    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>, %w2 : memref<4xi32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
// CHECK-NEXT:      %v = memref.load %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      memref.store %v, %p[%bx] : memref<1xf32, #gpu.address_space<private>>
// CHECK:         gpu.launch blocks({{.*}}) private(%p : memref<2xf32, #gpu.address_space<private>>) {
// CHECK:         gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// GENERIC-LABEL: sym_name = "attributions"
// GENERIC:       ^bb0({{.*}}, %sz: index, %w: memref<32xf32, #gpu.address_space<workgroup>>, %w2: memref<4xi32, #gpu.address_space<workgroup>>, %p: memref<1xf32, #gpu.address_space<private>>):
// GENERIC:       }) {workgroup_attributions = 2 : i64}
// GENERIC:       ^bb0({{.*}}, %sz: index, %p: memref<2xf32, #gpu.address_space<private>>):
// GENERIC:       }) {workgroup_attributions = 0 : i64}
func.func @attributions(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>, %w2 : memref<4xi32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
    %v = memref.load %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %p[%bx] : memref<1xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) private(%p : memref<2xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) workgroup() private() {
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @everything
// CHECK-NEXT:    %r = gpu.launch async [%t] clusters(%cx, %cy, %cz) in (%csx = %n, %csy = %n, %csz = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes module(@mod) function(@fun) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    } {extra}
// GENERIC-LABEL: sym_name = "everything"
// GENERIC:       %r = "gpu.launch"(%t, %n, %n, %n, %n, %n, %n, %n, %n, %n, %bytes) <{function = @fun, module = @mod, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>}>
// GENERIC:       }) {extra, workgroup_attributions = 1 : i64} : (!gpu.async.token, index, index, index, index, index, index, index, index, index, i32) -> !gpu.async.token
func.func @everything(%n: index, %bytes: i32, %t: !gpu.async.token) -> !gpu.async.token {
  %r = gpu.launch async [%t] clusters(%cx, %cy, %cz) in (%csx = %n, %csy = %n, %csz = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) dynamic_shared_memory_size %bytes module(@mod) function(@fun) workgroup(%w : memref<16xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
    gpu.terminator
  } {extra}
  return %r : !gpu.async.token
}

// CHECK-LABEL: func.func @cfg
// CHECK-NEXT:    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
// CHECK-NEXT:      cf.cond_br %c, ^bb1, ^bb2
// CHECK-NEXT:    ^bb1:
// CHECK-NEXT:      gpu.terminator
// CHECK-NEXT:    ^bb2:
// CHECK-NEXT:      cf.br ^bb1
// CHECK-NEXT:    }
func.func @cfg(%n: index, %c: i1) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    gpu.terminator
  ^bb2:
    cf.br ^bb1
  }
  return
}
