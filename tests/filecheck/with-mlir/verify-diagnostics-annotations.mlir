// The -verify-diagnostics annotations as mlir-opt 22 reads them: both tools
// print the same problems (line, column, message), in the same order: the
// invalid annotations of the whole file (ANN), the unexpected diagnostics of
// each chunk (UNEXP), the expectations not met (END).
// RUN: not %mlir-opt --split-input-file --verify-diagnostics %s -o /dev/null 2> %t.mlir.txt
// RUN: filecheck %s --check-prefix=ANN < %t.mlir.txt
// RUN: filecheck %s --check-prefix=UNEXP < %t.mlir.txt
// RUN: filecheck %s --check-prefix=END < %t.mlir.txt
// RUN: not xgpu-opt --split-input-file --verify-diagnostics %s -o /dev/null 2> %t.xgpu.txt
// RUN: filecheck %s --check-prefix=ANN < %t.xgpu.txt
// RUN: filecheck %s --check-prefix=UNEXP < %t.xgpu.txt
// RUN: filecheck %s --check-prefix=END < %t.xgpu.txt

// An invalid regex piece is an error at the annotation; the diagnostic is then unexpected.
// ANN: [[# @LINE + 1]]:4: error: invalid regex: parentheses not balanced
// expected-error-re @+2 {{unknown {{(}} op}}
// UNEXP: [[# @LINE + 1]]:1: error: unexpected error: unregistered operation 'gpu.foo'
"gpu.foo"() : () -> ()

// -----

// ANN: [[# @LINE + 1]]:4: error: invalid regex: repetition-operator operand invalid
// expected-error-re @+1 {{{{a**}}}}
"gpu.foo"() : () -> ()

// -----

// ANN: [[# @LINE + 1]]:4: error: invalid regex: invalid character class
// expected-error-re @+1 {{{{[[:letter:]]}}}}
"gpu.foo"() : () -> ()

// -----

// ANN: [[# @LINE + 1]]:4: error: invalid regex: invalid repetition count(s)
// expected-error-re @+1 {{{{a{256}}}}}
"gpu.foo"() : () -> ()

// -----

// ANN: [[# @LINE + 1]]:4: error: invalid regex: empty (sub)expression
// expected-error-re @+1 {{{{a|}}}}
"gpu.foo"() : () -> ()

// -----

// ANN: [[# @LINE + 1]]:4: error: found start of regex with no end '}}'
// expected-error-re @+1 {{unreg{{istered}}
"gpu.foo"() : () -> ()

// -----

// A pattern that backtracking engines take exponential time on.
// UNEXP: [[# @LINE + 2]]:1: error: unexpected error: unregistered operation 'gpu.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
// expected-error-re @+1 {{{{(a*)*b}}}}
"gpu.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"() : () -> ()

// -----

// Regex pieces in literal text, classes, anchors and word boundaries all match.
// expected-error-re @+1 {{{{^}}unregistered {{(op|oper)+}}ation '{{[[:alpha:]]+[.]f[[:alnum:]_]*}}' found{{[[:>:]]}}}}
"gpu.foo"() : () -> ()

// -----

// A diagnostic of another severity than expected is a near miss.
// UNEXP: [[# @LINE + 1]]:4: error: 'error' diagnostic emitted when expecting a 'warning'
// expected-warning @+1 {{unregistered}}
"gpu.foo"() : () -> ()

// -----

// `@+N` is read with a leading 0 as octal: line + 8 here.
// expected-error @+010 {{unregistered operation 'gpu.eight'}}
// 1
// 2
// 3
// 4
// 5
// 6
// 7
"gpu.eight"() : () -> ()


// -----

// Lines that MLIR does not read as annotations: a tab before the text, a count,
// a space after `@`, text after the final braces.
// UNEXP: [[# @LINE + 1]]:1: error: unexpected error: unregistered operation 'gpu.a'
"gpu.a"() : () -> () // expected-error	{{unregistered}}
// -----
// UNEXP: [[# @LINE + 1]]:1: error: unexpected error: unregistered operation 'gpu.b'
"gpu.b"() : () -> () // expected-error @ +0 {{unregistered}}
// -----
// UNEXP: [[# @LINE + 1]]:1: error: unexpected error: unregistered operation 'gpu.c'
"gpu.c"() : () -> () // expected-error {{unregistered}} trailing
// -----

// The "was not produced" errors come last, for the whole file.
// END: [[# @LINE - 45]]:4: error: expected error "{{[{][{]}}(a*)*b{{[}][}]}}" was not produced
// END: [[# @LINE - 33]]:4: error: expected warning "unregistered" was not produced

// END-NOT: error:
