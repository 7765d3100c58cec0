// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// Subgroup ops checked against mlir-opt 22: every op and every optional
// syntax element. (A warp_execute_on_lane_0 with several results is left to
// dialects/gpu/subgroup.mlir: mlir-opt prints its results as `%0:2`, xDSL as
// `%0, %1`, which the byte-for-byte gpu-line comparison does not normalize.)

func.func @shuffle(%f: f32, %n: i32, %v: vector<4xf32>, %i: i16) {
  %s0, %ok0 = gpu.shuffle xor %f, %n, %n : f32
  %s1, %ok1 = gpu.shuffle up %v, %n, %n : vector<4xf32>
  %s2, %ok2 = gpu.shuffle down %i, %n, %n : i16
  %s3, %ok3 = gpu.shuffle idx %f, %n, %n {tag = 1 : i32} : f32
  return
}

// -----

func.func @rotate(%f: f32, %v: vector<2xi8>) {
  %r0, %ok0 = gpu.rotate %f, 3, 16 : f32
  %r1, %ok1 = gpu.rotate %v, 0, 1 {tag} : vector<2xi8>
  return
}

// -----

func.func @all_reduce(%f: f32, %n: i32, %h: bf16) {
  %a0 = gpu.all_reduce add %f {} : (f32) -> f32
  %a1 = gpu.all_reduce minimumf %f uniform {} {tag} : (f32) -> f32
  %a2 = gpu.all_reduce xor %n {} : (i32) -> i32
  %a3 = gpu.all_reduce mul %h uniform {} : (bf16) -> bf16
  %a4 = gpu.all_reduce %n {
  ^bb0(%lhs: i32, %rhs: i32):
    %m = arith.maxsi %lhs, %rhs : i32
    gpu.yield %m : i32
  } : (i32) -> i32
  %a5 = gpu.all_reduce %f uniform {
  ^bb0(%lhs: f32, %rhs: f32):
    %c = arith.cmpf olt, %lhs, %rhs : f32
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    gpu.yield %lhs : f32
  ^bb2:
    gpu.yield %rhs : f32
  } : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce(%f: f32, %v: vector<4xi32>, %h: vector<2xf16>) {
  %r0 = gpu.subgroup_reduce add %f : (f32) -> f32
  %r1 = gpu.subgroup_reduce maxnumf %f uniform : (f32) -> f32
  %r2 = gpu.subgroup_reduce and %v cluster(size = 4) : (vector<4xi32>) -> vector<4xi32>
  %r3 = gpu.subgroup_reduce minui %v uniform cluster(size = 16, stride = 2) {tag} : (vector<4xi32>) -> vector<4xi32>
  %r4 = gpu.subgroup_reduce mul %h cluster(size = 2, stride = 1) : (vector<2xf16>) -> vector<2xf16>
  %r5 = "gpu.subgroup_reduce"(%f) <{op = #gpu<all_reduce_op add>}> : (f32) -> f32
  return
}

// -----

func.func @subgroup_broadcast(%f: f32, %t: tensor<4xf32>, %lane: i32) {
  %b0 = gpu.subgroup_broadcast %f, first_active_lane : f32
  %b1 = gpu.subgroup_broadcast %t, specific_lane %lane {tag} : tensor<4xf32>
  return
}

// -----

func.func @warp_execute_on_lane_0(%lane: index, %v: vector<4xf32>, %f: f32) {
  gpu.warp_execute_on_lane_0(%lane)[32] {
  }
  %w0 = gpu.warp_execute_on_lane_0(%lane)[32] -> (vector<4xf32>) {
    %big = arith.constant dense<1.0> : vector<128xf32>
    gpu.yield %big : vector<128xf32>
  }
  gpu.warp_execute_on_lane_0(%lane)[64] args(%v, %f : vector<4xf32>, f32) {
  ^bb0(%wide: vector<256xf32>, %same: f32):
    %x = arith.addf %same, %same : f32
  } {tag}
  %w1 = gpu.warp_execute_on_lane_0(%lane)[16] args(%f : f32) -> (vector<2x1xf32>) {
  ^bb0(%x: f32):
    %c = arith.constant dense<0.0> : vector<8x4xf32>
    gpu.yield %c : vector<8x4xf32>
  }
  %w2 = gpu.warp_execute_on_lane_0(%lane)[32] -> f32 {
    gpu.yield %f : f32
  }
  return
}

// -----

// Several results of one op print as one group (`%0:2`, used as `%0#1`).
func.func @warp_two_results(%lane: index) -> vector<1xf32> {
  %r:2 = gpu.warp_execute_on_lane_0(%lane)[32] -> (vector<1xf32>, vector<1xf32>) {
    %c = arith.constant dense<1.0> : vector<32xf32>
    gpu.yield %c, %c : vector<32xf32>, vector<32xf32>
  }
  return %r#1 : vector<1xf32>
}
