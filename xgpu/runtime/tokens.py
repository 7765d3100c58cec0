"""`!gpu.async.token` values as OpenCL events.

A token is a tuple of `cl.Event`: the device commands that must complete
before whatever depends on the token may start. All commands go to one
out-of-order queue (see `opencl_device`), so the wait list of a command is
the only thing that orders it after other device work:

- an async op (`gpu.launch_func async [%a, %b]`, `gpu.memcpy async`, ...) is
  enqueued with `wait_for = %a + %b` and its token is `(its event,)`;
- `gpu.wait async` without dependencies is `()`: no work, already complete;
- `%t = gpu.wait async [%a, %b]` is the union of the event lists: nothing is
  enqueued (MLIR documents the token as a shortcut to the argument list);
- ops that enqueue nothing (`gpu.alloc async`, `gpu.dealloc async`) return
  the union of their dependencies;
- a blocking `gpu.wait [%a, %b]` waits for those events on the host; a plain
  `gpu.wait` waits for the whole queue.

No marker or barrier is ever enqueued on the out-of-order queue in the normal
path (on PoCL each costs 65-92 us against 1.5-3.5 us for a launch). A token
that a loop keeps joining grows one event per iteration; when a union holds
more than `PRUNE_AT` events, events already complete are dropped, and if
still more than `COLLAPSE_AT` remain, one marker that waits for them replaces
them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pyopencl as cl

Token = tuple  # tuple[cl.Event, ...]

EMPTY: Token = ()
PRUNE_AT = 16
COLLAPSE_AT = 64
_COMPLETE = cl.command_execution_status.COMPLETE


def union(*tokens: Token) -> Token:
    """The events of all `tokens`, each once, in first-seen order."""
    merged: dict[cl.Event, None] = {}
    for token in tokens:
        for event in token:
            merged[event] = None
    return tuple(merged)


def prune(token: Token, queue: cl.CommandQueue) -> Token:
    """`token` without the events that are complete (collapsed into one marker
    when too many are still pending)."""
    live = tuple(e for e in token if e.command_execution_status != _COMPLETE)
    if len(live) > COLLAPSE_AT:
        return (cl.enqueue_marker(queue, wait_for=list(live)),)
    return live


class TokenOps:
    """The token operations of one run, bound to its queue and tracer, and to
    its `watch.Watch` (deadlines and the bounds-check record) when it has one."""

    def __init__(
        self,
        queue: cl.CommandQueue,
        on_wait: Callable[[str, int, int], None] | None,
        watch: Any = None,
    ):
        self.queue = queue
        self.on_wait = on_wait
        self.watch = watch

    def join(self, *tokens: Token) -> Token:
        """`gpu.wait async [tokens...]`."""
        merged = union(*tokens)
        if len(merged) > PRUNE_AT:
            merged = prune(merged, self.queue)
        return merged

    def wait(self, token: Token, what: str = "gpu.wait") -> None:
        """Block the host until the events of `token` are complete."""
        if not token:
            return
        watch = self.watch
        start = time.perf_counter_ns() if self.on_wait is not None else 0
        if watch is None:
            cl.wait_for_events(list(token))
        else:
            watch.wait(list(token))
        if self.on_wait is not None:
            self.on_wait(what, start, time.perf_counter_ns())
        if watch is not None:
            watch.check()

    def wait_all(self, what: str = "gpu.wait") -> None:
        """A blocking `gpu.wait` without operands: all device work."""
        start = time.perf_counter_ns() if self.on_wait is not None else 0
        if self.watch is None:
            self.queue.finish()
        else:
            self.watch.finish()
        if self.on_wait is not None:
            self.on_wait(what, start, time.perf_counter_ns())
