"""Ctrl-C during a run: what was running, and the device left consistent.

`Runner.call` lets a `KeyboardInterrupt` propagate (for `xgpu.run` too),
after `settle` and with `running_text(...)` stored on it as `xgpu_running`
(`'gpu.launch_func @m::@k' at prog.mlir:83:12`), which `xgpu-run` prints as
`xgpu-run: interrupted while running ...` before it exits with status 130.

What was running is, in this order: the GPU op the simulator was running
(`Scheduler.current`, else the first kernel that spins, between its steps); on OpenCL, when the host was blocked waiting
for the device, the launch the device runs (`Watch.running_site`); else the
innermost op of host code the interrupt reached (the frames of the
generated host code map to their ops, `HostProgram.op_at`); else the entry
function.

`settle`: the OpenCL queue is flushed, and if device work is still running
the device's context is marked busy (`DeviceContext.hung`), as after a
timeout: OpenCL cannot stop a kernel, and a later run on that device in this
process gets an error instead of waiting behind it.
"""

from __future__ import annotations

import traceback
from typing import Any

from xdsl.ir import Operation

from xgpu.diagnostics import location_of, op_name, symbol_text

#: seconds `settle` waits for the device's work to end
SETTLE_SECONDS = 1.0


def op_label(op: Operation) -> str:
    """`gpu.launch_func @m::@k`, `func.call @f`, else the op's name."""
    name = op_name(op)
    if name == "gpu.launch_func":
        ref = op.kernel
        parts = [ref.root_reference.data, *(r.data for r in ref.nested_references.data)]
        return f"{name} {'::'.join(symbol_text(p) for p in parts)}"
    if name == "func.call":
        return f"{name} {symbol_text(op.callee.root_reference.data)}"
    return name


def op_text(op: Operation) -> str:
    """`'LABEL' at FILE:LINE:COL` (the location when the op has one)."""
    loc = location_of(op)
    return f"'{op_label(op)}'" + (f" at {loc}" if loc is not None else "")


def _host_op(program: Any, err: BaseException) -> Operation | None:
    """The innermost op of the generated host code in `err`'s traceback."""
    op = None
    for frame, line in traceback.walk_tb(err.__traceback__):
        if frame.f_code.co_filename == program.filename:
            found = program.op_at(line)
            if found is not None:
                op = found
    return op


def running_text(program: Any, gpu: Any, err: BaseException, entry: str) -> str:
    """What was running when `err` (a KeyboardInterrupt) came (see the module
    docstring)."""
    host = _host_op(program, err)
    scheduler = getattr(gpu, "scheduler", None)
    task = getattr(scheduler, "current", None)
    if task is None and getattr(scheduler, "running", None):
        task = scheduler.running[0]  # between two steps of a kernel that spins
    if task is not None and getattr(task, "op", None) is not None:
        return op_text(task.op)
    watch = getattr(gpu, "watch", None)
    if watch is not None and host is not None and _waits(host):
        site = watch.running_site()
        if site is not None:
            return op_text(site.op)
    if host is not None:
        return op_text(host)
    return f"the function {symbol_text(entry)}"


def _waits(op: Operation) -> bool:
    """Whether the host may block at `op` for device work."""
    name = op_name(op)
    return name.startswith("gpu.") or name == "func.call"


def settle(gpu: Any) -> None:
    """Leave an interrupted run's device consistent (module docstring)."""
    queue = getattr(gpu, "queue", None)
    if queue is None:
        return
    import time

    import pyopencl as cl

    try:
        queue.flush()
        marker = cl.enqueue_marker(queue)
        queue.flush()
        # Work that is about to end (or none, the marker then completes at
        # once) gets a second.
        deadline = time.monotonic() + SETTLE_SECONDS
        while True:
            busy = marker.command_execution_status != cl.command_execution_status.COMPLETE
            if not busy or time.monotonic() > deadline:
                break
            time.sleep(0.002)
    except cl.Error:
        busy = True
    if busy and gpu.dctx.hung is None:
        gpu.dctx.hung = "a run was interrupted while the device ran its work"
