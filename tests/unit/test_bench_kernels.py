"""The inputs of bench/kernels.py stay valid: every gpu.module of
bench/kernels/ verifies and emits, and on an OpenCL device both the generated
and the hand-written kernel of each case compute what numpy computes (small
sizes, no timing). The device tests are skipped, with the reason, when
pyopencl or an OpenCL device is missing (`XGPU_DEVICE` /
`XGPU_OPENCL_DEVICE` pick one)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "kernels.py"


def _load_bench():
    spec = importlib.util.spec_from_file_location("xgpu_bench_kernels", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bench = _load_bench()


@pytest.mark.parametrize("name", list(bench.CASES))
def test_bench_input_emits(name):
    prog = bench.emit(name)
    case = bench.CASES[name]
    assert case.mlir in prog.kernels
    assert (bench.KERNEL_DIR / f"{case.cl}.cl").is_file()


@pytest.fixture(scope="module")
def env():
    pytest.importorskip("pyopencl", reason="pyopencl is not installed")
    from xgpu.runtime.opencl_device import DeviceError

    try:
        return bench.open_device()
    except DeviceError as err:
        pytest.skip(f"no OpenCL device: {err}")


@pytest.mark.parametrize("name", list(bench.CASES))
def test_bench_kernels_correct(env, name):
    bench.check_case(env, name, small=True)


def test_bench_report_of_two_cases(env):
    """The script's report (one timed run per side, the small sizes): two rows
    per case (generated and checked against the baseline), and the comparison
    of the two reduction orders."""
    import subprocess

    proc = subprocess.run(
        [sys.executable, str(BENCH), "--runs", "1", "--tiny", "--only", "reduce_fold,reduce_tree"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| reduce_")]
    assert [r.split(" | ")[0] for r in rows] == [
        "| reduce_fold: generated (--unchecked)",
        "| reduce_fold: checked (default)",
        "| reduce_tree: generated (--unchecked)",
        "| reduce_tree: checked (default)",
    ]
    assert all(r.count("|") == 7 for r in rows)
    assert "<= 1.1x" in rows[0] and rows[0].rstrip(" |").endswith(("met", "NOT MET"))
    assert "reduction orders on this device, fold / tree (medians): generated " in proc.stdout
