"""The simulator (`xgpu-run --backend sim`): same output as OpenCL on the whole
zoo and on the kernel-feature programs of tests/runtime/sim/, clean under
the race detector with any schedule, scheduling that follows dependencies
only, and the detector's reports through the Python API."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from devices import needs_opencl

from xgpu.runtime.api import RunError, run

ROOT = Path(__file__).resolve().parents[2]
ZOO = sorted((ROOT / "tests" / "runtime" / "zoo").glob("*.mlir")) + [
    ROOT / "examples" / "forum_run.mlir"
]
FEATURES = sorted((ROOT / "tests" / "runtime" / "sim").glob("*.mlir"))


def _output(capfd, path: Path, **options) -> str:
    capfd.readouterr()
    run(path.read_text(), name=str(path), **options)
    out, err = capfd.readouterr()
    assert "error" not in err.lower(), err
    # The address of an allocation differs from run to run.
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = 0x?", out)


@needs_opencl
@pytest.mark.parametrize("path", ZOO, ids=[p.stem for p in ZOO])
def test_zoo_same_output_as_opencl(path: Path, capfd):
    sim = _output(capfd, path, backend="sim")
    opencl = _output(capfd, path)
    assert sim == opencl
    assert sim.strip(), "the program prints nothing"


@pytest.mark.parametrize("path", ZOO, ids=[p.stem for p in ZOO])
def test_zoo_race_free_under_random_schedules(path: Path, capfd):
    expected = _output(capfd, path, backend="sim")
    for seed in (1, 2, 3):
        got = _output(capfd, path, backend="sim", detect_races=True, schedule="random", seed=seed)
        assert got == expected, f"seed {seed}"


@needs_opencl
@pytest.mark.parametrize("path", FEATURES, ids=[p.stem for p in FEATURES])
@pytest.mark.parametrize("subgroup_size", [8, 32])
def test_kernel_features_same_output_as_opencl(path: Path, subgroup_size: int, capfd):
    sim = _output(capfd, path, backend="sim", subgroup_size=subgroup_size, detect_races=True)
    opencl = _output(capfd, path, subgroup_size=subgroup_size)
    assert sim == opencl


RACY = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%m: memref<4xi32>, %v: i32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %m[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main(%out: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1 : i32
    %two = arith.constant 2 : i32
    %t0 = gpu.wait async
    %d, %ta = gpu.alloc async [%t0] () : memref<4xi32>
    %t1 = gpu.launch_func async [%ta] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %one : i32)
    %t2 = gpu.launch_func async [%ta] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>, %two : i32)
    %t3 = gpu.memcpy async [%t1, %t2] %out, %d : memref<4xi32>, memref<4xi32>
    gpu.wait [%t3]
    return
  }
}
"""


def _racy(**options) -> int:
    out = np.zeros(4, dtype=np.int32)
    run(RACY, args=[out], backend="sim", **options)
    assert len(set(out.tolist())) == 1
    return int(out[0])


def test_random_schedule_changes_an_output_that_misses_a_dependency():
    # Program order: the second launch runs last.
    assert _racy() == 2
    outcomes = {_racy(schedule="random", seed=seed) for seed in range(12)}
    assert outcomes == {1, 2}
    # A seed is a schedule: the same seed, the same output.
    assert _racy(schedule="random", seed=5) == _racy(schedule="random", seed=5)


def test_the_race_detector_reports_the_missing_dependency():
    with pytest.raises(RunError) as info:
        _racy(detect_races=True)
    messages = [d.message for d in info.value.diagnostics]
    assert len(messages) == 1, messages
    assert messages[0].startswith("data race: memref.store by work-item (0, 0, 0)")
    assert (
        "no async dependency orders gpu.launch_func @k::@fill and gpu.launch_func" in (messages[0])
    )
    note = info.value.diagnostic.notes[0]
    assert note.message.startswith("the other access: memref.store")
    # Both accesses are the store of @fill (line 6 of the text).
    assert info.value.diagnostic.location.line == 6
    assert note.location.line == 6
    # With the dependency, no report.
    fixed = RACY.replace("%t2 = gpu.launch_func async [%ta]", "%t2 = gpu.launch_func async [%t1]")
    out = np.zeros(4, dtype=np.int32)
    run(fixed, args=[out], backend="sim", detect_races=True, schedule="random", seed=3)
    assert out.tolist() == [2, 2, 2, 2]


def test_unknown_schedule_and_backend_are_errors():
    with pytest.raises(ValueError, match="unknown backend"):
        run(RACY, args=[np.zeros(4, np.int32)], backend="cuda")
    with pytest.raises(RunError, match="unknown schedule"):
        run(RACY, args=[np.zeros(4, np.int32)], backend="sim", schedule="lifo")


def test_results_of_device_memory_are_read_back():
    text = """
    func.func @main() -> memref<3xf32> {
      %v = arith.constant 1.5 : f32
      %d = gpu.alloc () : memref<3xf32>
      gpu.memset %d, %v : memref<3xf32>, f32
      return %d : memref<3xf32>
    }
    """
    assert run(text, backend="sim").tolist() == [1.5, 1.5, 1.5]


def test_the_simulator_does_not_need_pyopencl():
    # A machine without an OpenCL platform (or without pyopencl) still runs
    # programs on the simulator: pyopencl is never imported.
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyopencl'] = None\n"
        "from xgpu.runtime.api import run\n"
        f"run(open({str(ZOO[0])!r}).read(), backend='sim', detect_races=True)\n"
        "print('ran')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ran")
