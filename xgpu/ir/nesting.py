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

import queue
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


def _nested_ops(op: Any) -> Any:
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


def walk_ops(root: Any) -> Any:
    """The ops of `root`, `root` first, in the order of xDSL's `root.walk()`
    (each op before the ops of its regions), without one generator per
    nesting level: at depth d xDSL's walk resumes d generators per op, which
    made a walk of 1,000 nested levels quadratic."""
    yield root
    stack = [_nested_ops(root)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
            continue
        yield op
        if op.regions:
            stack.append(_nested_ops(op))


#: region nesting that Python's default stack and recursion limit handle
SHALLOW = 48


def region_depth(op: Any) -> int:
    """How deeply regions nest inside `op` (0: none), found without recursion."""
    deepest = 0
    stack = [(op, 0)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        for region in current.regions:
            for block in region.blocks:
                stack.extend((inner, depth + 1) for inner in block.ops)
    return deepest


def deep_call_for(op: Any, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)`, on a deep stack only when `op` nests regions deeper than
    `SHALLOW` (ordinary programs skip the thread)."""
    if region_depth(op) <= SHALLOW:
        return fn(*args)
    return deep_call(fn, *args)


def on_caller_thread(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` on the thread that called `deep_call` (directly outside
    one). The runtime makes and uses its OpenCL objects there: drivers may tie
    them to a thread (Oclgrind 21.10's --uninitialized crashes when a context
    made on one thread is used on another)."""
    requests = getattr(_state, "requests", None)
    if requests is None:
        return fn(*args)
    box: list[Any] = []
    done = threading.Event()
    requests.put((lambda: fn(*args), box, done))
    done.wait()
    ok, value = box[0]
    if ok:
        return value
    raise value


def deep_call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` on a deep stack (see the module docstring); a
    call made inside another `deep_call` runs directly. While it runs, the
    caller's thread serves `on_caller_thread` requests."""
    if getattr(_state, "deep", False):
        return fn(*args, **kwargs)
    outcome: list[Any] = []
    requests: queue.SimpleQueue = queue.SimpleQueue()

    def target() -> None:
        _state.deep = True
        _state.requests = requests
        try:
            outcome.append((True, fn(*args, **kwargs)))
        except BaseException as err:  # re-raised in the caller's thread
            outcome.append((False, err))
        finally:
            requests.put(None)

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
        while (request := requests.get()) is not None:
            call, box, done = request
            try:
                box.append((True, call()))
            except BaseException as err:
                box.append((False, err))
            done.set()
        thread.join()
    finally:
        sys.setrecursionlimit(old_limit)
    ok, value = outcome[0]
    if ok:
        return value
    raise value
