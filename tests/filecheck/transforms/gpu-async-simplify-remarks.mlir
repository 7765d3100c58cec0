// RUN: xgpu-opt -p 'gpu-async-simplify{remarks=true}' --split-input-file --verify-diagnostics %s
// Without the option the pass says nothing.
// RUN: xgpu-opt -p gpu-async-simplify --split-input-file %s 2>&1 | filecheck %s --check-prefix=QUIET
// QUIET-NOT: remark
// The remarks as printed, at the op they concern.
// RUN: xgpu-opt -p 'gpu-async-simplify{remarks=true}' --split-input-file %s 2>&1 >/dev/null | filecheck %s --check-prefix=PRINTED
// PRINTED: gpu-async-simplify-remarks.mlir:[[# @LINE + 6]]:8: remark: duplicate dependency %a removed
// PRINTED-NEXT: %b = gpu.memcpy async [%a, %a] %m, %m : memref<4xf32>, memref<4xf32>
// PRINTED-NEXT: {{^       \^$}}

func.func @reduce(%a: !gpu.async.token, %t: !gpu.async.token, %m: memref<4xf32>, %v: f32) -> !gpu.async.token {
  // expected-remark @below {{duplicate dependency %a removed}}
  %b = gpu.memcpy async [%a, %a] %m, %m : memref<4xf32>, memref<4xf32>
  // expected-remark @below {{dependency %a removed: implied by %b}}
  %c = gpu.memset async [%a, %b, %t] %m, %v : memref<4xf32>, f32
  return %c : !gpu.async.token
}

// -----

func.func @joins(%a: !gpu.async.token, %b: !gpu.async.token, %m: memref<4xf32>, %v: f32) -> !gpu.async.token {
  // expected-remark @below {{gpu.wait async removed: its token is unused}}
  %j = gpu.wait async [%a, %b]
  %x = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  %y = gpu.memset async [%b] %m, %v : memref<4xf32>, f32
  // expected-remark @below {{dependency %j removed: implied by %x, %y}}
  %z = gpu.memset async [%j, %x, %y] %m, %v : memref<4xf32>, f32
  return %z : !gpu.async.token
}

// -----

func.func @fold_and_merge(%a: !gpu.async.token, %b: !gpu.async.token, %c: !gpu.async.token) {
  %j = gpu.wait async [%b, %c]
  // expected-remark @below {{gpu.wait merged into the gpu.wait at line 38}}
  gpu.wait [%a]
  // expected-remark @below {{folded the gpu.wait async %j (line 34) into this gpu.wait}}
  gpu.wait [%j]
  return
}

// -----

func.func @completed(%a: !gpu.async.token, %m: memref<4xf32>, %v: f32) {
  %b = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  gpu.wait [%b]
  // expected-remark @below {{dependency %a removed: already completed by the gpu.wait at line 46}}
  %x = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  gpu.memcpy [%x] %m, %m : memref<4xf32>, memref<4xf32>
  // expected-remark @below {{dependency %x removed: already completed by the gpu.memcpy at line 49}}
  // expected-remark @below {{gpu.wait removed: it has nothing left to wait for}}
  gpu.wait [%x]
  return
}

// -----

func.func @no_work(%v: f32) {
  %s = gpu.wait async
  %m, %x = gpu.alloc async [%s] () : memref<4xf32>
  // expected-remark @below {{dependency %s removed: it stands for no work (a gpu.wait async without dependencies)}}
  %y = gpu.memset async [%s, %x] %m, %v : memref<4xf32>, f32
  // expected-remark @below {{gpu.wait removed: it has nothing left to wait for}}
  gpu.wait
  gpu.wait [%y]
  return
}

// -----

// Nothing to say about a program without redundancy.
func.func @clean(%a: !gpu.async.token, %m: memref<4xf32>, %v: f32) {
  %b = gpu.memset async [%a] %m, %v : memref<4xf32>, f32
  gpu.wait [%b]
  return
}
