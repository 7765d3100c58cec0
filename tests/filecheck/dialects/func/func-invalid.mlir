// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

func.func @a() {
  // expected-error @below {{'func.constant' op reference to undefined function 'nope'}}
  %f = func.constant @nope : () -> ()
  return
}

// -----

func.func private @g(i32) -> i32
func.func @b() {
  // expected-error @below {{'func.constant' op reference to function with mismatched type}}
  %f = func.constant @g : (i64) -> i32
  return
}

// -----

func.func @c(%f: (i32) -> i32, %x: i64) {
  // expected-error @below {{'func.call_indirect' op failed to verify that callee input types match argument types}}
  %r = "func.call_indirect"(%f, %x) : ((i32) -> i32, i64) -> i32
  return
}

// -----

func.func @c(%f: (i32) -> i32, %x: i32) {
  // expected-error @below {{'func.call_indirect' op failed to verify that callee result types match result types}}
  %r = "func.call_indirect"(%f, %x) : ((i32) -> i32, i32) -> i64
  return
}

// -----

func.func @c(%f: i32, %x: i32) {
  // expected-error @below {{'func.call_indirect' op operand #0 must be function type, but got 'i32'}}
  %r = "func.call_indirect"(%f, %x) : (i32, i32) -> i32
  return
}

// -----

func.func @c(%f: i32, %x: i32) {
  // expected-error @below {{custom op 'func.call_indirect' invalid kind of type specified: expected builtin.function, but found 'i32'}}
  %r = func.call_indirect %f(%x) : i32
  return
}

// -----

func.func @c(%f: (i32) -> i32, %x: i32) {
  // expected-error @below {{custom op 'func.call_indirect' number of operands and types do not match: got 2 operands and 1 types}}
  %r = func.call_indirect %f(%x, %x) : (i32) -> i32
  return
}

// -----

// expected-error @below {{'func.func' op symbol declaration cannot have public visibility}}
func.func @pubdecl(i32)

// -----

// expected-error @below {{'func.func' op arguments may only have dialect attributes}}
func.func private @x(i32 {foo})

// -----

// expected-error @below {{'func.func' op results may only have dialect attributes}}
func.func private @x(i32) -> (i32 {foo})

// -----

// expected-error @below {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{function_type = (i32) -> (), sym_name = "y", sym_visibility = "private", arg_attrs = [{}, {}]}> ({}) : () -> ()

// -----

// expected-error @below {{'func.func' op expects result attribute array to have the same number of elements as the number of function results, got 1, but expected 0}}
"func.func"() <{function_type = (i32) -> (), sym_name = "y", sym_visibility = "private", res_attrs = [{}]}> ({}) : () -> ()

// -----

// expected-error @below {{"llvm.noalias" attribute attached to non-pointer LLVM type}}
func.func @noalias(%a: i32 {llvm.noalias}) {
  return
}

// -----

// expected-error @below {{"llvm.zeroext" attribute attached to non-integer LLVM type}}
func.func private @zext(f32 {llvm.zeroext})

// -----

// expected-error @below {{custom op 'func.func' expected non-empty function body}}
func.func @f() {}

// -----

// expected-error @below {{custom op 'func.func' expected SSA identifier}}
func.func private @f(%a: i32, i32)

// -----

// expected-error @below {{custom op 'func.func' expected type instead of SSA identifier}}
func.func private @f(i32, %a: i32)

// -----

// expected-error @below {{custom op 'func.func' 'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func private @f(i32) attributes {sym_name = "g"}
