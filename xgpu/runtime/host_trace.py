"""The host track of `--trace`: hooks in the generated host code.

Only a traced run gets them (`install`, before the host code is compiled):
otherwise the generated code is what it always is, and tracing costs
nothing. With them:

- each `scf.for` / `scf.while` is timed as a whole: `_tnow()` before it,
  `_tadd(LABEL, "host loop", t, _tnow())` after it; on the simulator
  (`HostTrace.ticks`) each iteration also calls `_ttick()`, one step of
  simulated host time (`xgpu.runtime.sim_trace`);
- each `func.call` (compiled functions and runner utilities) is a "host
  call" slice and each `memref.copy` a "host copy" one;
- a blocking `gpu.wait` passes its label to the runtime's wait, which
  records the "host wait" slice (`TokenOps.wait`, `SimTokens.wait`).

Labels are made here (`scf.for (line 82)`, `func.call @forum (line 106)`),
and the generated code refers to them only by the names `HostCompiler.bind`
gives them: no IR text is written into the generated source.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation

from xgpu.diagnostics import location_of
from xgpu.runtime import flat
from xgpu.runtime.interrupt import op_label
from xgpu.runtime.trace import HostTrace

#: host ops timed as slices, and their category
TIMED = {
    "scf.for": "host loop",
    "scf.while": "host loop",
    "func.call": "host call",
    "memref.copy": "host copy",
}


def slice_label(op: Operation) -> str:
    """`scf.for (line 82)`, `func.call @f (line 9)` (no line: the label alone)."""
    loc = location_of(op)
    label = op_label(op)
    return f"{label} (line {loc.line})" if loc is not None else label


def install(compiler: Any, trace: HostTrace) -> None:
    """Give `compiler` (a `HostCompiler`) the tracing hooks."""
    compiler.ns["_tnow"] = trace.now
    compiler.ns["_tadd"] = trace.add
    handlers = dict(compiler.handlers)
    for name, cat in TIMED.items():
        if name in handlers:
            handlers[name] = _timed(handlers[name], cat)
    if "gpu.wait" in handlers:
        handlers["gpu.wait"] = _labelled_wait(handlers["gpu.wait"])
    compiler.handlers = handlers
    if trace.ticks:
        compiler.ns["_ttick"] = trace.tick
        compiler.loop_top = lambda op: compiler.w("_ttick()")


def _timed(handler: Callable[[Any, Operation], None], cat: str):
    def traced(c: Any, op: Operation) -> None:
        label = c.bind(slice_label(op), "tl")
        start = c.fresh("t")
        c.w(f"{start} = _tnow()", op)
        handler(c, op)
        c.w(f"_tadd({label}, {cat!r}, {start}, _tnow())", op)

    return traced


def _labelled_wait(handler: Callable[[Any, Operation], None]):
    def traced(c: Any, op: Operation) -> None:
        if op.async_token is not None:
            handler(c, op)  # no wait: a token
            return
        from xgpu.runtime.host_gpu import _gpu

        _gpu(c)
        label = c.bind(slice_label(op), "tl")
        deps = c.vs(op.async_dependencies)
        if deps:
            c.w(f"_tok.wait({flat.chain(deps, ' + ')}, {label})", op)
        else:
            c.w(f"_tok.wait_all({label})", op)

    return traced


def new_trace(backend: str) -> HostTrace:
    """The host track of a run: host clock on OpenCL, simulated on the simulator."""
    if backend == "sim":
        from xgpu.runtime.sim_trace import SimTrace

        return SimTrace()
    return HostTrace()


def write(path: str, trace: HostTrace, gpu: Any) -> None:
    """Write the run's trace (`OSError` when it cannot be written); `gpu`:
    the run's runtime, None when the program used no device."""
    from xgpu.runtime.sim_trace import SimTrace

    if isinstance(trace, SimTrace):
        trace.write(path)
        return
    from xgpu.runtime.trace import write_opencl

    tracer = getattr(gpu, "tracer", None)
    device = gpu.dctx.description if gpu is not None else None
    write_opencl(path, trace, tracer, device)
