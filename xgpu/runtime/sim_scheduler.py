"""The simulator's async GPU ops and their scheduler (`--schedule`): a
`Task` per op, tokens as tuples of tasks, and the `Scheduler` that starts
them once their dependencies are complete (see `sim_device` for the rules:
program order, or random with a seed). Under `--trace` the scheduler tells
the run's `sim_trace.SimTrace` when each task starts and ends; `current` is
the task running (what a Ctrl-C interrupted, `xgpu.runtime.interrupt`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Operation

from xgpu.runtime.memref import RuntimeFailure

SCHEDULES = ("program-order", "random")


class Task:
    """One async GPU op: runs `run()` once its `deps` are complete."""

    __slots__ = (
        "id",
        "bit",
        "hb",
        "host_epoch",
        "deps",
        "run",
        "done",
        "label",
        "op",
        "launch_grid",
        "launch_block",
        "steps",
    )

    def __init__(self, tid: int, deps: tuple, label: str, op: Operation | None):
        self.id = tid
        #: the race detector's: this task's bit, and the bits of the tasks
        #: that happen before it (itself included); 0 when not detecting
        self.bit = 0
        self.hb = 0
        self.host_epoch = 0
        self.deps = deps
        self.run: Callable[[], Any] | None = None
        #: a task that runs step by step: its steps (`Scheduler._step`)
        self.steps: Any = None
        self.done = False
        self.label = label
        self.op = op
        self.launch_grid = (1, 1, 1)
        self.launch_block = (1, 1, 1)

    def __repr__(self) -> str:
        return f"<task {self.id} {self.label}{' done' if self.done else ''}>"


def union(*tokens: tuple) -> tuple:
    merged: dict[Task, None] = {}
    for token in tokens:
        for task in token:
            merged[task] = None
    return tuple(merged)


class Scheduler:
    """Starts issued tasks (see the module docstring)."""

    def __init__(self, mode: str = "program-order", seed: int | None = None):
        if mode not in SCHEDULES:
            raise ValueError(f"unknown schedule {mode!r} (expected one of {', '.join(SCHEDULES)})")
        self.mode = mode
        self.rng = random.Random(seed)
        self.pending: list[Task] = []
        #: started tasks that run step by step and have not ended (`_step`)
        self.running: list[Task] = []
        #: when a list: every task run is appended to it, in order (--verbose)
        self.order: list[Task] | None = None
        #: the task running now (what a Ctrl-C interrupted, `xgpu.runtime.interrupt`)
        self.current: Task | None = None
        #: `sim_trace.SimTrace` under --trace: told when tasks start and end
        self.trace: Any = None

    def _execute(self, task: Task) -> None:
        run = task.run
        task.run = None
        if self.order is not None:
            self.order.append(task)
        if self.trace is not None:
            self.trace.started(task)
        if run is not None:
            self.current = task  # left set by an exception (what it interrupted)
            steps = run()
            self.current = None
            if steps is not None and self._step(task, steps):
                return
        task.done = True
        task.deps = ()  # a long chain of tasks need not stay alive
        if self.trace is not None:
            self.trace.ended(task)

    def _step(self, task: Task, steps: Any) -> bool:
        """Run a task that runs step by step (a kernel that spins) until its
        next step; whether it is still running."""
        self.current = task
        try:
            next(steps)
        except StopIteration:
            self.current = None
            if task in self.running:
                self.running.remove(task)
            return False
        self.current = None
        if task not in self.running:
            task.steps = steps
            self.running.append(task)
        return True

    def _resume(self) -> None:
        """One step of each running task; those that end are done."""
        for task in list(self.running):
            if not self._step(task, task.steps):
                task.steps = None
                task.done = True
                task.deps = ()
                if self.trace is not None:
                    self.trace.ended(task)

    def _ready(self) -> list[Task]:
        return [t for t in self.pending if all(d.done for d in t.deps)]

    def _run_one(self, ready: list[Task]) -> None:
        task = self.rng.choice(ready)
        self.pending.remove(task)
        self._execute(task)

    def issue(self, task: Task) -> None:
        if self.mode == "program-order":
            self.complete(task.deps)
            self._execute(task)
            return
        self.pending.append(task)
        while self.pending and self.rng.random() < 0.5:
            ready = self._ready()
            if not ready:
                break
            self._run_one(ready)

    def complete(self, tasks: Sequence[Task]) -> None:
        """Run tasks (ready ones, in random order) until `tasks` are complete:
        tasks that can start first, else a step of each running one."""
        while not all(t.done for t in tasks):
            ready = self._ready()
            if not ready and self.running:
                self._resume()
                continue
            if not ready:  # pragma: no cover - dependencies are always issued first
                raise RuntimeFailure("internal error: a task waits for work never issued")
            if self.mode == "program-order":
                task = ready[0]
                self.pending.remove(task)
                self._execute(task)
            else:
                self._run_one(ready)

    def drain(self) -> None:
        self.complete(list(self.pending) + list(self.running))
