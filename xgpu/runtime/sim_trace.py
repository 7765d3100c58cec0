"""`xgpu-run --backend sim --trace FILE.json`: the simulator's trace, in
simulated time.

The simulator runs everything in one Python thread, so wall-clock times
would only say how slow Python is. Its trace has two simulated clocks
instead, counted in *steps*, shown as one microsecond each:

- the host's clock advances one step per GPU op it issues, per host loop
  iteration (`_ttick()` in the traced host code, `xgpu.runtime.host_trace`)
  and per host slice that would otherwise take none (a call, a copy);
- the device runs one GPU op at a time, in the order the scheduler starts
  them (`--schedule`): an op starts when the device is free, and not before
  the host issued it; a kernel lasts one step per work-item simulated, a
  copy, fill or deallocation one step (the simulator does each at once). A kernel that
  spins (run step by step, with other GPU work between its steps) ends no
  earlier than the work that ran meanwhile: its slice overlaps theirs, on
  another lane;
- a blocking wait (`gpu.wait`, a synchronous op) moves the host's clock to
  the end of the device work it waited for: its "host wait" slice.

So the host runs on while the device works, as on a real device: in the
forum example the host loop lies beside `@scale` and `@shift`, and
`@square`, issued after the loop, starts after it ends. `otherData.clock`
describes the unit.
"""

from __future__ import annotations

from typing import Any

from xgpu.runtime.trace import LIMIT, HostTrace, trace_events, write_trace

CLOCK = (
    "simulated: 1 us shown = 1 step (device: a work-item simulated, a copy, fill "
    "or deallocation; host: a GPU op issued, a loop iteration, a call)"
)

_CATEGORIES = {
    "gpu.launch_func": "kernel",
    "gpu.memcpy": "copy",
    "gpu.memset": "fill",
    "gpu.dealloc": "dealloc",
}


class SimTrace(HostTrace):
    """Host and device slices of a simulated run (see the module docstring)."""

    ticks = True

    def __init__(self) -> None:
        super().__init__()
        self.now = self._now
        self.host_t = 0
        self.device_t = 0
        #: the latest start of a task on the device
        self.last_start = 0
        #: task id -> host time it was issued at, then its start on the device
        self.issued_at: dict[int, int] = {}
        self.started_at: dict[int, int] = {}
        #: task id -> its cost in steps, the args of its slice (set while it runs)
        self.costs: dict[int, int] = {}
        self.details: dict[int, tuple[str, dict[str, Any]]] = {}
        #: task id -> its end (bounded: see `_end`)
        self.ended_at: dict[int, int] = {}
        self.device: list[tuple[str, str, int, int, dict[str, Any]]] = []
        self.device_dropped = 0

    def _now(self) -> int:
        return self.host_t

    def tick(self) -> None:
        self.host_t += 1

    def add(self, name: str, cat: str, start: int, end: int) -> None:
        if end <= start:  # a slice takes a step at least
            end = start + 1
            self.host_t = max(self.host_t, end)
        super().add(name, cat, start, end)

    # -- the scheduler's hooks ------------------------------------------- #

    def issued(self, task: Any) -> None:
        self.issued_at[task.id] = self.host_t
        self.host_t += 1

    def started(self, task: Any) -> None:
        issued = self.issued_at.pop(task.id, self.host_t)
        start = self.started_at[task.id] = max(self.device_t, issued)
        self.last_start = max(self.last_start, start)

    def cost(self, task: Any, steps: int) -> None:
        self.costs[task.id] = self.costs.get(task.id, 0) + steps

    def detail(self, task: Any, name: str, **args: Any) -> None:
        """The name and `args` of the task's slice (a copy's direction, as
        OpenCL's are named, and its elements)."""
        self.details[task.id] = (name, args)

    def ended(self, task: Any) -> None:
        start = self.started_at.pop(task.id, self.device_t)
        # Tasks that started while this one ran (it spun) end it later.
        end = max(start + max(self.costs.pop(task.id, 1), 1), self.device_t, self.last_start + 1)
        self.device_t = end
        if len(self.ended_at) >= LIMIT:
            self.ended_at.clear()
        self.ended_at[task.id] = end
        if len(self.device) >= LIMIT:
            self.device_dropped += 1
            return
        op_name = task.op.name if task.op is not None else ""
        cat = _CATEGORIES.get(op_name, "gpu")
        name = task.label
        name, args = self.details.pop(task.id, (name, {}))
        if cat == "kernel":
            name = name.removeprefix("gpu.launch_func ")
            args = {"grid": list(task.launch_grid), "block": list(task.launch_block)}
        self.device.append((name, cat, start, end, args))

    def waited(self, what: str, tasks: Any) -> None:
        """The host waited for `tasks` (all of them complete now; None: all
        the device's work)."""
        start = self.host_t
        if tasks is None:
            end = self.device_t
        else:
            end = max((self._end(t) for t in tasks), default=start)
        self.add(what, "host wait", start, max(end, start))
        self.host_t = max(self.host_t, end)

    def waited_for(self, task: Any) -> None:
        """A synchronous op: the host waited for its task."""
        from xgpu.runtime.host_trace import slice_label

        self.waited(slice_label(task.op) if task.op is not None else task.label, (task,))

    def _end(self, task: Any) -> int:
        # A task whose end was forgotten (`ended_at` is bounded) ended by
        # `device_t`: the device is sequential.
        return self.ended_at.get(task.id, self.device_t)

    # -- the file ---------------------------------------------------------- #

    def write(self, path: str) -> None:
        other: dict[str, Any] = {"device": "the xgpu simulator", "clock": CLOCK}
        dropped = self.dropped + self.device_dropped
        if dropped:
            other["dropped"] = dropped
        write_trace(path, trace_events(self.device, self.slices, 1.0), other, unit="ms")
