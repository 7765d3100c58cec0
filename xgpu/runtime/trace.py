"""`xgpu-run --trace FILE.json`: a Chrome / Perfetto trace of the device work.

Every command the runtime enqueues (kernels, named by their symbol
`@module::@kernel`, copies, fills, markers) is recorded with its event; once
the run is over, the OpenCL profiling times of the events (queue created with
`PROFILING_ENABLE`) give one complete ("X") slice per command. Host-side
blocking waits (`gpu.wait`, synchronous ops) are slices of the "host" track.

Device and host clocks are aligned by the enqueue times: the host clock is
read just before and just after each command is enqueued, and OpenCL reports
the command's `QUEUED` time, which lies between the two. Each command bounds
the offset between the clocks from both sides; the tightest lower bound is
taken (the device times shown are the earliest consistent with every
enqueue), or the tightest upper bound when a command was recorded without
its "before" time.

Commands that overlap in time are put on separate tracks ("device lane 0",
"device lane 1", ...), so a viewer shows what ran concurrently. The file's
`otherData.device` names the OpenCL device and platform.
"""

from __future__ import annotations

import time
from typing import Any

import pyopencl as cl

_PID = 1
_HOST_TID = 0


class Tracer:
    def __init__(self) -> None:
        self.commands: list[tuple[cl.Event, str, str, int, int | None, dict[str, Any]]] = []
        self.waits: list[tuple[str, int, int]] = []

    def command(
        self, event: cl.Event, name: str, cat: str, before_ns: int | None = None, **args: Any
    ) -> None:
        """Record an enqueued command (call right after enqueueing it;
        `before_ns`: the host clock read just before)."""
        self.commands.append((event, name, cat, time.perf_counter_ns(), before_ns, args))

    def host_wait(self, what: str, start_ns: int, end_ns: int) -> None:
        self.waits.append((what, start_ns, end_ns))

    def events(self) -> list[dict[str, Any]]:
        """The trace events (all commands must be complete)."""
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
        out: list[dict[str, Any]] = []
        lanes: list[int] = []  # end time of the last slice of each lane
        for name, cat, start, end, args in sorted(profiled, key=lambda p: (p[2], p[3])):
            lane = next((i for i, last in enumerate(lanes) if last <= start), None)
            if lane is None:
                lane = len(lanes)
                lanes.append(end)
            else:
                lanes[lane] = end
            out.append(
                {
                    "name": name,
                    "cat": cat,
                    "ph": "X",
                    "pid": _PID,
                    "tid": lane + 1,
                    "ts": (start + offset) / 1000.0,
                    "dur": max(end - start, 0) / 1000.0,
                    "args": args,
                }
            )
        for what, start, end in self.waits:
            out.append(
                {
                    "name": what,
                    "cat": "host wait",
                    "ph": "X",
                    "pid": _PID,
                    "tid": _HOST_TID,
                    "ts": start / 1000.0,
                    "dur": (end - start) / 1000.0,
                    "args": {},
                }
            )
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

    def write(self, path: str, device: str) -> None:
        import json  # only for --trace

        doc = {
            "traceEvents": self.events(),
            "displayTimeUnit": "ns",
            "otherData": {"device": device, "tool": "xgpu-run"},
        }
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
