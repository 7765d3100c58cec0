"""Several xgpu-run commands in one Oclgrind process.

Each `oclgrind ... python` process costs about 1.5 s of CPU before the
program runs (the launcher preloads Oclgrind's runtime and its LLVM); the
zoo's programs need no process of their own, so `run_batch` runs
`oclgrind_run.OCLGRIND_FLAGS` once over this file as a script, which calls
xgpu-run's `main()` on each argument list in turn and writes, after each, a
marker line with its exit status to standard output and standard error
(both flushed first, C's stdio too: Oclgrind prints a kernel's printf
through it) and the size its log has reached. Each command's share of the
three streams is then split as `oclgrind_run.run` splits one process's: the
result of a command is what `oclgrind_run.run` would give for it alone. Log
text not yet written when a command's marker was (none is expected) counts
against every command of the batch.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence

MARK = "@@xgpu-oclgrind-batch"
_MARK_LINE = re.compile(rf"{MARK} (\d+) (-?\d+) (\d+)@@\n")


def run_batch(
    commands: Sequence[Sequence[str]], oclgrind: str, timeout: float | None = None
) -> list:
    """One `OclgrindRun` per command (xgpu-run arguments, `--device oclgrind`
    added), from one Oclgrind process."""
    from xgpu.tools import oclgrind_run

    with tempfile.TemporaryDirectory(prefix="xgpu-oclgrind-batch-") as tmp:
        log = os.path.join(tmp, "oclgrind.log")
        proc = subprocess.run(
            [
                oclgrind,
                *oclgrind_run.OCLGRIND_FLAGS,
                "--log",
                log,
                sys.executable,
                __file__,
                log,
                json.dumps([list(c) for c in commands]),
            ],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
        )
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                kernel_log = f.read()
        except OSError:
            kernel_log = ""
    outs = _MARK_LINE.split(proc.stdout)
    errs = _MARK_LINE.split(proc.stderr)
    # [text, i, rc, log size, text, i, rc, log size, ..., tail]
    done = len(outs) // 4
    assert done == len(commands) and len(errs) // 4 == done, (
        f"the batch stopped after {done} of {len(commands)} commands "
        f"(exit {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    )
    late = kernel_log[int(outs[-2]) :] + outs[-1] + errs[-1]
    results = []
    start = 0
    for k in range(done):
        out, rc, size = outs[4 * k], int(outs[4 * k + 2]), int(outs[4 * k + 3])
        stderr, reports, allowed = oclgrind_run.split_reports(errs[4 * k])
        chunk = kernel_log[start:size]
        start = size
        for text in (chunk, late):
            if text.strip():
                reports += [b.strip("\n") for b in re.split(r"\n\s*\n(?=\S)", text) if b.strip()]
        results.append(oclgrind_run.OclgrindRun(rc, out, stderr, reports, allowed))
    return results


def _main(log: str, commands: list[list[str]]) -> None:
    import ctypes

    from xgpu.tools.xgpu_run import main

    libc = ctypes.CDLL(None)
    for i, args in enumerate(commands):
        try:
            main(["--device", "oclgrind", *args])
            rc = 0
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        sys.stdout.flush()
        sys.stderr.flush()
        libc.fflush(None)
        size = os.path.getsize(log) if os.path.exists(log) else 0
        for stream in (sys.stdout, sys.stderr):
            stream.write(f"{MARK} {i} {rc} {size}@@\n")
            stream.flush()


if __name__ == "__main__":
    _main(sys.argv[1], json.loads(sys.argv[2]))
