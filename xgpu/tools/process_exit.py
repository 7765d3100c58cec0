"""How xgpu's commands end: once their work is done and written, at once.

Python's clean-up at exit frees every object one by one (a large module's
ops, attributes and values; the xDSL classes of every dialect loaded) and
runs the OpenCL driver's tear-down (PoCL's takes tens of milliseconds after
a kernel was built). None of it has an effect outside the process once the
output is flushed, so the commands skip it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import NoReturn


def exit_status(code: object) -> int:
    """The status `sys.exit(code)` would end the process with (a message,
    printed to stderr, means 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def run_then_exit(main: Callable[[], object]) -> NoReturn:
    """`main()`, then end the process at once with its status, after flushing
    Python's streams and the C library's (where an OpenCL driver writes the
    kernels' `printf` output). An exception other than SystemExit propagates
    (Python then prints it and exits as usual)."""
    code: object = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    status = exit_status(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    ctypes = sys.modules.get("ctypes")
    if ctypes is not None:  # loaded with an OpenCL driver (through numpy, pyopencl)
        try:
            ctypes.CDLL(None).fflush(None)
        except (OSError, AttributeError):
            pass
    os._exit(status)
