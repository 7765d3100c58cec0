"""`xgpu-run --trace FILE.json`: a Chrome / Perfetto trace of the device work.

Every command the runtime enqueues (kernels, named by their symbol
`@module::@kernel`, copies, fills, markers) is recorded with its event; once
the run is over, the OpenCL profiling times of the events (queue created with
`PROFILING_ENABLE`) give one complete ("X") slice per command. Host-side
blocking waits (`gpu.wait`, synchronous ops) are slices of the "host" track.

Device and host clocks are aligned by the enqueue times: for each command the
host clock was read when it was enqueued and OpenCL reports its `QUEUED`
time; the smallest difference is taken as the offset between the clocks.

Commands that overlap in time are put on separate tracks ("device lane 0",
"device lane 1", ...), so a viewer shows what ran concurrently. The file's
`otherData.device` names the OpenCL device and platform.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pyopencl as cl

_PID = 1
_HOST_TID = 0


class Tracer:
    def __init__(self) -> None:
        self.commands: list[tuple[cl.Event, str, str, int, dict[str, Any]]] = []
        self.waits: list[tuple[str, int, int]] = []

    def command(self, event: cl.Event, name: str, cat: str, **args: Any) -> None:
        """Record an enqueued command (call right after enqueueing it)."""
        self.commands.append((event, name, cat, time.perf_counter_ns(), args))

    def host_wait(self, what: str, start_ns: int, end_ns: int) -> None:
        self.waits.append((what, start_ns, end_ns))

    def events(self) -> list[dict[str, Any]]:
        """The trace events (all commands must be complete)."""
        profiled = []
        offset = None
        for event, name, cat, host_ns, args in self.commands:
            try:
                queued = event.profile.queued
                start = event.profile.start
                end = event.profile.end
            except cl.Error:
                continue
            profiled.append((name, cat, start, end, args))
            diff = host_ns - queued
            if offset is None or diff < offset:
                offset = diff
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
        doc = {
            "traceEvents": self.events(),
            "displayTimeUnit": "ns",
            "otherData": {"device": device, "tool": "xgpu-run"},
        }
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
