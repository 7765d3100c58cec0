"""`xgpu-run --trace FILE.json`: a Chrome / Perfetto trace of a run.

Host track ("host", `tid` 0): what the host code does, recorded by hooks
that the host compiler adds only when tracing (`xgpu.runtime.host_trace`):
each host loop (`scf.for`, `scf.while`: `cat` "host loop", named by the op
and its line, `scf.for (line 82)`), each call (`func.call @f (line 106)`,
runner utilities too, and the entry function: "host call"), `memref.copy`
("host copy") and each blocking wait (`gpu.wait (line 91)`, synchronous
ops: "host wait").

Device tracks, OpenCL: every command the runtime enqueues (kernels, named by
their symbol `@module::@kernel`, copies, fills, markers) is recorded with its
event; once the run is over, the OpenCL profiling times of the events (queue
created with `PROFILING_ENABLE`) give one complete ("X") slice per command.
Device and host clocks are aligned by the enqueue times: the host clock is
read just before and just after each command is enqueued, and OpenCL reports
the command's `QUEUED` time, which lies between the two. Each command bounds
the offset between the clocks from both sides; the tightest lower bound is
taken (the device times shown are the earliest consistent with every
enqueue), or the tightest upper bound when a command was recorded without
its "before" time. The simulator's trace is `xgpu.runtime.sim_trace`
(simulated time).

Commands that overlap in time are put on separate tracks ("device lane 0",
"device lane 1", ...), so a viewer shows what ran concurrently. The file's
`otherData.device` names the device, `otherData.clock` the clock. At most
`LIMIT` slices of each kind are kept (host, device); `otherData.dropped`
counts those left out.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the simulator writes traces without OpenCL
    import pyopencl as cl

_PID = 1
_HOST_TID = 0


#: the most slices kept of each kind (host slices, device slices)
LIMIT = 200_000


class HostTrace:
    """The host track: slices in the host clock (`now`, nanoseconds)."""

    #: whether generated host code ticks once per loop iteration (simulated time)
    ticks = False

    def __init__(self) -> None:
        self.now = time.perf_counter_ns
        self.slices: list[tuple[str, str, int, int]] = []
        self.dropped = 0

    def add(self, name: str, cat: str, start: int, end: int) -> None:
        if len(self.slices) >= LIMIT:
            self.dropped += 1
            return
        self.slices.append((name, cat, start, end))


class Tracer:
    """The device commands of an OpenCL run (and its `host` track)."""

    def __init__(self, host: HostTrace | None = None) -> None:
        self.commands: list[tuple[cl.Event, str, str, int, int | None, dict[str, Any]]] = []
        self.host = host if host is not None else HostTrace()
        self.dropped = 0

    def command(
        self, event: cl.Event, name: str, cat: str, before_ns: int | None = None, **args: Any
    ) -> None:
        """Record an enqueued command (call right after enqueueing it;
        `before_ns`: the host clock read just before)."""
        if len(self.commands) >= LIMIT:
            self.dropped += 1
            return
        self.commands.append((event, name, cat, time.perf_counter_ns(), before_ns, args))

    def host_wait(self, what: str, start_ns: int, end_ns: int) -> None:
        self.host.add(what, "host wait", start_ns, end_ns)

    def device_slices(self) -> list[tuple[str, str, int, int, dict[str, Any]]]:
        """(name, cat, start, end, args) of each profiled command, in the
        host clock (ns; all commands must be complete)."""
        import pyopencl as cl

        profiled = []
        upper = lower = None  # bounds of host clock - device clock
        for event, name, cat, after_ns, before_ns, args in self.commands:
            try:
                queued = event.profile.queued
                start = event.profile.start
                end = event.profile.end
            except cl.Error:
                continue
            profiled.append((name, cat, start, end, args))
            if upper is None or after_ns - queued < upper:
                upper = after_ns - queued
            if before_ns is not None and (lower is None or before_ns - queued > lower):
                lower = before_ns - queued
        offset = lower if lower is not None and upper is not None and lower <= upper else upper
        offset = offset or 0
        return [(n, c, s + offset, e + offset, a) for n, c, s, e, a in profiled]

    def events(self) -> list[dict[str, Any]]:
        """The trace events (all commands must be complete)."""
        return trace_events(self.device_slices(), self.host.slices, 1000.0)


def trace_events(
    device: list[tuple[str, str, int, int, dict[str, Any]]],
    host: list[tuple[str, str, int, int]],
    per_us: float,
) -> list[dict[str, Any]]:
    """The metadata and slices of a trace: device slices on lanes (a slice
    goes to the first lane free at its start), host slices on the host
    track; times are divided by `per_us` (clock units per microsecond)."""
    out: list[dict[str, Any]] = []
    lanes: list[int] = []  # end time of the last slice of each lane
    for name, cat, start, end, args in sorted(device, key=lambda p: (p[2], p[3])):
        lane = next((i for i, last in enumerate(lanes) if last <= start), None)
        if lane is None:
            lane = len(lanes)
            lanes.append(end)
        else:
            lanes[lane] = end
        out.append(_slice(name, cat, lane + 1, start, end, per_us, args))
    # Outer slices first where they start together (a viewer nests them);
    # an outer slice is recorded after the slices inside it.
    order = sorted(range(len(host)), key=lambda i: (host[i][2], -host[i][3], -i))
    for name, cat, start, end in (host[i] for i in order):
        out.append(_slice(name, cat, _HOST_TID, start, end, per_us, {}))
    meta = [
        {"name": "process_name", "ph": "M", "pid": _PID, "args": {"name": "xgpu-run"}},
        {
            "name": "thread_name",
            "ph": "M",
            "pid": _PID,
            "tid": _HOST_TID,
            "args": {"name": "host"},
        },
    ]
    for lane in range(len(lanes)):
        meta.append(
            {
                "name": "thread_name",
                "ph": "M",
                "pid": _PID,
                "tid": lane + 1,
                "args": {"name": f"device lane {lane}"},
            }
        )
    return meta + out


def _slice(
    name: str, cat: str, tid: int, start: int, end: int, per_us: float, args: dict[str, Any]
) -> dict[str, Any]:
    return {
        "name": name,
        "cat": cat,
        "ph": "X",
        "pid": _PID,
        "tid": tid,
        "ts": start / per_us,
        "dur": max(end - start, 0) / per_us,
        "args": args,
    }


def write_trace(
    path: str, events: list[dict[str, Any]], other: dict[str, Any], unit: str = "ns"
) -> None:
    """Write the trace file (`OSError` when it cannot be written)."""
    import json  # only for --trace

    doc = {
        "traceEvents": events,
        "displayTimeUnit": unit,
        "otherData": {**other, "tool": "xgpu-run"},
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def write_opencl(path: str, host: HostTrace, tracer: Tracer | None, device: str | None) -> None:
    """The trace of an OpenCL run (`tracer` None: the program used no device)."""
    if tracer is not None:
        events = tracer.events()
        dropped = tracer.dropped + host.dropped
    else:
        events = trace_events([], host.slices, 1000.0)
        dropped = host.dropped
    other: dict[str, Any] = {
        "device": device or "none (the program used no device)",
        "clock": "host perf_counter; device times aligned by the enqueue times",
    }
    if dropped:
        other["dropped"] = dropped
    write_trace(path, events, other)
