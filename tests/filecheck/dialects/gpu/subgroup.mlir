// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Subgroup ops: every mode, every optional element, and the printer's
// double spaces after an enum keyword slot.

func.func @shuffles(%f: f32, %n: i32, %v: vector<4xf32>) {
  %s0, %ok0 = gpu.shuffle xor %f, %n, %n : f32
  %s1, %ok1 = gpu.shuffle up %v, %n, %n : vector<4xf32>
  %s2, %ok2 = gpu.shuffle down %n, %n, %n : i32
  %s3, %ok3 = gpu.shuffle idx %f, %n, %n {tag} : f32
  return
}
// CHECK-LABEL: func.func @shuffles
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.shuffle  xor %f, %n, %n : f32
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.shuffle  up %v, %n, %n : vector<4xf32>
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.shuffle  down %n, %n, %n : i32
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.shuffle  idx %f, %n, %n {tag} : f32
// GENERIC-LABEL: sym_name = "shuffles"
// GENERIC: "gpu.shuffle"(%f, %n, %n) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// GENERIC: "gpu.shuffle"(%v, %n, %n) <{mode = #gpu<shuffle_mode up>}> : (vector<4xf32>, i32, i32) -> (vector<4xf32>, i1)
// GENERIC: "gpu.shuffle"(%n, %n, %n) <{mode = #gpu<shuffle_mode down>}> : (i32, i32, i32) -> (i32, i1)
// GENERIC: "gpu.shuffle"(%f, %n, %n) <{mode = #gpu<shuffle_mode idx>}> {tag} : (f32, i32, i32) -> (f32, i1)

func.func @rotates(%f: f32, %v: vector<2xi16>) {
  %r0, %ok0 = gpu.rotate %f, 3, 16 : f32
  %r1, %ok1 = gpu.rotate %v, 0, 1 {tag} : vector<2xi16>
  return
}
// CHECK-LABEL: func.func @rotates
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.rotate %f, 3, 16 : f32
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.rotate %v, 0, 1 {tag} : vector<2xi16>
// GENERIC-LABEL: sym_name = "rotates"
// GENERIC: "gpu.rotate"(%f) <{offset = 3 : i32, width = 16 : i32}> : (f32) -> (f32, i1)
// GENERIC: "gpu.rotate"(%v) <{offset = 0 : i32, width = 1 : i32}> {tag} : (vector<2xi16>) -> (vector<2xi16>, i1)

func.func @all_reduces(%f: f32, %n: i32) {
  %a0 = gpu.all_reduce add %f {} : (f32) -> f32
  %a1 = gpu.all_reduce maximumf %f uniform {} {tag} : (f32) -> f32
  %a2 = gpu.all_reduce %n uniform {
  ^bb0(%lhs: i32, %rhs: i32):
    %m = arith.muli %lhs, %rhs : i32
    gpu.yield %m : i32
  } : (i32) -> i32
  return
}
// CHECK-LABEL: func.func @all_reduces
// CHECK-NEXT:  %{{.*}} = gpu.all_reduce  add %f {
// CHECK-NEXT:  } : (f32) -> f32
// CHECK-NEXT:  %{{.*}} = gpu.all_reduce  maximumf %f uniform {
// CHECK-NEXT:  } {tag} : (f32) -> f32
// CHECK-NEXT:  %{{.*}} = gpu.all_reduce  %n uniform {
// CHECK-NEXT:  ^bb0(%lhs: i32, %rhs: i32):
// CHECK-NEXT:    %m = arith.muli %lhs, %rhs : i32
// CHECK-NEXT:    gpu.yield %m : i32
// CHECK-NEXT:  } : (i32) -> i32
// GENERIC-LABEL: sym_name = "all_reduces"
// GENERIC:      "gpu.all_reduce"(%f) <{op = #gpu<all_reduce_op add>}> ({
// GENERIC-NEXT: }) : (f32) -> f32
// GENERIC:      "gpu.all_reduce"(%f) <{op = #gpu<all_reduce_op maximumf>, uniform}> ({
// GENERIC-NEXT: }) {tag} : (f32) -> f32
// GENERIC:      "gpu.all_reduce"(%n) <{uniform}> ({
// GENERIC:      "gpu.yield"(%m) : (i32) -> ()
// GENERIC-NEXT: }) : (i32) -> i32

func.func @subgroup_reduces(%f: f32, %v: vector<4xi32>) {
  %r0 = gpu.subgroup_reduce add %f : (f32) -> f32
  %r1 = gpu.subgroup_reduce minnumf %f uniform : (f32) -> f32
  %r2 = gpu.subgroup_reduce xor %v cluster(size = 4) : (vector<4xi32>) -> vector<4xi32>
  %r3 = gpu.subgroup_reduce maxui %v uniform cluster(size = 8, stride = 2) {tag} : (vector<4xi32>) -> vector<4xi32>
  %r4 = gpu.subgroup_reduce mul %f cluster(size = 2, stride = 1) : (f32) -> f32
  return
}
// CHECK-LABEL: func.func @subgroup_reduces
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_reduce  add %f : (f32) -> f32
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_reduce  minnumf %f uniform : (f32) -> f32
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_reduce  xor %v cluster(size = 4) : (vector<4xi32>) -> vector<4xi32>
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_reduce  maxui %v uniform cluster(size = 8, stride = 2) {tag} : (vector<4xi32>) -> vector<4xi32>
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_reduce  mul %f cluster(size = 2) : (f32) -> f32
// GENERIC-LABEL: sym_name = "subgroup_reduces"
// GENERIC: "gpu.subgroup_reduce"(%f) <{cluster_stride = 1 : i32, op = #gpu<all_reduce_op add>}> : (f32) -> f32
// GENERIC: "gpu.subgroup_reduce"(%f) <{cluster_stride = 1 : i32, op = #gpu<all_reduce_op minnumf>, uniform}> : (f32) -> f32
// GENERIC: "gpu.subgroup_reduce"(%v) <{cluster_size = 4 : i32, cluster_stride = 1 : i32, op = #gpu<all_reduce_op xor>}> : (vector<4xi32>) -> vector<4xi32>
// GENERIC: "gpu.subgroup_reduce"(%v) <{cluster_size = 8 : i32, cluster_stride = 2 : i32, op = #gpu<all_reduce_op maxui>, uniform}> {tag} : (vector<4xi32>) -> vector<4xi32>
// GENERIC: "gpu.subgroup_reduce"(%f) <{cluster_size = 2 : i32, cluster_stride = 1 : i32, op = #gpu<all_reduce_op mul>}> : (f32) -> f32

func.func @broadcasts(%f: f32, %m: memref<4xf32>, %lane: i32) {
  %b0 = gpu.subgroup_broadcast %f, first_active_lane : f32
  %b1 = gpu.subgroup_broadcast %m, specific_lane %lane {tag} : memref<4xf32>
  return
}
// CHECK-LABEL: func.func @broadcasts
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_broadcast %f,  first_active_lane : f32
// CHECK-NEXT:  %{{.*}} = gpu.subgroup_broadcast %m,  specific_lane %lane {tag} : memref<4xf32>
// GENERIC-LABEL: sym_name = "broadcasts"
// GENERIC: "gpu.subgroup_broadcast"(%f) <{broadcast_type = #gpu<broadcast first_active_lane>}> : (f32) -> f32
// GENERIC: "gpu.subgroup_broadcast"(%m, %lane) <{broadcast_type = #gpu<broadcast specific_lane>}> {tag} : (memref<4xf32>, i32) -> memref<4xf32>

func.func @warps(%lane: index, %v: vector<4xf32>, %f: f32) {
  gpu.warp_execute_on_lane_0(%lane)[32] {
  }
  %w0 = gpu.warp_execute_on_lane_0(%lane)[32] -> (vector<4xf32>) {
    %big = arith.constant dense<1.0> : vector<128xf32>
    gpu.yield %big : vector<128xf32>
  }
  gpu.warp_execute_on_lane_0(%lane)[64] args(%v, %f : vector<4xf32>, f32) {
  ^bb0(%wide: vector<256xf32>, %same: f32):
  } {tag}
  %w1, %w2 = gpu.warp_execute_on_lane_0(%lane)[16] args(%f : f32) -> (f32, vector<1xf32>) {
  ^bb0(%x: f32):
    %c = arith.constant dense<0.0> : vector<16xf32>
    gpu.yield %x, %c : f32, vector<16xf32>
  }
  return
}
// CHECK-LABEL: func.func @warps
// CHECK-NEXT:  gpu.warp_execute_on_lane_0(%lane)[32] {
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{.*}} = gpu.warp_execute_on_lane_0(%lane)[32] -> (vector<4xf32>) {
// CHECK-NEXT:    %big = arith.constant dense<1.000000e+00> : vector<128xf32>
// CHECK-NEXT:    gpu.yield %big : vector<128xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.warp_execute_on_lane_0(%lane)[64] args(%v, %f : vector<4xf32>, f32) {
// CHECK-NEXT:  ^bb0(%wide: vector<256xf32>, %same: f32):
// CHECK-NEXT:  } {tag}
// CHECK-NEXT:  %{{.*}}, %{{.*}} = gpu.warp_execute_on_lane_0(%lane)[16] args(%f : f32) -> (f32, vector<1xf32>) {
// CHECK-NEXT:  ^bb0(%x: f32):
// CHECK-NEXT:    %c = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-NEXT:    gpu.yield %x, %c : f32, vector<16xf32>
// CHECK-NEXT:  }
// GENERIC-LABEL: sym_name = "warps"
// GENERIC:      "gpu.warp_execute_on_lane_0"(%lane) <{warp_size = 32 : i64}> ({
// GENERIC-NEXT:   "gpu.yield"() : () -> ()
// GENERIC-NEXT: }) : (index) -> ()
// GENERIC:      "gpu.warp_execute_on_lane_0"(%lane) <{warp_size = 32 : i64}> ({
// GENERIC:        "gpu.yield"(%big) : (vector<128xf32>) -> ()
// GENERIC-NEXT: }) : (index) -> vector<4xf32>
// GENERIC:      "gpu.warp_execute_on_lane_0"(%lane, %v, %f) <{warp_size = 64 : i64}> ({
// GENERIC-NEXT: ^bb0(%wide: vector<256xf32>, %same: f32):
// GENERIC-NEXT:   "gpu.yield"() : () -> ()
// GENERIC-NEXT: }) {tag} : (index, vector<4xf32>, f32) -> ()
// GENERIC:      "gpu.warp_execute_on_lane_0"(%lane, %f) <{warp_size = 16 : i64}> ({
// GENERIC:        "gpu.yield"(%x, %c) : (f32, vector<16xf32>) -> ()
// GENERIC-NEXT: }) : (index, f32) -> (f32, vector<1xf32>)
