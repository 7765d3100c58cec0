// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @predicate_property(%a: index, %b: index) {
  // expected-error @+1 {{invalid properties {pred = 1 : i64} for op index.cmp: Invalid attribute `pred` in property conversion: 1 : i64}}
  %r = "index.cmp"(%a, %b) <{pred = 1 : i64}> : (index, index) -> i1
  return
}

// -----

func.func @missing_predicate(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op requires attribute 'pred'}}
  %r = "index.cmp"(%a, %b) : (index, index) -> i1
  return
}

// -----

func.func @cmp_result(%a: index, %b: index) {
  // expected-error @+1 {{'index.cmp' op result #0 must be 1-bit signless integer, but got 'i32'}}
  %r = "index.cmp"(%a, %b) <{pred = #index<cmp_predicate slt>}> : (index, index) -> i32
  return
}

// -----

func.func @no_index_side(%x: i32) {
  // expected-error @+1 {{'index.casts' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %r = index.casts %x : i32 to i64
  return
}

// -----

func.func @both_index(%a: index) {
  // expected-error @+1 {{'index.castu' op operand type 'index' and result type 'index' are cast incompatible}}
  %r = index.castu %a : index to index
  return
}

// -----

func.func @cast_operand(%y: f32) {
  // expected-error @+1 {{'index.casts' op operand #0 must be integer or index, but got 'f32'}}
  %r = index.casts %y : f32 to index
  return
}

// -----

func.func @cast_result(%a: index) {
  // expected-error @+1 {{'index.castu' op result #0 must be integer or index, but got 'f32'}}
  %r = "index.castu"(%a) : (index) -> f32
  return
}

// -----

func.func @constant_range() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %r = index.constant 18446744073709551615
  return
}

// -----

func.func @constant_bool() {
  // expected-error @+1 {{'index.constant' op attribute 'value' failed to satisfy constraint: index attribute}}
  %r = index.constant true
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'index.constant' op attribute 'value' failed to satisfy constraint: index attribute}}
  %r = "index.constant"() <{value = 1 : i64}> : () -> index
  return
}

// -----

func.func @constant_string() {
  // expected-error @+1 {{invalid properties {value = "s"} for op index.constant: Invalid attribute `value` in property conversion: "s"}}
  %r = "index.constant"() <{value = "s"}> : () -> index
  return
}

// -----

func.func @constant_missing() {
  // expected-error @+1 {{'index.constant' op requires attribute 'value'}}
  %r = "index.constant"() : () -> index
  return
}

// -----

func.func @constant_result() {
  // expected-error @+1 {{'index.constant' op result #0 must be index, but got 'i32'}}
  %r = "index.constant"() <{value = 1 : index}> : () -> i32
  return
}

// -----

func.func @bool_range() {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %r = index.bool.constant 2
  return
}

// -----

func.func @bool_property() {
  // expected-error @+1 {{invalid properties {value = 1 : i32} for op index.bool.constant: Invalid attribute `value` in property conversion: 1 : i32}}
  %r = "index.bool.constant"() <{value = 1 : i32}> : () -> i1
  return
}

// -----

func.func @binary_operand(%a: index, %x: i32) {
  // expected-error @+1 {{'index.add' op operand #1 must be index, but got 'i32'}}
  %r = "index.add"(%a, %x) : (index, i32) -> index
  return
}

// -----

func.func @binary_result(%a: index, %b: index) {
  // expected-error @+1 {{'index.shl' op result #0 must be index, but got 'i32'}}
  %r = "index.shl"(%a, %b) : (index, index) -> i32
  return
}

// -----

func.func @binary_count(%a: index) {
  // expected-error @+1 {{'index.mul' op expected 2 operands, but found 1}}
  %r = "index.mul"(%a) : (index) -> index
  return
}

// -----

func.func @sizeof_result() {
  // expected-error @+1 {{'index.sizeof' op result #0 must be index, but got 'i32'}}
  %r = "index.sizeof"() : () -> i32
  return
}
