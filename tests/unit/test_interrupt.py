"""Ctrl-C during a run (`xgpu.runtime.interrupt`): xgpu-run ends with status
130 and one line naming what was running, without a traceback; `xgpu.run`
lets the KeyboardInterrupt propagate and the device stays usable.

The process tests start xgpu-run with its stderr on a pseudo-terminal and
wait for its progress line (`xgpu.runtime.progress`), shown once the run has
lasted 2 s: the long op is then running for sure. They then send SIGINT.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import xgpu
from xgpu.runtime.opencl_device import has_device
from xgpu.tools.xgpu_run import main

#: a kernel that spins forever (an atomic read of a 0 that nobody changes)
SPIN = """\
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @spin(%a: memref<4xi32>) kernel {
      %z = arith.constant 0 : index
      %c0 = arith.constant 0 : i32
      scf.while : () -> () {
        %v = memref.atomic_rmw addi %c0, %a[%z] : (i32, memref<4xi32>) -> i32
        %go = arith.cmpi eq, %v, %c0 : i32
        scf.condition(%go)
      } do {
        scf.yield
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %d = gpu.alloc () : memref<4xi32>
    gpu.memset %d, %zero : memref<4xi32>, i32
    gpu.launch_func @m::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xi32>)
    return
  }
}
"""

#: host code that loops forever
HOST_LOOP = """\
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi sge, %i, %c0 : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %n = arith.addi %j, %c1 : index
    %m = arith.remui %n, %c1 : index
    scf.yield %m : index
  }
  return
}
"""


def _read_until(fd: int, needle: str, seen: str, limit_s: float = 120.0) -> str:
    """Read the pseudo-terminal until `needle` shows (or it closes); `limit_s`
    only keeps a broken run from hanging the test."""
    import time

    end = time.monotonic() + limit_s
    while needle not in seen and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        seen += chunk.decode("utf-8", "replace")
    return seen


def _interrupt(tmp_path: Path, text: str, *flags: str) -> tuple[int, str]:
    """xgpu-run on `text`, interrupted once its progress line shows: (status,
    what it wrote to stderr)."""
    prog = tmp_path / "long.mlir"
    prog.write_text(text)
    master, slave = pty.openpty()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "xgpu.tools.xgpu_run", str(prog), *flags],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=slave,
        env=env,
    )
    os.close(slave)
    try:
        seen = _read_until(master, "\rxgpu-run: ", "")
        seen = _read_until(master, " s", seen)
        assert "\rxgpu-run: " in seen, seen
        proc.send_signal(signal.SIGINT)
        seen = _read_until(master, "\n", seen[seen.index("\rxgpu-run: ") :])
        seen = _read_until(master, "\x00never", seen)  # to the end
        status = proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return status, seen.replace("\r\n", "\n")


def _check(status: int, err: str, message: str) -> None:
    assert status == 130, err
    assert "Traceback" not in err
    # The progress line was cleared (spaces, back to the start) before the message.
    line = err[: err.index("xgpu-run: interrupted")]
    assert line.startswith("\rxgpu-run: ") and line.endswith(" \r"), repr(line)
    assert err[err.index("xgpu-run: interrupted") :] == message + "\n"


def test_ctrl_c_in_a_simulated_kernel(tmp_path):
    status, err = _interrupt(tmp_path, SPIN, "--backend", "sim", "--timeout", "0")
    prog = tmp_path / "long.mlir"
    _check(
        status,
        err,
        f"xgpu-run: interrupted while running 'gpu.launch_func @m::@spin' at {prog}:21:5",
    )
    # The simulator's line counts work-items.
    assert "work-items simulated" in err


@pytest.mark.skipif(not has_device(), reason="no OpenCL device")
@pytest.mark.parametrize("flags", [(), ("--timeout", "0")])
def test_ctrl_c_in_an_opencl_kernel(tmp_path, flags):
    # Without a timeout too: xgpu-run's waits poll the device.
    status, err = _interrupt(tmp_path, SPIN, *flags)
    prog = tmp_path / "long.mlir"
    _check(
        status,
        err,
        f"xgpu-run: interrupted while running 'gpu.launch_func @m::@spin' at {prog}:21:5",
    )


def test_ctrl_c_in_host_code(tmp_path):
    status, err = _interrupt(tmp_path, HOST_LOOP, "--backend", "sim")
    prog = tmp_path / "long.mlir"
    assert status == 130 and "Traceback" not in err
    # Any op of the loop (the interrupt lands between two of them).
    tail = err[err.index("xgpu-run: interrupted") :]
    assert tail.startswith("xgpu-run: interrupted while running '"), tail
    line = int(tail.split(f" at {prog}:")[1].split(":")[0])
    assert 4 <= line <= 11, tail


def test_quiet_turns_the_progress_line_off(tmp_path, capfd, monkeypatch):
    # Whatever stderr is: with --quiet the run does not even count launches.
    from xgpu.runtime import api

    monkeypatch.setattr(api, "is_terminal", lambda stream: True)
    made = []
    real_init = api.Runner.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        made.append(self.show_progress)

    monkeypatch.setattr(api.Runner, "__init__", init)
    prog = tmp_path / "p.mlir"
    prog.write_text("func.func @main() {\n  return\n}\n")
    for flags, shown in (((), True), (("--quiet",), False), (("-q",), False)):
        with pytest.raises(SystemExit) as info:
            main([str(prog), *flags])
        assert info.value.code == 0
        assert made.pop() is shown
    capfd.readouterr()


# -- in process: an interrupt raised by the program's own output ---------------

PRINTS = """\
func.func private @printI64(i64)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = arith.index_cast %i : index to i64
    func.call @printI64(%v) : (i64) -> ()
  }
  return
}
"""


class _Interrupting:
    """A stdout whose second write is a Ctrl-C."""

    def __init__(self) -> None:
        self.writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        if self.writes == 2:
            raise KeyboardInterrupt
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("backend", ["sim", "opencl"])
def test_the_api_lets_the_interrupt_propagate(backend):
    if backend == "opencl" and not has_device():
        pytest.skip("no OpenCL device")
    with pytest.raises(KeyboardInterrupt) as info:
        xgpu.run(PRINTS, backend=backend, stdout=_Interrupting(), name="p.mlir")
    assert info.value.xgpu_running == "'func.call @printI64' at p.mlir:8:5"
    # The device is left usable: the next run works.
    assert xgpu.run(QUICK, backend=backend) == 7


QUICK = """\
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xi32>) kernel {
      gpu.return
    }
  }
  func.func @main() -> i32 {
    %c1 = arith.constant 1 : index
    %seven = arith.constant 7 : i32
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xi32>)
    gpu.dealloc %d : memref<4xi32>
    return %seven : i32
  }
}
"""


def test_xgpu_run_reports_the_interrupted_op(tmp_path, capfd, monkeypatch):
    prog = tmp_path / "p.mlir"
    prog.write_text(PRINTS)
    from xgpu.runtime import runner_utils

    real = runner_utils.RunnerUtils.functions

    def functions(self):
        table = real(self)
        table["printI64"] = lambda v: (_ for _ in ()).throw(KeyboardInterrupt)
        return table

    monkeypatch.setattr(runner_utils.RunnerUtils, "functions", functions)
    with pytest.raises(SystemExit) as info:
        main([str(prog), "--backend", "sim"])
    out, err = capfd.readouterr()
    assert info.value.code == 130
    assert err == f"xgpu-run: interrupted while running 'func.call @printI64' at {prog}:8:5\n"


def test_ctrl_c_outside_the_run_is_a_message_too(tmp_path, capfd, monkeypatch):
    # Before the run (reading, compiling) or after it (printing the results).
    from xgpu.tools import xgpu_run

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(xgpu_run, "run_file", interrupted)
    with pytest.raises(SystemExit) as info:
        main([str(tmp_path / "any.mlir")])
    assert info.value.code == 130
    assert capfd.readouterr().err == "xgpu-run: interrupted\n"
