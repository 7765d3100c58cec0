"""The examples a newcomer runs must work.

Each runs as `python examples/NAME.py` does (`runpy` with the name
`__main__`), in this process: what it prints is checked, not the start of a
Python process.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import runpy
from pathlib import Path

import pytest

from xgpu.ir.verifier import verify_ir
from xgpu.tools import mlir_diff

EXAMPLES = Path(__file__).parents[2] / "examples"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_script(name: str) -> str:
    """What `python examples/<name>.py` prints on stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    return out.getvalue()


def test_build_ir_example_verifies_and_prints_the_chain():
    module = _load("build_ir").build()
    assert verify_ir(module) is None
    text = _run_script("build_ir")
    assert "gpu.module @kernels {" in text
    assert "gpu.func @double(%0: memref<?xf32>) kernel {" in text
    for line in (
        "= gpu.wait async\n",
        "= gpu.alloc async [",
        "@kernels::@double blocks in (",
        "gpu.wait [",
    ):
        assert line in text


@pytest.mark.skipif(
    mlir_diff.find_mlir_opt() is None and os.environ.get("XGPU_REQUIRE_MLIR") != "1",
    reason="mlir-opt (22) not found",
)
def test_build_ir_example_is_accepted_by_mlir_opt():
    out = _run_script("build_ir")
    assert mlir_diff.compare_chunk(mlir_diff.find_mlir_opt(), out) == []


def _opencl_device_or_skip() -> None:
    try:
        from xgpu.runtime.opencl_device import has_device
    except ImportError as err:  # pragma: no cover - pyopencl missing
        pytest.skip(f"pyopencl is not importable: {err}")
    if not has_device():
        pytest.skip("no OpenCL device")


def test_run_from_python_example_doubles_the_vector():
    _opencl_device_or_skip()
    assert _run_script("run_from_python") == "returned 2.0; x[:5] = [ 2.  4.  6.  8. 10.]\n"
