"""The library API (xgpu.library): parse errors as mlir-opt's diagnostics,
every verifier error, pass pipelines with their diagnostics, contexts of the
caller's; and the examples of docs/api.md, run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.gpu import GPU as XDSL_GPU
from xdsl.universe import Universe
from xdsl.utils.exceptions import (
    DiagnosticException,
    ParseError,
    PassFailedException,
    VerifyException,
)

import xgpu
from xgpu.dialects.gpu.host import WaitOp

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_doc_examples_print_what_the_doc_says():
    blocks = re.findall(r"```(python|text)\n(.*?)```", DOC.read_text(), re.DOTALL)
    namespace: dict[str, object] = {}
    checked = 0
    for i, (kind, code) in enumerate(blocks):
        if kind != "python":
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"{DOC.name} block {i}", "exec"), namespace)  # noqa: S102
        assert i + 1 < len(blocks) and blocks[i + 1][0] == "text", f"block {i} has no output"
        assert out.getvalue() == blocks[i + 1][1], f"block {i}"
        checked += 1
    assert checked >= 5


# ---------------------------------------------------------------------- parse


def test_parse_error_is_a_parse_error_with_mlir_text():
    with pytest.raises(xgpu.ParseDiagnosticError) as info:
        xgpu.parse("func.func @f() {\n  %0 = gpu.thread_id w\n  return\n}\n", "k.mlir")
    err = info.value
    assert isinstance(err, ParseError) and isinstance(err, DiagnosticException)
    assert str(err) == (
        "k.mlir:2:22: error: custom op 'gpu.thread_id' expected ::mlir::gpu::Dimension to be "
        "one of: x, y, z\n  %0 = gpu.thread_id w\n                     ^"
    )
    assert len(err.diagnostics) == 1 and err.diagnostic.severity == "error"
    assert err.span.text == "w"


def test_parse_error_of_an_undefined_value_and_an_unknown_op():
    text = "func.func @f() {\n  %0 = gpu.nope\n  return\n}\n"
    with pytest.raises(xgpu.ParseDiagnosticError) as info:
        xgpu.parse(text, "n.mlir")
    assert str(info.value).startswith("n.mlir:2:8: error: custom op 'gpu.nope' is unknown")


def test_undeclared_values_are_reported_at_their_first_uses():
    # As mlir-opt: one error per value, at its first use (xDSL reports them
    # together at the end of the input).
    text = (
        "func.func @f() {\n  // %x in a comment\n  %0 = arith.addi %y, %x : i32\n"
        "  %1 = arith.addi %x, %y : i32\n  return\n}\n"
    )
    with pytest.raises(xgpu.ParseDiagnosticError) as info:
        xgpu.parse(text, "u.mlir")
    found = [(d.message, d.location.line, d.location.col) for d in info.value.diagnostics]
    assert found == [
        ("use of undeclared SSA value name", 3, 19),
        ("use of undeclared SSA value name", 3, 23),
    ]
    assert str(info.value).startswith("u.mlir:3:19: error: use of undeclared SSA value name\n")


def test_parse_with_verify_raises_every_error():
    text = (
        "func.func @f(%x: i64) -> i32 {\n  return %x : i64\n}\n"
        "func.func @g(%x: i64) -> i32 {\n  return %x : i64\n}\n"
    )
    xgpu.parse(text, "v.mlir")  # parses
    with pytest.raises(xgpu.VerifyDiagnosticError) as info:
        xgpu.parse(text, "v.mlir", verify=True)
    assert isinstance(info.value, VerifyException)
    assert [d.location.line for d in info.value.diagnostics] == [2, 5]


# --------------------------------------------------------------------- verify

MANY = """\
func.func @a() {
  %0 = arith.addi %1, %1 : i32
  %1 = arith.constant 0 : i32
  return
}
func.func @b(%x: i64) -> i32 {
  return %x : i64
}
func.func @c(%x: i64) -> i32 {
  "test.region"() ({
    func.return %x : i64
  }) : () -> ()
  return %x : i64
}
gpu.module @m {
  gpu.func @k(%x: i32) -> i64 {
    gpu.return %x : i32
  }
}
"""


def test_verify_returns_what_mlir_opt_reports():
    # mlir-opt 22 reports these four errors, in this order: the first failure
    # of each function (a use its definition does not dominate included).
    errors = xgpu.verify(xgpu.parse(MANY, "many.mlir", allow_unregistered=True))
    assert [(d.location.line, d.location.col) for d in errors] == [(2, 8), (7, 3), (11, 5), (17, 5)]
    assert errors.first is errors[0]
    assert errors.first.message == "operand #0 does not dominate this use"
    assert errors[2].message == "'func.return' op expects parent op 'func.func'"
    assert "many.mlir:7:3: error: type of return operand 0" in errors.format()
    assert "  return %x : i64\n  ^" in errors.format()


def test_verify_stops_at_an_enclosing_failure():
    # A failure outside the functions stops before they are verified (as in
    # mlir-opt, which reports the arith.addi alone).
    text = (
        "%c = arith.constant 1 : index\n"
        '%y = "arith.addi"(%c, %c) : (index, index) -> i32\n'
        "func.func @b(%x: i64) -> i32 {\n  return %x : i64\n}\n"
    )
    errors = xgpu.verify(xgpu.parse(text, "e.mlir"))
    assert len(errors) == 1 and errors.first.location.line == 2


def test_verify_of_valid_ir_is_empty():
    module = xgpu.parse("func.func @f() {\n  return\n}\n")
    errors = xgpu.verify(module)
    assert errors == [] and errors.first is None and errors.format() == ""


# ------------------------------------------------------------------ pipelines

ASYNC = """\
func.func @f(%t: !gpu.async.token) {
  %0 = gpu.wait async [%t, %t]
  gpu.wait [%0]
  return
}
"""


def test_run_pipeline_returns_remarks_and_transforms_in_place():
    module = xgpu.parse(ASYNC, "a.mlir")
    remarks = xgpu.run_pipeline(module, "gpu-async-simplify{remarks=true}")
    assert [d.severity for d in remarks] == ["remark", "remark"]
    assert remarks.first.location.line == 2
    assert "gpu.wait [%t]" in xgpu.print_mlir(module)
    assert xgpu.run_pipeline(xgpu.parse(ASYNC), "gpu-async-simplify") == []


def test_run_pipeline_raises_on_a_pass_error():
    text = "func.func @f() {\n  return\n}\n"
    with pytest.raises(xgpu.PassDiagnosticError) as info:
        xgpu.run_pipeline(xgpu.parse(text, "p.mlir"), "gpu-map-parallel-loops{mapping-policy=x}")
    err = info.value
    assert isinstance(err, PassFailedException)
    assert err.diagnostic.message == "Invalid mapping policy specified."
    assert str(err).startswith("p.mlir:1:1: error: Invalid mapping policy specified.")


def test_run_pipeline_verifies_first_and_names_unknown_passes():
    bad = xgpu.parse("func.func @f(%x: i64) -> i32 {\n  return %x : i64\n}\n", "b.mlir")
    with pytest.raises(xgpu.VerifyDiagnosticError):
        xgpu.run_pipeline(bad, "canonicalize")
    module = xgpu.parse(ASYNC)
    with pytest.raises(xgpu.PipelineError) as info:
        xgpu.run_pipeline(module, "canonicalize,gpu-async-simplfy")
    assert isinstance(info.value, ValueError)
    assert info.value.diagnostic.message == (
        "'gpu-async-simplfy' does not refer to a registered pass or pass pipeline "
        "(did you mean 'gpu-async-simplify'?)"
    )
    with pytest.raises(xgpu.PipelineError):
        xgpu.run_pipeline(module, "gpu-async-simplify{nope=1}")


def test_run_pipeline_takes_mlir_opt_pipelines():
    module = xgpu.parse(ASYNC, "a.mlir")
    remarks = xgpu.run_pipeline(
        module, "builtin.module(func.func(canonicalize),gpu-async-simplify{remarks=true})"
    )
    assert len(remarks) == 2 and "gpu.wait [%t]" in xgpu.print_mlir(module)


def test_run_pipeline_with_data_layout_in_the_dl_entry_form():
    text = (
        "func.func @f(%n: index) {\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)\n"
        "             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {\n"
        "    gpu.terminator\n  }\n  return\n}\n"
    )
    module = xgpu.parse(text)
    spec = "#dlti.dl_spec<#dlti.dl_entry<index, 32 : i32>>"
    xgpu.run_pipeline(module, f'gpu-kernel-outlining{{data-layout-str="{spec}"}}')
    assert "dlti.dl_spec = #dlti.dl_spec<index = 32 : i32>" in xgpu.print_mlir(module)


# ------------------------------------------------------------------- contexts


def test_parse_on_a_context_with_xdsl_dialects():
    ctx = Context()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    module = xgpu.parse(ASYNC, ctx=ctx)
    assert any(isinstance(op, WaitOp) for op in module.walk())
    # The caller's context still has xDSL's gpu dialect.
    assert WaitOp not in ctx.get_dialect("gpu").operations


def test_parse_on_a_context_with_xdsl_gpu_loaded():
    ctx = Context(allow_unregistered=True)
    ctx.load_dialect(XDSL_GPU)
    module = xgpu.parse('gpu.module @m {\n}\n"foo.bar"() : () -> ()\n', ctx=ctx)
    assert xgpu.print_mlir(module).startswith("builtin.module {\n  gpu.module @m {")


def test_xgpu_contexts_are_used_as_they_are():
    ctx = xgpu.make_context()
    assert xgpu.context(ctx) is ctx
    assert xgpu.context(ctx, allow_unregistered=True) is not ctx
