// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @empty_body() {
  // expected-error @+1 {{'async.execute' op region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks}}
  %t = async.execute {
  }
  return
}

// -----

func.func @labelled_body(%v: !async.value<f32>) {
  %t = async.execute (%v as %x: !async.value<f32>) {
  // expected-error @+1 {{invalid block name in region with named arguments}}
  ^bb0(%y: i32):
    async.yield
  }
  return
}

// -----

func.func @argument_type(%v: !async.value<f32>) {
  // expected-error @+2 {{'async.execute' op along control flow edge from parent to Region #0: successor operand type #0 '!async.value<f32>' should match successor input type #0 'i32'}}
  // expected-note @+1 {{region branch point}}
  %t = "async.execute"(%v) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%y: i32):
    "async.yield"() : () -> ()
  }) : (!async.value<f32>) -> !async.token
  return
}

// -----

func.func @yield_count() {
  // expected-error @+1 {{'async.execute' op along control flow edge from Operation async.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
  %t, %r = async.execute -> !async.value<f32> {
    // expected-note @+1 {{region branch point}}
    async.yield
  }
  return
}

// -----

func.func @yield_type(%v: i32) {
  // expected-error @+1 {{'async.execute' op along control flow edge from Operation async.yield to parent: successor operand type #0 'i32' should match successor input type #0 '!async.value<f32>'}}
  %t, %r = async.execute -> !async.value<f32> {
    // expected-note @+1 {{region branch point}}
    async.yield %v : i32
  }
  return
}

// -----

func.func @no_result_count() {
  // expected-error @+1 {{operation defines 2 results but was provided 1 to bind}}
  %t = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> (!async.token, f32)
  return
}

// -----

func.func @token_result() {
  // expected-error @+1 {{'async.execute' op result #0 must be async token type, but got 'f32'}}
  %t = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> (f32)
  return
}

// -----

func.func @dependency_type(%n: index) {
  // expected-error @+1 {{'async.execute' op operand #0 must be variadic of async token type, but got 'index'}}
  %t = "async.execute"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> ({
    "async.yield"() : () -> ()
  }) : (index) -> (!async.token)
  return
}

// -----

func.func @body_operand_type(%n: index) {
  // expected-error @+1 {{'async.execute' op operand #0 must be variadic of async value type or async token type, but got 'index'}}
  %t = "async.execute"(%n) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%x: index):
    "async.yield"() : () -> ()
  }) : (index) -> (!async.token)
  return
}

// -----

func.func @segments(%v: !async.value<f32>) {
  // expected-error @+1 {{'async.execute' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'}}
  %t = "async.execute"(%v) ({
    "async.yield"() : () -> ()
  }) : (!async.value<f32>) -> !async.token
  return
}

// -----

func.func @await_token_result(%t: !async.token) {
  // expected-error @+1 {{'async.await' op awaiting on a token must have empty result}}
  %x = "async.await"(%t) : (!async.token) -> f32
  return
}

// -----

func.func @await_value_type(%t: !async.value<f32>) {
  // expected-error @+1 {{'async.await' op result type 'i32' does not match async value type 'f32'}}
  %x = "async.await"(%t) : (!async.value<f32>) -> i32
  return
}

// -----

func.func @await_operand(%t: f32) {
  // expected-error @+1 {{'async.await' op operand #0 must be async value type or async token type, but got 'f32'}}
  "async.await"(%t) : (f32) -> ()
  return
}

// -----

func.func @await_named(%t: f32) {
  // expected-error @+1 {{cannot name an operation with no results}}
  %x = async.await %t : f32
  return
}

// -----

func.func @group_type(%n: index) {
  // expected-error @+1 {{custom op 'async.create_group' invalid kind of type specified: expected async.group, but found '!async.token'}}
  %g = async.create_group %n : !async.token
  return
}

// -----

func.func @add_to_group(%n: index, %g: !async.group) {
  // expected-error @+1 {{'async.add_to_group' op operand #0 must be async value type or async token type, but got 'index'}}
  %r = "async.add_to_group"(%n, %g) : (index, !async.group) -> index
  return
}

// -----

func.func @await_all(%n: index) {
  // expected-error @+1 {{'async.await_all' op operand #0 must be async group type, but got 'index'}}
  "async.await_all"(%n) : (index) -> ()
  return
}

// -----

func.func @yield_parent(%n: index) {
  "test.op"() ({
    // expected-error @+1 {{'async.yield' op expects parent op 'async.execute'}}
    "async.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @is_error(%n: index) {
  // expected-error @+1 {{'async.runtime.is_error' op operand #0 must be async value type or async token type or async group type, but got 'index'}}
  %e = "async.runtime.is_error"(%n) : (index) -> i1
  return
}

// -----

func.func @runtime_create() {
  // expected-error @+1 {{'async.runtime.create' op result #0 must be async value type or async token type, but got 'index'}}
  %t = "async.runtime.create"() : () -> index
  return
}

// -----

func.func @ref_count(%t: !async.token) {
  // expected-error @+1 {{'async.runtime.add_ref' op attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  "async.runtime.add_ref"(%t) <{count = 0 : i64}> : (!async.token) -> ()
  return
}

// -----

func.func @ref_count_missing(%t: !async.token) {
  // expected-error @+1 {{'async.runtime.drop_ref' op requires attribute 'count'}}
  async.runtime.drop_ref %t : !async.token
  return
}

// -----

func.func @store_type(%n: index, %val: !async.value<f32>) {
  // expected-error @+1 {{'async.runtime.store' op failed to verify that type of 'value' matches element type of 'storage'}}
  "async.runtime.store"(%n, %val) : (index, !async.value<f32>) -> ()
  return
}

// -----

func.func @load_kind(%t: !async.token) {
  // expected-error @+1 {{custom op 'async.runtime.load' invalid kind of type specified: expected async.value, but found '!async.token'}}
  %x = async.runtime.load %t : !async.token
  return
}

// -----

func.func @coro_begin(%n: index) {
  // expected-error @+1 {{'async.coro.begin' op operand #0 must be switched-resume coroutine identifier, but got 'index'}}
  %h = "async.coro.begin"(%n) : (index) -> !async.coro.handle
  return
}

// -----

// expected-error @+1 {{'async.func' op result is expected to be at least of size 1, but got 0}}
async.func @no_result() {
  return
}

// -----

// expected-error @+1 {{'async.func' op result type must be async value type or async token type, but got 'i32'}}
async.func @plain_result() -> i32 {
  return
}

// -----

// expected-error @+1 {{'async.func' op  results' (optional) async token type is expected to appear as the 1st return value, but got 2}}
async.func @token_second() -> (!async.value<i32>, !async.token) {
  return
}

// -----

async.func @return_types() -> !async.value<i32> {
  %c = arith.constant 1 : i64
  // expected-error @+1 {{'async.return' op operand types do not match the types returned from the parent FuncOp}}
  return %c : i64
}

// -----

func.func @return_parent() {
  // expected-error @+1 {{'async.return' op expects parent op 'async.func'}}
  async.return
}

// -----

func.func @g(%a: i32) {
  return
}
func.func @call_plain_func(%x: i32) {
  // expected-error @+1 {{'async.call' op 'g' does not reference a valid async function}}
  %t = async.call @g(%x) : (i32) -> !async.token
  return
}

// -----

async.func @g(%a: i32) -> !async.token {
  return
}
func.func @call_operand_type(%x: i64) {
  // expected-error @+1 {{'async.call' op operand type mismatch: expected operand type 'i32', but provided 'i64' for operand number 0}}
  %t = async.call @g(%x) : (i64) -> !async.token
  return
}

// -----

async.func @g(%a: i32) -> !async.token {
  return
}
func.func @call_result_count(%x: i32) {
  // expected-error @+1 {{'async.call' op incorrect number of results for callee}}
  %t, %u = async.call @g(%x) : (i32) -> (!async.token, !async.token)
  return
}

// -----

func.func @two_blocks() {
  // expected-error @+1 {{'async.execute' op expects region #0 to have 0 or 1 blocks}}
  %t = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "async.yield"() : () -> ()
  ^bb1:
    "async.yield"() : () -> ()
  }) : () -> !async.token
  return
}

// -----

func.func @other_terminator() {
  // expected-error @+2 {{'async.execute' op expects regions to end with 'async.yield', found 'test.term'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'async.yield'}}
  %t = "async.execute"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "test.term"() : () -> ()
  }) : () -> !async.token
  return
}

// -----

func.func @segments_kind() {
  // expected-error @+1 {{invalid properties {operandSegmentSizes = array<i64: 0, 0>} for op async.execute: expected DenseI32ArrayAttr for key `value`}}
  %r = "async.execute"() <{operandSegmentSizes = array<i64: 0, 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> !async.token
  return
}

// -----

func.func @segments_size() {
  // expected-error @+1 {{invalid properties {operandSegmentSizes = array<i32: 0>} for op async.execute: size mismatch in attribute conversion: 1 vs 2}}
  %r = "async.execute"() <{operandSegmentSizes = array<i32: 0>}> ({
    "async.yield"() : () -> ()
  }) : () -> !async.token
  return
}

// -----

func.func @callee_kind() {
  // expected-error @+1 {{invalid properties {callee = "f"} for op async.call: Invalid attribute `callee` in property conversion: "f"}}
  %r = "async.call"() <{callee = "f"}> : () -> !async.token
  return
}

// -----

func.func @count_kind(%t: !async.token) {
  // expected-error @+1 {{invalid properties {count = "x"} for op async.runtime.add_ref: Invalid attribute `count` in property conversion: "x"}}
  "async.runtime.add_ref"(%t) <{count = "x"}> : (!async.token) -> ()
  return
}

// -----

func.func @nested_func() {
  // expected-error @+1 {{'async.func' op symbol's parent must have the SymbolTable trait}}
  "async.func"() <{function_type = () -> !async.token, sym_name = "g"}> ({
    "async.return"() : () -> ()
  }) : () -> ()
  return
}

