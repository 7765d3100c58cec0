"""xgpu-opt as a command line: diagnostics, -verify-diagnostics, split input."""

from __future__ import annotations

import signal

WAITS = """func.func @f(%a: !gpu.async.token) {
  %0 = gpu.wait async [%a]
  gpu.wait [%0]
  func.return
}
"""


def test_round_trip_prints_gpu_syntax(xgpu_opt):
    res = xgpu_opt(WAITS)
    assert res.rc == 0, res.err
    assert "%0 = gpu.wait async [%a]" in res.out
    assert "gpu.wait [%0]" in res.out


def test_parse_error_has_location_caret_and_mlir_message(xgpu_opt):
    res = xgpu_opt("func.func @f() {\n  %t = gpu.wait\n  func.return\n}\n")
    assert res.rc == 1
    lines = res.err.splitlines()
    assert lines[0] == "input.mlir:2:3: error: cannot name an operation with no results"
    assert lines[1] == "  %t = gpu.wait"
    assert lines[2] == "  ^"
    assert "Traceback" not in res.err


def test_unnamed_async_op_is_rejected_like_mlir(xgpu_opt):
    res = xgpu_opt("func.func @f() {\n  gpu.wait async\n  func.return\n}\n")
    assert res.rc == 1
    assert res.err.startswith(
        "input.mlir:2:12: error: custom op 'gpu.wait' needs to be named when marked 'async'"
    )


def test_verifier_error_points_at_the_failing_op(xgpu_opt):
    res = xgpu_opt(
        "func.func @f() -> i32 {\n  %c = arith.constant 0 : i64\n  func.return %c : i64\n}\n"
    )
    assert res.rc == 1
    first = res.err.splitlines()[0]
    assert first.startswith("input.mlir:3:3: error: type of return operand 0 ('i64') doesn't match")
    assert "note: see current operation" in res.err


def test_split_input_file_joins_outputs_and_fails_on_any_error(xgpu_opt):
    text = WAITS + "// -----\nfunc.func @g() {\n  %t = gpu.wait\n}\n// -----\n" + WAITS
    res = xgpu_opt(text, "--split-input-file")
    assert res.rc == 1
    assert res.out.count("// -----") == 1
    assert "input.mlir:8:3: error: cannot name an operation with no results" in res.err


def test_verify_diagnostics_met_expectation_passes(xgpu_opt):
    text = (
        "func.func @f() {\n"
        "  // expected-error @+1 {{cannot name an operation with no results}}\n"
        "  %t = gpu.wait\n"
        "}\n"
    )
    res = xgpu_opt(text, "--verify-diagnostics")
    assert res.rc == 0, res.err
    assert res.err == ""


def test_verify_diagnostics_unmet_expectation_fails(xgpu_opt):
    text = "func.func @f() {\n  // expected-error @+1 {{some other message}}\n  gpu.wait\n  func.return\n}\n"
    res = xgpu_opt(text, "--verify-diagnostics")
    assert res.rc == 1
    assert 'input.mlir:2:6: error: expected error "some other message" was not produced' in res.err


def test_verify_diagnostics_unexpected_error_fails(xgpu_opt):
    text = "func.func @f() {\n  %t = gpu.wait\n}\n"
    res = xgpu_opt(text, "--verify-diagnostics")
    assert res.rc == 1
    assert "input.mlir:2:3: error: unexpected error: cannot name an operation" in res.err


def test_verify_diagnostics_wrong_line_fails(xgpu_opt):
    text = (
        "func.func @f() {\n"
        "  // expected-error @+2 {{cannot name an operation with no results}}\n"
        "  %t = gpu.wait\n"
        "}\n"
    )
    res = xgpu_opt(text, "--verify-diagnostics")
    assert res.rc == 1
    assert "unexpected error" in res.err and "was not produced" in res.err


def test_verify_diagnostics_per_chunk(xgpu_opt):
    text = (
        "func.func @f() {\n"
        "  // expected-error @+1 {{cannot name}}\n"
        "  %t = gpu.wait\n"
        "}\n"
        "// -----\n"
        "func.func @g() {\n"
        "  // expected-error @below {{needs to be named when marked 'async'}}\n"
        "  gpu.wait async\n"
        "}\n"
    )
    res = xgpu_opt(text, "--verify-diagnostics", "--split-input-file")
    assert res.rc == 0, res.err


def test_garbage_never_gives_a_traceback(xgpu_opt):
    for text in [
        "}}}",
        "%",
        "gpu.wait [",
        '"gpu.wait"(',
        "\x00\xff",
        "%0 = ",
        "module { gpu.module",
    ]:
        res = xgpu_opt(text)
        assert res.rc == 1, text
        assert "Traceback" not in res.err
        assert "error:" in res.err


def test_xdsl_gpu_passes_and_targets_are_removed():
    from xgpu.tools.xgpu_opt import XGpuOptMain

    main = XGpuOptMain(args=[])
    assert "memref-to-gpu" not in main.available_passes
    assert "wgsl" not in main.available_targets
    # xgpu's own passes replace xDSL's of the same name.
    assert main.available_passes["gpu-map-parallel-loops"]().__module__.startswith("xgpu.")
    assert main.available_passes["canonicalize"]().__module__.startswith("xgpu.")
    assert main.ctx.get_optional_op("gpu.wait") is not None


def test_chunk_with_only_comments_is_an_empty_module(xgpu_opt):
    res = xgpu_opt(WAITS + "// -----\n// nothing but a comment\n", "--split-input-file")
    assert res.rc == 0, res.err
    assert res.out.split("// -----\n")[1].strip() == "builtin.module {\n}"


def test_verify_diagnostics_unknown_location():
    from xgpu.diagnostics import Diagnostic
    from xgpu.tools.verify_diagnostics import check, parse_expectations

    exps = parse_expectations("// expected-error @unknown {{pass failed}}\n", "f.mlir", 0)
    assert check(exps, [Diagnostic("error", "the pass failed here", None)]) == []
    exps = parse_expectations("// expected-error @unknown {{pass failed}}\n", "f.mlir", 0)
    (problem,) = check(exps, [])
    assert problem.message == 'expected error "pass failed" was not produced'
    assert (problem.location.line, problem.location.col) == (1, 4)


def test_generic_test_dialect_ops_need_no_flag(xgpu_opt):
    # mlir-opt 22 registers MLIR's `test` dialect, which allows unknown ops.
    res = xgpu_opt('func.func @f() {\n  %0 = "test.anything"() : () -> i32\n  func.return\n}\n')
    assert res.rc == 0, res.err
    assert '"test.anything"() : () -> i32' in res.out


def test_custom_form_unknown_test_op_is_still_rejected(xgpu_opt):
    res = xgpu_opt("func.func @f() {\n  test.anything\n  func.return\n}\n")
    assert res.rc == 1
    assert res.err.startswith("input.mlir:2:3: error: custom op 'test.anything' is unknown")


def test_generic_alloc_without_segment_sizes_gets_zeros(xgpu_opt):
    res = xgpu_opt('%m = "gpu.alloc"() : () -> memref<4xf32>\n')
    assert res.rc == 0, res.err
    assert "gpu.alloc  () : memref<4xf32>" in res.out


def test_deep_nesting_parses_verifies_and_prints(xgpu_opt):
    # (Past xgpu's limit of nesting: tests/unit/test_hostile_limits.py.)
    depth = 1000
    text = "func.func @f(%b: i1) {\n" + "scf.if %b {\n" * depth + "}\n" * depth + "func.return\n}\n"
    res = xgpu_opt(text)
    assert res.rc == 0, res.err
    assert res.out.count("scf.if %") == depth


def test_unterminated_string_on_a_long_line_does_not_hang(xgpu_opt):
    # xDSL's own string regex backtracks exponentially here (minutes for 40 chars).
    line = '  "gpu.memcpy(%m) : (memref<?xf32>) -> () with a long tail of text'

    def too_slow(signum, frame):
        raise TimeoutError("the lexer hangs on an unterminated string")

    old = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(10)
    try:
        res = xgpu_opt(f"func.func @f(%m: memref<?xf32>) {{\n{line}\n  func.return\n}}\n")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert res.rc == 1
    assert res.err.splitlines()[0] == (
        f"input.mlir:2:{len(line) + 1}: error: expected '\"' in string literal"
    )


def test_unprintable_ir_under_disable_verify_prints_generically(xgpu_opt):
    # Without `dimension` the custom form of gpu.thread_id cannot be printed.
    res = xgpu_opt('"gpu.thread_id"() : () -> index\n', "--disable-verify")
    assert res.rc == 0, res.err
    assert '%0 = "gpu.thread_id"() : () -> index' in res.out


def test_exotic_attribute_payloads_are_diagnostics(xgpu_opt):
    # xDSL raises NotImplementedError for an i302 dense array while parsing it.
    res = xgpu_opt(
        '"test.op"() {a = array<i302: 0, 1>} : () -> ()\n', "--allow-unregistered-dialect"
    )
    assert res.rc == 1
    assert "error:" in res.err and "Traceback" not in res.err and "internal error" not in res.err
