"""The differential checker must catch a difference from mlir-opt."""

from __future__ import annotations

import os

import pytest

from xgpu.tools import mlir_diff

MLIR_OPT = mlir_diff.find_mlir_opt()
requires_mlir = pytest.mark.skipif(
    MLIR_OPT is None and os.environ.get("XGPU_REQUIRE_MLIR") != "1",
    reason="mlir-opt (22) not found",
)

CHUNK = """func.func @f(%a: !gpu.async.token) {
  %0 = gpu.wait async [%a]
  gpu.wait [%0]
  return
}
"""


def test_name_normalization_keeps_syntax():
    assert mlir_diff.gpu_lines("  %x, %y = gpu.wait async [%x]\n  return\n") == [
        "  %v0, %v1 = gpu.wait async [%v0]"
    ]


@requires_mlir
def test_identical_output_has_no_difference():
    assert mlir_diff.compare_chunk(MLIR_OPT, CHUNK) == []


@requires_mlir
def test_a_spacing_difference_is_caught(monkeypatch: pytest.MonkeyPatch):
    real = mlir_diff.xgpu_print

    def wrong_spacing(text: str, generic: bool = False) -> str:
        return real(text, generic).replace("gpu.wait [", "gpu.wait  [")

    monkeypatch.setattr(mlir_diff, "xgpu_print", wrong_spacing)
    problems = mlir_diff.compare_chunk(MLIR_OPT, CHUNK)
    assert len(problems) == 1 and "byte for byte" in problems[0]


@requires_mlir
def test_a_semantic_difference_is_caught(monkeypatch: pytest.MonkeyPatch):
    real = mlir_diff.xgpu_print

    def drop_dependency(text: str, generic: bool = False) -> str:
        return real(text, generic).replace("gpu.wait async [%a]", "gpu.wait async")

    monkeypatch.setattr(mlir_diff, "xgpu_print", drop_dependency)
    problems = mlir_diff.compare_chunk(MLIR_OPT, CHUNK)
    assert any("custom form" in p for p in problems)


@requires_mlir
def test_input_rejected_by_mlir_is_reported():
    problems = mlir_diff.compare_chunk(MLIR_OPT, "func.func @f() {\n  %t = gpu.wait\n}\n")
    assert problems and "mlir-opt rejects the input" in problems[0]


def test_packed_results_compare_equal_to_named_results():
    mlir = "  %0:2 = gpu.warp_execute_on_lane_0(%a)[32] -> (f32, f32) {\n"
    xdsl = "  %r1, %r2 = gpu.warp_execute_on_lane_0(%a)[32] -> (f32, f32) {\n"
    assert mlir_diff.gpu_lines(mlir) == mlir_diff.gpu_lines(xdsl)
    assert mlir_diff.gpu_lines(mlir) != mlir_diff.gpu_lines(xdsl.replace("[32]", "[64]"))


def test_packed_result_groups_among_other_results():
    mlir = "  %0:2, %asyncToken = gpu.spmm_buffer_size async [%t] %a, %b into f32\n"
    xdsl = "  %x, %y, %t2 = gpu.spmm_buffer_size async [%t] %a, %b into f32\n"
    assert mlir_diff.gpu_lines(mlir) == mlir_diff.gpu_lines(xdsl)


@requires_mlir
def test_batched_chunks_report_each_chunk_as_alone(monkeypatch: pytest.MonkeyPatch):
    """mlir-opt runs once for all chunks where it can (`--split-input-file`) and
    chunk by chunk where one fails: each chunk's problems are its own."""
    bad_input = "func.func @f() {\n  %t = gpu.wait\n}\n"
    other = CHUNK.replace("@f", "@g")
    runs: list[int] = []
    real_run = mlir_diff.subprocess.run

    def counting_run(*args, **kwargs):
        runs.append(1)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(mlir_diff.subprocess, "run", counting_run)
    assert mlir_diff.compare_chunks(MLIR_OPT, [CHUNK, other]) == [[], []]
    assert len(runs) == 6  # two references and four readings of xgpu's output
    found = mlir_diff.compare_chunks(MLIR_OPT, [CHUNK, bad_input, other])
    assert found[0] == [] and found[2] == []
    assert len(found[1]) == 1 and "mlir-opt rejects the input" in found[1][0]

    real_print = mlir_diff.xgpu_print

    def wrong_in_g(text: str, generic: bool = False) -> str:
        out = real_print(text, generic)
        return out.replace("gpu.wait async [%a]", "gpu.wait async") if "@g" in out else out

    monkeypatch.setattr(mlir_diff, "xgpu_print", wrong_in_g)
    found = mlir_diff.compare_chunks(MLIR_OPT, [CHUNK, other])
    assert found[0] == [] and any("custom form" in p for p in found[1])
    passes = mlir_diff.compare_pass_chunks(MLIR_OPT, [CHUNK, bad_input, other], "canonicalize")
    assert passes[0] == [] and passes[2] == [] and "fails on the input" in passes[1][0]
