// Locations that MLIR 22 rejects: numbers that do not fit `unsigned`, malformed
// ranges, call sites and fused locations; each is MLIR's parse error, at MLIR's
// column.
// RUN: xgpu-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"test.op"() : () -> () loc("f":2:99999999999)

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"test.op"() : () -> () loc("f":99999999999999999999999:1)

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"test.op"() : () -> () loc("f":4294967296:1)

// -----

// expected-error @+1 {{expected integer line number in FileLineColRange}}
"test.op"() : () -> () loc("f":-1:-20)

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"test.op"() : () -> () loc("f":1:2.5)

// -----

// expected-error @+1 {{expected either integer or `:` post `to` in FileLineColRange}}
"test.op"() : () -> () loc("f":1:2 to 3)

// -----

// expected-error @+1 {{expected integer column number in FileLineColRange}}
"test.op"() : () -> () loc("f":1:2 to :4294967296)

// -----

// expected-error @+1 {{expected location instance}}
"test.op"() : () -> () loc(foo)

// -----

// expected-error @+1 {{expected 'at' in callsite location}}
"test.op"() : () -> () loc(callsite("a" bt "b"))

// -----

// expected-error @+1 {{expected '>' after fused location metadata}}
"test.op"() : () -> () loc(fused<"x" ["a"])

// -----

// expected-error @+1 {{expected ']' in fused location}}
"test.op"() : () -> () loc(fused["a" "b"])

// -----

// expected-error @+1 {{expected ')' after child location of NameLoc}}
"test.op"() : () -> () loc("n"("a" "b"))

// -----

// The error at the end of the line, as MLIR reports a missing token.
// expected-error @+1 {{expected ')' in location}}
"test.op"() : () -> () loc("f":1:2
