"""The kernel and program zoo a second time, on Oclgrind: a strict OpenCL
simulator that reports itself as a GPU without unified host memory.

Every program of tests/runtime/zoo/ and tests/runtime/sim/ and
examples/forum_run.mlir runs under `oclgrind --data-races --uninitialized
--check-api` (`xgpu.tools.oclgrind_run`), and so do the xgpu-run lit tests of
tests/filecheck/runtime/; the programs all in one Oclgrind process
(`oclgrind_batch`: each run with its own streams and reports; a process costs
about 1.5 s of CPU before anything runs). A run passes when its output is the
expected one (the CHECK lines, or PoCL's output for the programs without any) and
Oclgrind reported nothing but pyopencl's own `clGetDeviceInfo` queries of
`CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV`, matched word for word
(`oclgrind_run.ALLOWED_REPORT`). Found by hand with an LD_PRELOAD shim around
Oclgrind's `clGetDeviceInfo`: every such report of a zoo run is that query,
made by `pyopencl.characterize.nv_compute_capability` from `Program.build`
(once per program) and from the kernel constructor's argument-size check
(once per kernel).

Skipped, with the reason, where `oclgrind` is not installed; CI
(`.ci/run`) installs it and sets `XGPU_REQUIRE_OCLGRIND=1`, under which a
missing Oclgrind fails instead.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xgpu.tools import oclgrind_run

sys.path.insert(0, str(Path(__file__).parent))
from oclgrind_batch import run_batch  # noqa: E402
from test_runtime_zoo import check_output  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ZOO = sorted((ROOT / "tests" / "runtime" / "zoo").glob("*.mlir")) + [
    ROOT / "examples" / "forum_run.mlir"
]
FEATURES = sorted((ROOT / "tests" / "runtime" / "sim").glob("*.mlir"))
LIT_TESTS = sorted(
    p
    for p in (ROOT / "tests" / "filecheck" / "runtime").iterdir()
    if p.suffix in (".mlir", ".test")
)

OCLGRIND = oclgrind_run.find_oclgrind()
REQUIRE = os.environ.get("XGPU_REQUIRE_OCLGRIND") == "1"
needs_oclgrind = pytest.mark.skipif(
    OCLGRIND is None and not REQUIRE,
    reason="oclgrind not installed (Debian: apt-get install oclgrind); "
    "XGPU_REQUIRE_OCLGRIND=1 makes this a failure",
)


def _oclgrind() -> str:
    assert OCLGRIND is not None, "XGPU_REQUIRE_OCLGRIND=1 but oclgrind is not installed"
    return OCLGRIND


def _clean(out: str) -> str:
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = 0x?", out)


@pytest.fixture(scope="module")
def batch_runs(tmp_path_factory) -> dict[Path, oclgrind_run.OclgrindRun]:
    """The zoo's and the feature programs' runs, from one Oclgrind process
    (`oclgrind_batch`: each run's streams and reports are its own), with a
    program Oclgrind reports amid them (`test_batch_keeps_reports_apart`)."""
    bad = tmp_path_factory.mktemp("batch") / "uninitialized.mlir"
    bad.write_text(_UNINITIALIZED)
    half = len(ZOO) // 2
    paths = ZOO[:half] + [bad] + ZOO[half:] + FEATURES
    results = run_batch([[str(p)] for p in paths], oclgrind=_oclgrind(), timeout=600)
    return dict(zip(paths, results))


def _batch_run(batch_runs: dict[Path, oclgrind_run.OclgrindRun], path: Path):
    result = batch_runs[path]
    assert not result.reports, "Oclgrind reported:\n" + "\n\n".join(result.reports)
    return result


def test_split_reports_keeps_only_unknown_reports():
    other = (
        "\nOclgrind - OpenCL runtime error detected\n\tFunction: clEnqueueNDRangeKernel\n"
        "\tError:    CL_INVALID_WORK_GROUP_SIZE\n\tFor argument 'local_work_size'\n\n"
    )
    stderr = (
        oclgrind_run.ALLOWED_REPORT
        + "xgpu-run: device: Oclgrind Simulator (Oclgrind Oclgrind 21.10, GPU)\n"
        + oclgrind_run.ALLOWED_REPORT
        + other
        + "[Oclgrind] Failed to launch target application\n"
    )
    rest, reports, allowed = oclgrind_run.split_reports(stderr)
    assert allowed == 2
    assert rest == "xgpu-run: device: Oclgrind Simulator (Oclgrind Oclgrind 21.10, GPU)\n"
    assert reports == [other.strip("\n"), "[Oclgrind] Failed to launch target application"]
    # The same query with another parameter is not pyopencl's: reported.
    changed = oclgrind_run.ALLOWED_REPORT.replace("param_name", "param_value_size")
    assert oclgrind_run.split_reports(changed)[1]


@needs_oclgrind
@pytest.mark.parametrize("path", ZOO, ids=[p.stem for p in ZOO])
def test_zoo_program_on_oclgrind(batch_runs, path: Path):
    result = _batch_run(batch_runs, path)
    assert result.returncode == 0, result.stderr
    assert result.allowed > 0, "pyopencl's queries were not seen: did Oclgrind run?"
    expected = path.with_suffix(".expected")
    if expected.exists():
        assert result.stdout == expected.read_text()
    else:
        check_output(path.read_text(), result.stdout)
    assert result.stderr == "", result.stderr


@needs_oclgrind
@pytest.mark.parametrize("path", FEATURES, ids=[p.stem for p in FEATURES])
def test_feature_program_on_oclgrind(batch_runs, path: Path, capfd: pytest.CaptureFixture[str]):
    from xgpu.runtime.api import run

    capfd.readouterr()
    # Oclgrind is a GPU: it gets the tree reductions, whose order decides
    # non-associative results (the region form of tests/runtime/sim/subgroups).
    run(path.read_text(), name=str(path), reduction="tree")
    on_pocl, _ = capfd.readouterr()
    result = _batch_run(batch_runs, path)
    assert result.returncode == 0, result.stderr
    assert _clean(result.stdout) == _clean(on_pocl)
    assert result.stderr == "", result.stderr


@needs_oclgrind
def test_runtime_lit_tests_on_oclgrind(tmp_path: Path):
    """tests/filecheck/runtime/*: lit with `xgpu-run` running on Oclgrind."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    reports = tmp_path / "reports"
    shim = bin_dir / "xgpu-run"
    shim.write_text(
        "#!/bin/sh\n"
        f"XGPU_OCLGRIND={_oclgrind()} exec {sys.executable} -m xgpu.tools.oclgrind_run "
        f'--reports {reports} -- "$@"\n'
    )
    shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = subprocess.run(
        [sys.executable, "-c", "import lit.main; lit.main.main()", "-v"]
        + [str(p) for p in LIT_TESTS],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Passed: {len(LIT_TESTS)}" in proc.stdout, proc.stdout
    found = sorted(reports.glob("*.txt")) if reports.exists() else []
    assert not found, "\n".join(p.read_text() for p in found)


_UNINITIALIZED = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%dst: memref<4xf32>, %src: memref<4xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %src[%i] : memref<4xf32>
      memref.store %x, %dst[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = gpu.alloc () : memref<4xf32>
    %b = gpu.alloc () : memref<4xf32>
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xf32>, %b : memref<4xf32>)
    return
  }
}
"""

_RACE = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @all_to_one(%m: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %i = gpu.global_id x
      %v = arith.index_cast %i : index to i32
      memref.store %v, %m[%c0] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0 : i32
    %a = gpu.alloc () : memref<4xi32>
    gpu.memset %a, %zero : memref<4xi32>, i32
    gpu.launch_func @k::@all_to_one blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xi32>)
    return
  }
}
"""


@needs_oclgrind
def test_batch_keeps_reports_apart(batch_runs):
    """In the batch, the reports of a kernel reading memory nothing wrote
    are that run's (its neighbours, the zoo's, have none: their own tests)."""
    [bad] = [p for p in batch_runs if p.name == "uninitialized.mlir"]
    result = batch_runs[bad]
    assert result.returncode == 0 and result.allowed > 0
    assert result.reports and all("Uninitialized value" in r for r in result.reports)


@needs_oclgrind
@pytest.mark.parametrize(
    "text, report",
    [(_UNINITIALIZED, "Uninitialized value"), (_RACE, "data race")],
    ids=["uninitialized", "race"],
)
def test_oclgrind_findings_are_reported(tmp_path: Path, text: str, report: str):
    """The check can fail: a kernel reading memory nothing wrote, and
    work-items writing one element, are reported."""
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    result = oclgrind_run.run([str(path)], oclgrind=_oclgrind(), timeout=300)
    assert any(report in r for r in result.reports), result.reports
