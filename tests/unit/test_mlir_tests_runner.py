"""The runner of MLIR's lit test files (xgpu.tools.mlir_tests), on small files of
its own: RUN-line parsing and substitution, pass detection, statuses, and the
per-chunk comparison with mlir-opt 22 (skipped without it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from xgpu.tools import mlir_test_chunks as mc
from xgpu.tools import mlir_tests as mt
from xgpu.tools.oracle import find_mlir_opt

MLIR_OPT = find_mlir_opt()
needs_mlir = pytest.mark.skipif(
    MLIR_OPT is None and os.environ.get("XGPU_REQUIRE_MLIR") != "1",
    reason="mlir-opt 22 not found (install mlir-22-tools or set XGPU_MLIR_OPT)",
)


def test_run_lines_join_continuations_and_skip_other_comments():
    text = (
        "// RUN: mlir-opt %s \\\n"
        "// RUN:   -split-input-file | FileCheck %s\n"
        "// CHECK: RUN: not a run line of its own? it is one, as in lit\n"
        "func.func @f() { return }\n"
        "// RUN: mlir-opt %s -canonicalize\n"
    )
    lines = mt.run_lines(text)
    assert lines[0] == "mlir-opt %s -split-input-file | FileCheck %s"
    assert lines[-1] == "mlir-opt %s -canonicalize"
    assert len(lines) == 3


def test_pass_names_skip_general_options_and_read_pipelines():
    args = [
        "-allow-unregistered-dialect",
        "-gpu-launch-sink-index-computations",
        "-gpu-kernel-outlining=data-layout-str=#dlti.dl_spec<#dlti.dl_entry<index,32:i32>>",
        "-split-input-file",
        "-verify-diagnostics",
        "-mlir-print-op-generic",
        "-o",
        "out.mlir",
        "%s",
    ]
    assert mt.pass_names(args) == ["gpu-launch-sink-index-computations", "gpu-kernel-outlining"]
    pipeline = ["--pass-pipeline=builtin.module(gpu.module(cse,canonicalize{max-iterations=2}))"]
    assert mt.pass_names(pipeline) == ["cse", "canonicalize"]
    assert mt.pass_names(["-pass-pipeline", "any(test-foo)"]) == ["test-foo"]


def test_expand_substitutes_tools_paths_and_keeps_redirections(tmp_path: Path):
    path = tmp_path / "t.mlir"
    line = "not mlir-opt %s -canonicalize='test-convergence' 2>&1 | FileCheck %s --check-prefix=A"
    exp = mt.expand(line, path, "myopt --x", "fc", str(tmp_path / "t.tmp"))
    assert exp.passes == ["canonicalize"]
    assert exp.command == (
        f"not myopt --x {path} -canonicalize=test-convergence 2>&1 | fc {path} --check-prefix=A"
    )
    # `%mlir-opt` (a lit substitution of another project) and `mlir-opt-22` stay.
    assert "myopt" not in mt.expand("%mlir-opt %s", path, "myopt", "fc", "t").command
    assert "myopt" not in mt.expand("mlir-opt-22 %s", path, "myopt", "fc", "t").command
    # Other lit substitutions are left alone.
    assert mt.expand("x%shlibext %t.o", path, "o", "f", "/t/x").command == "x%shlibext /t/x.o"


def test_xdsl_flags_respell_options_and_passes():
    args = [
        "-allow-unregistered-dialect",
        "-mlir-print-op-generic",
        "-gpu-map-parallel-loops=mapping-policy=innermost-first",
        "-canonicalize=test-convergence",
        "-gpu-kernel-outlining=data-layout-str=#a<b>",
        "f.mlir",
    ]
    assert mt.xdsl_args(args) == [
        "--allow-unregistered-dialect",
        "--print-op-generic",
        "f.mlir",
        "-p",
        "gpu-map-parallel-loops{mapping-policy=innermost-first},"
        'canonicalize{test-convergence=true},gpu-kernel-outlining{data-layout-str="#a<b>"}',
    ]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_statuses_of_run_lines(tmp_path: Path):
    """`cat` stands for the optimizer: its output is the file itself."""
    path = _write(
        tmp_path,
        "t.mlir",
        "// RUN: mlir-opt %s | FileCheck %s\n"
        "// RUN: mlir-opt %s | FileCheck %s --check-prefix=WRONG\n"
        "// RUN: mlir-opt %s -no-such-pass | FileCheck %s\n"
        "// RUN: not mlir-opt %s\n"
        "// CHECK: func.func @{{f}}()\n"
        "// WRONG: func.func @{{g}}()\n"
        "func.func @f() { return }\n",
    )
    runner = mt.Runner(opt="cat", supported=frozenset({"canonicalize"}))
    results = runner.run_file(path)
    assert [r.status for r in results] == [mt.PASS, mt.FAIL, mt.UNSUPPORTED, mt.FAIL]
    assert "func.func @{{g}}()" in results[1].output
    assert results[2].detail == "passes xgpu-opt lacks: no-such-pass"
    # `not` inverts: `false` fails, so `not false ...` passes.
    results = mt.Runner(opt="false", supported=None).run_file(path)
    assert results[3].status == mt.PASS


def test_timeout_and_requires(tmp_path: Path):
    path = _write(tmp_path, "slow.mlir", "// RUN: mlir-opt %s\n")
    [result] = mt.Runner(opt="sleep 5 ||", timeout=0.3).run_file(path)
    assert (result.status, result.detail) == (mt.FAIL, "timed out after 0.3 s")
    path = _write(tmp_path, "req.mlir", "// REQUIRES: host-supports-nvptx\n// RUN: mlir-opt %s\n")
    [result] = mt.Runner(opt="false").run_file(path)
    assert (result.status, result.detail) == (mt.UNSUPPORTED, "REQUIRES: host-supports-nvptx")


def test_main_reports_and_exits_1_on_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    _write(tmp_path, "a.mlir", "// RUN: mlir-opt %s\n// RUN: mlir-opt %s -test-pass\n")
    assert mt.main([str(tmp_path), "--opt", "true"]) == 0
    out = capsys.readouterr().out
    assert "a.mlir: RUN 1 PASS, RUN 2 PASS" in out
    assert mt.main([str(tmp_path), "--opt", "xgpu-opt", "--timeout", "0.01"]) == 1
    out = capsys.readouterr().out
    assert "RUN 2: UNSUPPORTED (passes xgpu-opt lacks: test-pass)" in out
    assert "1 FAIL, 1 UNSUPPORTED" in out


def test_supported_passes_are_xgpu_opts():
    passes = mt.supported_passes("xgpu-opt --mlir-style")
    assert passes is not None and "gpu-kernel-outlining" in passes
    assert "convert-linalg-to-parallel-loops" not in passes
    assert mt.supported_passes("mlir-opt-22") is None


def test_chunkable_files():
    assert mc.chunkable("// RUN: mlir-opt -split-input-file -verify-diagnostics %s\n") == (
        True,
        False,
        True,
    )
    assert mc.chunkable("// RUN: mlir-opt -gpu-kernel-outlining %s | FileCheck %s\n")[0] is False
    assert mc.chunkable("func.func @f() { return }\n")[0] is False


@needs_mlir
def test_chunks_compare_with_mlir_opt(tmp_path: Path):
    path = _write(
        tmp_path,
        "chunks.mlir",
        "// RUN: mlir-opt -split-input-file -verify-diagnostics -allow-unregistered-dialect %s\n"
        "func.func @ok(%a: index) {\n"
        '  "use"(%a) : (index) -> ()\n'
        "  %t = gpu.wait async\n"
        "  gpu.wait [%t]\n"
        "  return\n"
        "}\n"
        "// -----\n"
        "func.func @bad() {\n"
        "  // expected-error @+1 {{custom op 'gpu.wait' needs to be named when marked 'async'}}\n"
        "  gpu.wait async\n"
        "}\n"
        "// -----\n"
        "func.func @stale() {\n"
        "  // expected-error @+1 {{a message that mlir-opt 22 does not give}}\n"
        "  gpu.wait async\n"
        "}\n"
        "// -----\n"
        "func.func @unannotated() {\n"
        "  %x = arith.constant 1 : i32\n"
        "  gpu.wait [%x]\n"
        "}\n",
    )
    results = mc.run_chunks(path, MLIR_OPT, "xgpu-opt")
    assert results is not None
    assert [(r.line, r.status) for r in results] == [
        (1, mt.PASS),
        (8, mt.PASS),
        (13, mt.PASS),
        (18, mt.PASS),
    ]
    assert [r.by_oracle for r in results] == [False, False, True, False]


@needs_mlir
def test_chunk_failures_are_reported(tmp_path: Path):
    """A stand-in for xgpu-opt that prints other IR, accepts invalid IR or
    rejects valid IR: each is a FAIL, with what differs."""
    chunk = "func.func @f() {\n  return\n}\n"
    path = str(tmp_path / "c.mlir")

    def other_ir(argv):
        return 0, "func.func @g() {\n  return\n}\n", ""

    status, detail = mc.check_chunk(chunk, path, MLIR_OPT, other_ir, False, False)
    assert status == mt.FAIL and "@g" in detail and "@f" in detail

    def rejects(argv):
        return 1, "", "c.mlir:1:1: error: no way\n"

    assert mc.check_chunk(chunk, path, MLIR_OPT, rejects, False, False) == (
        mt.FAIL,
        "xgpu-opt rejects it: no way",
    )
    bad = "func.func @f() {\n  gpu.wait async\n}\n"
    status, detail = mc.check_chunk(bad, path, MLIR_OPT, other_ir, False, False)
    assert status == mt.FAIL and detail.startswith("xgpu-opt accepts what mlir-opt 22 rejects")
    status, detail = mc.check_chunk(bad, path, MLIR_OPT, rejects, False, False)
    assert status == mt.FAIL and detail.startswith("error differs: 'no way'")
