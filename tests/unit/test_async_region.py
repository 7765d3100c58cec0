"""gpu-async-region: the pass through the API, its effect classification, its
errors, and its cost on long programs (the outputs themselves are compared
with mlir-opt 22 in tests/filecheck/with-mlir/pass-gpu-async-region.mlir)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from xgpu import diagnostics
from xgpu.dialects.gpu.host import MemsetOp, WaitOp
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import make_context, parse, split_chunks
from xgpu.transforms.async_region import GpuAsyncRegionPass, is_memory_effect_free

ROOT = Path(__file__).resolve().parents[2]
DIFF_TESTS = ROOT / "tests/filecheck/with-mlir/pass-gpu-async-region.mlir"


def _parse(text: str) -> ModuleOp:
    return parse(text, "input.mlir", make_context(allow_unregistered=True))


def _run(module: ModuleOp) -> list[diagnostics.Diagnostic]:
    with diagnostics.collecting() as engine:
        GpuAsyncRegionPass().apply(make_context(allow_unregistered=True), module)
    return engine.diagnostics


def _chunks() -> list[str]:
    text = DIFF_TESTS.read_text()
    return [c for c, _ in split_chunks(text, True) if c.strip()]


@pytest.mark.parametrize("index", range(len(_chunks())))
def test_output_verifies_and_is_a_fixed_point(index: int) -> None:
    module = _parse(_chunks()[index])
    assert _run(module) == []
    assert verify_ir(module) is None
    once = print_mlir(module)
    assert _run(module) == []
    assert print_mlir(module) == once


def test_sync_op_recreated_with_token() -> None:
    module = _parse(
        "func.func @f(%m: memref<?xf32>, %v: f32) {\n"
        "  gpu.memset %m, %v : memref<?xf32>, f32\n"
        "  return\n"
        "}\n"
    )
    assert _run(module) == []
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    ops = list(f.body.block.ops)
    assert [op.name for op in ops] == ["gpu.wait", "gpu.memset", "gpu.wait", "func.return"]
    start, memset, end = ops[0], ops[1], ops[2]
    assert isinstance(start, WaitOp) and start.async_token is not None
    assert isinstance(memset, MemsetOp)
    assert memset.async_dependencies[0] is start.async_token
    assert isinstance(end, WaitOp) and end.async_token is None
    assert end.async_dependencies[0] is memset.async_token


def test_launch_error_and_other_functions_still_processed() -> None:
    module = _parse(
        "func.func @bad(%n: index) {\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)"
        " threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {\n"
        "    gpu.terminator\n"
        "  }\n"
        "  return\n"
        "}\n"
        "func.func @good(%m: memref<?xf32>) {\n"
        "  gpu.dealloc %m : memref<?xf32>\n"
        "  return\n"
        "}\n"
    )
    diags = _run(module)
    assert [(d.severity, d.message) for d in diags] == [
        ("error", "'gpu.launch' op replace with gpu.launch_func first")
    ]
    assert diags[0].location is not None and (diags[0].location.line, diags[0].location.col) == (
        2,
        3,
    )
    assert "gpu.dealloc async" in print_mlir(module)


def test_cli_reports_launch_without_traceback(xgpu_opt) -> None:
    res = xgpu_opt(
        "func.func @bad(%n: index) {\n"
        "  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)"
        " threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {\n"
        "    gpu.terminator\n"
        "  }\n"
        "  return\n"
        "}\n",
        "-p",
        "gpu-async-region",
    )
    assert res.rc == 1
    assert res.out == ""
    assert res.err.startswith(
        "input.mlir:2:3: error: 'gpu.launch' op replace with gpu.launch_func first\n"
    )
    assert "Traceback" not in res.err


def test_async_execute_deferral_through_the_driver(xgpu_opt) -> None:
    res = xgpu_opt(
        "func.func @f(%m: memref<?xf32>, %v: f32) {\n"
        "  %a = async.execute {\n"
        "    gpu.memset %m, %v : memref<?xf32>, f32\n"
        "    async.yield\n"
        "  }\n"
        "  async.await %a : !async.token\n"
        "  return\n"
        "}\n",
        "-p",
        "gpu-async-region",
    )
    assert res.rc == 0, res.err
    # The body's blocking wait moved after the await of the yielded token.
    assert "async.yield %1 : !gpu.async.token" in res.out
    assert "%2 = async.await %bodyResults : !async.value<!gpu.async.token>" in res.out
    assert "gpu.wait [%2]" in res.out


@pytest.mark.parametrize(
    ("op", "free"),
    [
        ("%r = arith.addi %n, %n : index", True),
        ("%r = arith.extsi %i : i32 to i64", True),
        ("%r = memref.dim %m, %n : memref<?xf32>", True),
        ("%r = memref.load %m[%n] : memref<?xf32>", False),
        ("memref.store %f, %m[%n] : memref<?xf32>", False),
        ("%r = memref.alloc() : memref<4xf32>", False),
        ("func.call @ext() : () -> ()", False),
        ('"test.op"() : () -> ()', False),
        ('%r = "index.add"(%n, %n) : (index, index) -> index', True),
        ("scf.execute_region {\n scf.yield\n }", True),
        ("scf.execute_region {\n func.call @ext() : () -> ()\n scf.yield\n }", False),
        ("affine.for %k = 0 to 4 {\n }", True),
        ("scf.for %k = %n to %n step %n {\n gpu.wait\n }", False),
    ],
)
def test_memory_effect_classification(op: str, free: bool) -> None:
    module = _parse(
        "func.func private @ext()\n"
        "func.func @f(%n: index, %i: i32, %f: f32, %m: memref<?xf32>) {\n"
        f"  {op}\n"
        "  return\n"
        "}\n"
    )
    f = [o for o in module.body.ops if isinstance(o, func.FuncOp)][1]
    first = f.body.block.first_op
    assert first is not None
    assert is_memory_effect_free(first) is free


def test_long_program_is_linear() -> None:
    n = 3000
    body = "".join(
        "  gpu.memset %m, %v : memref<?xf32>, f32\n"
        "  gpu.memset %m, %v : memref<?xf32>, f32\n"
        "  func.call @ext() : () -> ()\n"
        for _ in range(n)
    )
    module = _parse(
        "func.func private @ext()\n"
        f"func.func @f(%m: memref<?xf32>, %v: f32) {{\n{body}  return\n}}\n"
    )
    start = time.perf_counter()
    assert _run(module) == []
    elapsed = time.perf_counter() - start
    waits = [op for op in module.walk() if isinstance(op, WaitOp)]
    assert len(waits) == 2 * n
    assert elapsed < 10.0
