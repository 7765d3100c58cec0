"""lit's forked tools (tests/filecheck/lit_inprocess.py) give what a new
process gives: stdout, stderr and exit status, from a file, from stdin, in a
pipeline, with a parse error and with a bad flag."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "filecheck"))
import lit_inprocess  # noqa: E402

BIN = os.path.dirname(sys.executable)
GOOD = """module attributes {gpu.container_module} {
  func.func @main() {
    %t = gpu.wait async
    gpu.wait [%t]
    return
  }
}
"""
BAD = 'func.func @f() {\n  %x = "arith.constant"() : () -> i32\n  return\n}\n'


# The forked side runs in a new interpreter: a test worker that has started
# OpenCL (or threads) is not forked, and would compare two processes.
_FORKED = """
import json, os, subprocess, sys
sys.path.insert(0, {filecheck!r})
import lit_inprocess
args, stdin_text, cwd = json.loads(sys.argv[1])
proc = lit_inprocess._popen(
    args, executable=os.path.join({bin!r}, args[0]), cwd=cwd, stdin=subprocess.PIPE,
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ),
    universal_newlines=True, errors="replace",
)
assert isinstance(proc, lit_inprocess.ForkedProcess), type(proc)
if stdin_text is not None:
    proc.stdin.write(stdin_text)
proc.stdin.close()
proc.stdin = None
out, err = proc.communicate()
print(json.dumps([proc.wait(), out, err]))
"""


def _both(args: list[str], stdin_text: str | None, tmp_path: Path) -> tuple:
    code = _FORKED.format(filecheck=str(Path(lit_inprocess.__file__).parent), bin=BIN)
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps([args, stdin_text, str(tmp_path)])],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    forked = tuple(json.loads(done.stdout))
    real = subprocess.run(
        args,
        executable=os.path.join(BIN, args[0]),
        cwd=str(tmp_path),
        input=stdin_text or "",
        capture_output=True,
        text=True,
        errors="replace",
    )
    return forked, (real.returncode, real.stdout, real.stderr)


@pytest.mark.parametrize(
    "args, stdin_text",
    [
        (["xgpu-opt", "good.mlir"], None),
        (["xgpu-opt", "bad.mlir"], None),
        (["xgpu-opt", "-", "--mlir-style"], GOOD),
        (["xgpu-opt", "--no-such-flag", "good.mlir"], None),
        (["xgpu-opt", "good.mlir", "-p", "canonicalize", "-o", "out.mlir"], None),
        (["xgpu-run", "good.mlir"], None),
        (["filecheck", "good.mlir", "--check-prefix=NONE"], GOOD),
    ],
)
def test_forked_tool_gives_what_a_process_gives(tmp_path, args, stdin_text):
    (tmp_path / "good.mlir").write_text(GOOD)
    (tmp_path / "bad.mlir").write_text(BAD)
    forked, real = _both(args, stdin_text, tmp_path)
    assert forked == real
    if "bad.mlir" in args:
        assert real[0] == 1 and "bad.mlir:2" in real[2]


def test_pipeline_of_forked_tools(tmp_path):
    (tmp_path / "good.mlir").write_text(GOOD)
    first = lit_inprocess._popen(
        ["xgpu-opt", "good.mlir", "--mlir-print-op-generic"],
        executable=os.path.join(BIN, "xgpu-opt"),
        cwd=str(tmp_path),
        stdin=None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
        errors="replace",
    )
    second = lit_inprocess._popen(
        ["xgpu-opt", "-"],
        executable=os.path.join(BIN, "xgpu-opt"),
        cwd=str(tmp_path),
        stdin=first.stdout,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
        errors="replace",
    )
    out, err = second.communicate()
    assert first.wait() == 0 and second.wait() == 0, err
    # (real processes where this worker cannot fork: the same output either way)
    assert "gpu.wait async" in out and err == ""


def test_other_commands_and_unforkable_workers_get_real_processes():
    proc = lit_inprocess._popen(["true"], executable="/bin/true", stdout=subprocess.PIPE)
    assert isinstance(proc, subprocess.Popen)
    proc.communicate()
    assert lit_inprocess._target(["python3", "/usr/lib/x.py"], sys.executable) is None
