// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @shuffle_index(%v: index, %n: i32) {
  // expected-error @+1 {{'gpu.shuffle' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'index'}}
  %s, %ok = gpu.shuffle xor %v, %n, %n : index
  return
}

// -----

func.func @shuffle_2d(%v: vector<4x4xf32>, %n: i32) {
  // expected-error @+1 {{'gpu.shuffle' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<4x4xf32>'}}
  %s, %ok = gpu.shuffle xor %v, %n, %n : vector<4x4xf32>
  return
}

// -----

func.func @shuffle_scalable(%v: vector<[4]xf32>, %n: i32) {
  // expected-error @+1 {{'gpu.shuffle' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<[4]xf32>'}}
  %s, %ok = gpu.shuffle up %v, %n, %n : vector<[4]xf32>
  return
}

// -----

func.func @shuffle_signed(%v: si32, %n: i32) {
  // expected-error @+1 {{'gpu.shuffle' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'si32'}}
  %s, %ok = gpu.shuffle down %v, %n, %n : si32
  return
}

// -----

func.func @shuffle_result_type(%v: vector<2xi32>, %n: i32) {
  // expected-error @+1 {{'gpu.shuffle' op failed to verify that all of {value, shuffleResult} have same type}}
  %s, %ok = "gpu.shuffle"(%v, %n, %n) <{mode = #gpu<shuffle_mode xor>}> : (vector<2xi32>, i32, i32) -> (vector<2xi64>, i1)
  return
}

// -----

func.func @rotate_offset_too_big(%v: f32) {
  // expected-error @+1 {{'gpu.rotate' op offset must be in the range [0, 16)}}
  %r, %ok = gpu.rotate %v, 16, 16 : f32
  return
}

// -----

func.func @rotate_negative_offset(%v: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'offset' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0}}
  %r, %ok = gpu.rotate %v, -1, 16 : f32
  return
}

// -----

func.func @rotate_width_not_power_of_two(%v: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0}}
  %r, %ok = gpu.rotate %v, 1, 12 : f32
  return
}

// -----

func.func @rotate_zero_width(%v: f32) {
  // expected-error @+1 {{'gpu.rotate' op attribute 'width' failed to satisfy constraint: 32-bit signless integer attribute whose value is a power of two > 0}}
  %r, %ok = gpu.rotate %v, 0, 0 : f32
  return
}

// -----

func.func @rotate_2d(%v: vector<2x2xf32>) {
  // expected-error @+1 {{'gpu.rotate' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<2x2xf32>'}}
  %r, %ok = gpu.rotate %v, 1, 4 : vector<2x2xf32>
  return
}

// -----

func.func @rotate_result_type(%v: f32) {
  // expected-error @+1 {{'gpu.rotate' op failed to verify that all of {value, rotateResult} have same type}}
  %r, %ok = "gpu.rotate"(%v) <{offset = 1 : i32, width = 4 : i32}> : (f32) -> (f16, i1)
  return
}

// -----

func.func @all_reduce_neither(%v: f32) {
  // expected-error @+1 {{expected either an op attribute or a non-empty body}}
  %s = gpu.all_reduce %v {} : (f32) -> f32
  return
}

// -----

func.func @all_reduce_both(%v: f32) {
  // expected-error @+1 {{expected either an op attribute or a non-empty body}}
  %s = gpu.all_reduce add %v {
  ^bb0(%a: f32, %b: f32):
    gpu.yield %a : f32
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_one_arg(%v: f32) {
  // expected-error @+1 {{expected two region arguments}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32):
    gpu.yield %a : f32
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_arg_type(%v: f32) {
  // expected-error @+1 {{incorrect region argument type}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f16):
    gpu.yield %a : f32
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_two_yielded(%v: f32) {
  // expected-error @+1 {{expected one gpu.yield operand}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f32):
    gpu.yield %a, %b : f32, f32
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_yield_type(%v: f32) {
  // expected-error @+1 {{incorrect gpu.yield type}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 1 : i32
    gpu.yield %c : i32
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_no_yield(%v: f32) {
  // expected-error @+1 {{expected gpu.yield op in region}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f32):
    cf.br ^bb1
  ^bb1:
    cf.br ^bb1
  } : (f32) -> f32
  return
}

// -----

func.func @all_reduce_and_on_float(%v: f32) {
  // expected-error @+1 {{`and` reduction operation is not compatible with type 'f32'}}
  %s = gpu.all_reduce and %v {} : (f32) -> f32
  return
}

// -----

func.func @all_reduce_maxnumf_on_int(%v: i32) {
  // expected-error @+1 {{`maxnumf` reduction operation is not compatible with type 'i32'}}
  %s = gpu.all_reduce maxnumf %v {} : (i32) -> i32
  return
}

// -----

func.func @all_reduce_result_type(%v: f32) {
  // expected-error @+1 {{'gpu.all_reduce' op requires the same type for all operands and results}}
  %s = gpu.all_reduce add %v {} : (f32) -> i32
  return
}

// -----

func.func @all_reduce_vector(%v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.all_reduce' op operand #0 must be Integer or Float, but got 'vector<4xf32>'}}
  %s = gpu.all_reduce add %v {} : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @all_reduce_bad_kind(%v: f32) {
  // expected-error @+1 {{invalid op kind}}
  %s = gpu.all_reduce plus %v {} : (f32) -> f32
  return
}

// -----

func.func @all_reduce_not_isolated(%v: f32, %w: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'gpu.yield' op using value defined outside the region}}
    gpu.yield %w : f32
  } : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce_cluster_size(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_reduce' op cluster size 3 is not a power of two}}
  %r = gpu.subgroup_reduce add %v cluster(size = 3) : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce_cluster_stride(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_reduce' op cluster stride 3 is not a power of two}}
  %r = gpu.subgroup_reduce add %v cluster(size = 4, stride = 3) : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce_stride_without_size(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_reduce' op cluster stride can only be specified if cluster size is specified}}
  %r = "gpu.subgroup_reduce"(%v) <{cluster_stride = 2 : i32, op = #gpu<all_reduce_op add>}> : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce_stride_keyword_first(%v: f32) {
  // expected-error @+1 {{expected 'size'}}
  %r = gpu.subgroup_reduce add %v cluster(stride = 2) : (f32) -> f32
  return
}

// -----

func.func @subgroup_reduce_scalable(%v: vector<[4]xf32>) {
  // expected-error @+1 {{'gpu.subgroup_reduce' op operand #0 must be Integer or Float or fixed-length vector of Integer or Float values of ranks 1, but got 'vector<[4]xf32>'}}
  %r = gpu.subgroup_reduce add %v : (vector<[4]xf32>) -> vector<[4]xf32>
  return
}

// -----

func.func @subgroup_reduce_and_on_float_vector(%v: vector<4xf32>) {
  // expected-error @+1 {{`and` reduction operation is not compatible with type 'vector<4xf32>'}}
  %r = gpu.subgroup_reduce and %v : (vector<4xf32>) -> vector<4xf32>
  return
}

// -----

func.func @subgroup_reduce_minimumf_on_int(%v: i32) {
  // expected-error @+1 {{`minimumf` reduction operation is not compatible with type 'i32'}}
  %r = gpu.subgroup_reduce minimumf %v : (i32) -> i32
  return
}

// -----

func.func @subgroup_reduce_result_type(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_reduce' op requires the same type for all operands and results}}
  %r = gpu.subgroup_reduce add %v : (f32) -> f16
  return
}

// -----

func.func @broadcast_first_lane_with_lane(%v: f32, %l: i32) {
  // expected-error @+1 {{'gpu.subgroup_broadcast' op lane can only be specified for `specific_lane` broadcast}}
  %b = gpu.subgroup_broadcast %v, first_active_lane %l : f32
  return
}

// -----

func.func @broadcast_specific_lane_without_lane(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_broadcast' op lane must be specified for `specific_lane` broadcast}}
  %b = gpu.subgroup_broadcast %v, specific_lane : f32
  return
}

// -----

func.func @broadcast_result_type(%v: f32) {
  // expected-error @+1 {{'gpu.subgroup_broadcast' op failed to verify that all of {result, src} have same type}}
  %b = "gpu.subgroup_broadcast"(%v) <{broadcast_type = #gpu<broadcast first_active_lane>}> : (f32) -> f64
  return
}

// -----

func.func @warp_arg_count(%l: index, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected same number op arguments and block arguments.}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4xf32>) {
  }
  return
}

// -----

func.func @warp_yield_count(%l: index) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected same number of yield operands and return values.}}
  %r = gpu.warp_execute_on_lane_0(%l)[32] -> (vector<4xf32>) {
  }
  return
}

// -----

func.func @warp_arg_distribution(%l: index, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op incompatible distribution dimensions from 'vector<64xf32>' to 'vector<4xf32>' with warp size = 32}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4xf32>) {
  ^bb0(%a: vector<64xf32>):
  }
  return
}

// -----

func.func @warp_result_distribution(%l: index) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op incompatible distribution dimensions from 'vector<64xf32>' to 'vector<4xf32>' with warp size = 32}}
  %r = gpu.warp_execute_on_lane_0(%l)[32] -> (vector<4xf32>) {
    %c = arith.constant dense<1.0> : vector<64xf32>
    gpu.yield %c : vector<64xf32>
  }
  return
}

// -----

func.func @warp_not_vector(%l: index, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected vector type for distributed operands.}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4xf32>) {
  ^bb0(%a: f32):
  }
  return
}

// -----

func.func @warp_element_type(%l: index, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected distributed vectors to have same rank and element type.}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4xf32>) {
  ^bb0(%a: vector<128xi32>):
  }
  return
}

// -----

func.func @warp_rank(%l: index, %v: vector<4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected distributed vectors to have same rank and element type.}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4xf32>) {
  ^bb0(%a: vector<128x1xf32>):
  }
  return
}

// -----

func.func @warp_not_multiple(%l: index, %v: vector<4x4xf32>) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expected expanded vector dimension #1 (6) to be a multipler of the distributed vector dimension (4)}}
  gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<4x4xf32>) {
  ^bb0(%a: vector<128x6xf32>):
  }
  return
}

// -----

func.func @warp_two_blocks(%l: index) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op expects region #0 to have 0 or 1 blocks}}
  gpu.warp_execute_on_lane_0(%l)[32] {
    cf.br ^bb1
  ^bb1:
    gpu.yield
  }
  return
}

// -----

func.func @warp_no_block(%l: index) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op region #0 ('warpRegion') failed to verify constraint: region with 1 blocks}}
  "gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i64}> ({
  }) : (index) -> ()
  return
}

// -----

func.func @warp_wrong_terminator(%l: index) {
  // expected-error @+2 {{'gpu.warp_execute_on_lane_0' op expects regions to end with 'gpu.yield', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'gpu.yield'}}
  "gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i64}> ({
    "llvm.unreachable"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @warp_lane_type(%l: i32) {
  // expected-error @+1 {{'gpu.warp_execute_on_lane_0' op operand #0 must be index, but got 'i32'}}
  "gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i64}> ({
    "gpu.yield"() : () -> ()
  }) : (i32) -> ()
  return
}

// -----

// The body's ops are verified before the all_reduce's checks of its body.
func.func @all_reduce_body_with_return(%v: f32) {
  %s = gpu.all_reduce %v {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return
  } : (f32) -> f32
  func.return
}

// -----

// An inherent attribute written in the attribute dictionary is the property.
func.func @stride_in_dictionary(%a: f32) -> f32 {
  // expected-error @+1 {{'gpu.subgroup_reduce' op cluster stride can only be specified if cluster size is specified}}
  %r = gpu.subgroup_reduce add %a {cluster_stride = 2 : i32} : (f32) -> f32
  return %r : f32
}
