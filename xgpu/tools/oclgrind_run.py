"""`python -m xgpu.tools.oclgrind_run [--reports DIR] [--] XGPU-RUN-ARGS...`: xgpu-run on
Oclgrind, failing on any report of Oclgrind's checks.

It runs

    oclgrind --data-races --uninitialized --check-api --log LOG \\
        python -m xgpu.tools.xgpu_run --device oclgrind XGPU-RUN-ARGS...

Oclgrind (Debian package `oclgrind`) is an OpenCL device simulator: its
launcher preloads its own OpenCL runtime (`liboclgrind-rt.so`) in place of
the ICD loader, so pyopencl sees one platform, "Oclgrind", with one device,
"Oclgrind Simulator", a GPU without unified host memory; `--device oclgrind`
makes sure nothing else runs. Its kernel reports (data races, uninitialized
values, out-of-bounds accesses) go to LOG; its API reports ("Oclgrind - OpenCL
runtime error detected") go to the program's standard error.

pyopencl itself queries `CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV` (0x4000),
which Oclgrind does not know: once when it builds a program
(`pyopencl.characterize.has_src_build_cache`) and once per kernel it creates
(`pyopencl.invoker`'s argument-size check). Each query is reported as
`ALLOWED_REPORT`, word for word; those reports are dropped, any other is a
report of the run. xgpu-run's own standard output and error pass through.

Exit status: xgpu-run's, or 3 when Oclgrind reported something (printed to
standard error after a line `xgpu-oclgrind: N Oclgrind reports:`). With
`--reports DIR` the reports are also written to a file in DIR and the exit
status is xgpu-run's (for lit tests that expect a failing run: the caller
checks DIR).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

OCLGRIND_FLAGS = ("--data-races", "--uninitialized", "--check-api")

#: what pyopencl's own `CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV` queries make
#: `oclgrind --check-api` print (the one report that is not xgpu's)
ALLOWED_REPORT = (
    "\nOclgrind - OpenCL runtime error detected\n"
    "\tFunction: clGetDeviceInfo\n"
    "\tError:    CL_INVALID_VALUE\n"
    "\tFor argument 'param_name'\n"
    "\n"
)

_API_REPORT = re.compile(r"\nOclgrind - [^\n]*(?:\n[^\n]+)*\n\n?")
_LAUNCHER_LINE = re.compile(r"^\[Oclgrind\].*\n?", re.M)


def find_oclgrind() -> str | None:
    """The `oclgrind` launcher (`$XGPU_OCLGRIND`, else on PATH), or None."""
    explicit = os.environ.get("XGPU_OCLGRIND")
    if explicit:
        return shutil.which(explicit)
    return shutil.which("oclgrind")


@dataclass
class OclgrindRun:
    returncode: int
    stdout: str
    #: xgpu-run's standard error, without Oclgrind's API reports
    stderr: str
    #: every report of Oclgrind's checks but the allowed ones
    reports: list[str] = field(default_factory=list)
    #: how many allowed (pyopencl) reports were dropped
    allowed: int = 0


def split_reports(stderr: str) -> tuple[str, list[str], int]:
    """(stderr without Oclgrind's reports, the reports that are not
    `ALLOWED_REPORT`, how many allowed ones were removed)."""
    allowed = stderr.count(ALLOWED_REPORT)
    rest = stderr.replace(ALLOWED_REPORT, "")
    reports = [m.group(0).strip("\n") for m in _API_REPORT.finditer(rest)]
    rest = _API_REPORT.sub("", rest)
    reports += [m.group(0).strip("\n") for m in _LAUNCHER_LINE.finditer(rest)]
    rest = _LAUNCHER_LINE.sub("", rest)
    return rest, reports, allowed


def run(
    args: Sequence[str],
    oclgrind: str | None = None,
    env: dict[str, str] | None = None,
    timeout: float | None = None,
    capture: bool = True,
) -> OclgrindRun:
    """Run `xgpu-run ARGS` under Oclgrind (see the module docstring)."""
    launcher = oclgrind or find_oclgrind()
    if launcher is None:
        raise FileNotFoundError("oclgrind is not installed (Debian: apt-get install oclgrind)")
    with tempfile.TemporaryDirectory(prefix="xgpu-oclgrind-") as tmp:
        log = os.path.join(tmp, "oclgrind.log")
        command = [
            launcher,
            *OCLGRIND_FLAGS,
            "--log",
            log,
            sys.executable,
            "-m",
            "xgpu.tools.xgpu_run",
            "--device",
            "oclgrind",
            *args,
        ]
        proc = subprocess.run(
            command,
            stdout=subprocess.PIPE if capture else None,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            env=env,
            timeout=timeout,
        )
        try:
            with open(log, encoding="utf-8", errors="replace") as f:
                kernel_log = f.read()
        except OSError:
            kernel_log = ""
    stderr, reports, allowed = split_reports(proc.stderr)
    if kernel_log.strip():
        reports += [b.strip("\n") for b in re.split(r"\n\s*\n(?=\S)", kernel_log) if b.strip()]
    return OclgrindRun(proc.returncode, proc.stdout or "", stderr, reports, allowed)


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    reports_dir = None
    if argv[:1] == ["--reports"] and len(argv) > 1:
        reports_dir = argv[1]
        argv = argv[2:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    try:
        result = run(argv, capture=False)
    except FileNotFoundError as err:
        print(f"xgpu-oclgrind: error: {err}", file=sys.stderr)
        sys.exit(1)
    sys.stderr.write(result.stderr)
    if not result.reports:
        sys.exit(result.returncode)
    text = "\n\n".join(result.reports)
    print(f"xgpu-oclgrind: {len(result.reports)} Oclgrind reports:\n{text}", file=sys.stderr)
    if reports_dir is not None:
        os.makedirs(reports_dir, exist_ok=True)
        fd, path = tempfile.mkstemp(prefix="reports-", suffix=".txt", dir=reports_dir)
        with os.fdopen(fd, "w") as f:
            f.write(f"xgpu-run {' '.join(argv)}\n{text}\n")
        sys.exit(result.returncode)
    sys.exit(3)


if __name__ == "__main__":
    main()
