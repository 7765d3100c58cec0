"""xgpu-opt and xgpu-run end at once when done (`xgpu.tools.process_exit`):
what they print still arrives whole, through a pipe, in order; the exit
status is the one `main` gives; a trace file is complete."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from devices import BACKENDS, needs_opencl

from xgpu.tools.process_exit import exit_status

PRINTS = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @say(%x: i32) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        gpu.printf "device %d\\n", %x : i32
      }
      gpu.return
    }
  }
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c3 step %c1 {
      %i64 = arith.index_cast %i : index to i64
      call @printI64(%i64) : (i64) -> ()
      call @printNewline() : () -> ()
      %i32 = arith.index_cast %i : index to i32
      gpu.launch_func @k::@say blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%i32 : i32)
    }
    return
  }
}
"""


def _tool(module: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_exit_status_as_sys_exit_gives():
    assert exit_status(None) == 0
    assert exit_status(3) == 3
    assert exit_status(256 + 2) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_output_through_a_pipe_is_whole_and_in_order(backend, tmp_path):
    f = tmp_path / "prints.mlir"
    f.write_text(PRINTS)
    run = _tool("xgpu.tools.xgpu_run", str(f), "--backend", backend)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["0", "device 0", "1", "device 1", "2", "device 2"]


def test_run_errors_give_status_1(tmp_path):
    f = tmp_path / "bad.mlir"
    f.write_text("func.func @main() {\n  return\n}\n")
    run = _tool("xgpu.tools.xgpu_run", str(f), "--entry", "missing")
    assert run.returncode == 1
    assert run.stderr == "xgpu-run: error: no function @missing to run\n"
    usage = _tool("xgpu.tools.xgpu_run", str(f), "--seed", "1")
    assert usage.returncode == 2
    assert "--seed needs --backend sim" in usage.stderr


@needs_opencl
def test_run_trace_file_is_complete(tmp_path):
    f = tmp_path / "prints.mlir"
    f.write_text(PRINTS)
    trace = tmp_path / "trace.json"
    run = _tool("xgpu.tools.xgpu_run", str(f), "--trace", str(trace))
    assert run.returncode == 0, run.stderr
    events = json.loads(trace.read_text())
    assert events


def test_opt_output_file_and_status(tmp_path):
    out = tmp_path / "out.mlir"
    ok = _tool("xgpu.tools.xgpu_opt", "-o", str(out), stdin="func.func @f() {\n  return\n}\n")
    assert ok.returncode == 0, ok.stderr
    assert "func.func @f()" in out.read_text()
    bad = _tool("xgpu.tools.xgpu_opt", stdin="func.func @f() {\n")
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert "error:" in bad.stderr
