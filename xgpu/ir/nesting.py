"""How deeply regions may nest, and the stack the recursive passes over IR get.

xDSL's parser, printer, verifier and walks recurse once (a few Python frames)
per level of region nesting, so with Python's default recursion limit (1,000
frames) a program with a few hundred nested `scf.for` is out of reach, while
MLIR parses it. The tools therefore:

- run the recursive work (parse, verify, passes, print, code generation) in
  `deep_call`: a thread with a large stack (`STACK_BYTES`, reserved address
  space, not memory) and a recursion limit that covers `MAX_NESTING` levels
  with room to spare;
- accept at most `MAX_NESTING` nested regions: the parser reports an error at
  the region that goes deeper (`nesting_error`), instead of running out of
  stack (mlir-opt 22 itself crashes with a stack overflow a little under
  3,000 levels on an 8 MiB stack).

Code generated from IR (host Python, simulated kernels, OpenCL C) is kept
flat separately, see `xgpu.runtime.flat`.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

#: the deepest region nesting the tools accept
MAX_NESTING = 4096
#: Python frames allowed in `deep_call` (about 10 per nesting level are used)
RECURSION_LIMIT = 64 * MAX_NESTING
#: the stack of a `deep_call` thread
STACK_BYTES = 1 << 30

T = TypeVar("T")

_state = threading.local()


#: what a tool reports when the IR recursion still runs past the limit
#: (attributes or types nested tens of thousands deep, IR built in Python)
TOO_DEEP = "nested too deeply for xgpu (Python recursion limit)"


def nesting_error() -> str:
    return f"regions are nested more than {MAX_NESTING} levels deep (xgpu's limit)"


def deep_call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` on a deep stack (see the module docstring); a
    call made inside another `deep_call` runs directly."""
    if getattr(_state, "deep", False):
        return fn(*args, **kwargs)
    outcome: list[Any] = []

    def target() -> None:
        _state.deep = True
        try:
            outcome.append((True, fn(*args, **kwargs)))
        except BaseException as err:  # re-raised in the caller's thread
            outcome.append((False, err))

    thread = threading.Thread(target=target, name="xgpu-deep", daemon=True)
    old_size = threading.stack_size()
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        try:
            threading.stack_size(STACK_BYTES)
            try:
                thread.start()
            finally:
                threading.stack_size(old_size)
        except (ValueError, RuntimeError):  # pragma: no cover - no such stack here
            sys.setrecursionlimit(old_limit)
            return fn(*args, **kwargs)
        thread.join()
    finally:
        sys.setrecursionlimit(old_limit)
    ok, value = outcome[0]
    if ok:
        return value
    raise value
