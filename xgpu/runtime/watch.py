"""What the OpenCL runtime watches while a run goes on: the launches in
flight, the error record of bounds-checked kernels, and how long the host
waits for the device.

- Every launch gets an id (`Watch.launch_id`), passed to a checked kernel
  and kept with the launch's site and operands (`Watch.launches`) until a
  blocking point finds the launch complete and the record clean: a failure
  the record holds is reported against its launch (`fault_record`). The
  report of a failure depends only on the site, the memref operands and the
  record, so consecutive launches of one site with the same memref operands
  share an id (the launcher keeps the last; a loop launching one kernel
  over the same buffers sets the kernel's launch id argument once).
- The events of the launches not yet seen complete are kept, oldest first
  (`Watch.inflight`: `[launch id, event]` entries, with a timeout `[launch
  id, event, first event]`); the launchers drop those already complete as
  the list grows (`Watch.sweep`). A launch that waits for the last listed
  launch of its site and shares its id replaces that entry's event: the
  entry stands for a chain of launches, each waiting for the one before, all
  complete once its last is (with a timeout, the chain's first event tells
  whether it has started). A run
  keeps no event of a complete launch for long: on PoCL every event still
  held makes later enqueues slower (a loop of 10,000 launches holding each
  launch's event took about 1.5-2 us more per launch than one dropping
  them), and asking each event whether it is complete costs about 0.2 us.
- Every blocking point (a blocking `gpu.wait`, a synchronous op, the end of
  the run) waits through `Watch.wait` / `Watch.finish`, then calls
  `Watch.check`, which raises the recorded failure.
- With a timeout (`xgpu-run --timeout SECONDS`, `xgpu.run(timeout=...)`) the
  waits do not block in OpenCL: an event's completion callback wakes the
  host, which waits in slices of `WAIT_SLICE` (xgpu-run's waits always do,
  so that Ctrl-C interrupts them: `interruptible`), and a wait that lasts longer
  than the timeout raises a `Timeout` naming the launch the device is running
  (or the oldest one not complete). OpenCL cannot stop a kernel: the device
  stays busy, so the device's context is marked hung (`DeviceContext.hung`)
  and no later run may use it in this process; `xgpu-run` ends the process
  at once (`os._exit(1)`, after printing the error).
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import pyopencl as cl
from xdsl.ir import Operation

from xgpu.runtime.launch_limits import timeout_message
from xgpu.runtime.memref import OpFailure

_COMPLETE = cl.command_execution_status.COMPLETE
_RUNNING = cl.command_execution_status.RUNNING
#: table size above which a clean check drops the launches already complete
PRUNE_AT = 256
#: events in flight above which a launcher drops those already complete
SWEEP_AT = 32
#: seconds between two looks at the deadline while the host waits
WAIT_SLICE = 0.05


@dataclass(frozen=True)
class LaunchSite:
    """A `gpu.launch_func` op: its kernel's symbol and program."""

    op: Operation
    symbol: str
    program: Any  # OpenCLProgram


class Timeout(OpFailure):
    """A blocking wait outlasted the timeout: the run cannot go on."""

    fatal = True


class Watch:
    """The launches, record and deadline of one run (see the module docstring)."""

    def __init__(
        self,
        dctx: Any,
        queue: cl.CommandQueue,
        checked: bool,
        timeout: float | None,
        interruptible: bool = False,
    ):
        self.dctx = dctx
        self.queue = queue
        self.timeout = timeout if timeout else None
        #: waits do not block in OpenCL but on the events' completion
        #: callbacks, in slices (a deadline, or a Ctrl-C, can then end them;
        #: a wait in the OpenCL driver ends only when the device's work does)
        self.polls = self.timeout is not None or interruptible
        #: launch id -> (site, operands) of the launches that may still fail
        self.launches: dict[int, tuple[LaunchSite, tuple]] = {}
        #: [launch id, event] of the launches not seen complete, oldest first
        self.inflight: deque[list] = deque()
        #: the length of `inflight` above which a launcher calls `sweep`
        self.sweep_at = SWEEP_AT
        self.launch_id = itertools.count(1).__next__
        self.record = None
        if checked:
            from xgpu.runtime.fault_record import FaultRecord

            self.record = FaultRecord(dctx.context, queue, dctx.host_unified)

    # -- launches in flight ------------------------------------------------ #

    def sweep(self) -> None:
        """Drop the oldest events of `inflight` while they are complete (the
        launchers call it when `inflight` outgrows `sweep_at`)."""
        inflight = self.inflight
        while inflight and inflight[0][1].command_execution_status == _COMPLETE:
            inflight.popleft()[1] = None  # no launch may join a dropped entry
        # Launches that complete out of order wait for the next sweep; a
        # long list of launches still queued is looked at again only once
        # as many more are listed.
        self.sweep_at = max(SWEEP_AT, 2 * len(inflight))

    def _pending_ids(self) -> set[int]:
        """The ids of the launches not complete (`inflight` keeps only them)."""
        inflight = self.inflight
        kept = []
        for entry in inflight:
            if entry[1].command_execution_status == _COMPLETE:
                entry[1] = None
            else:
                kept.append(entry)
        inflight.clear()
        inflight.extend(kept)
        self.sweep_at = max(SWEEP_AT, 2 * len(inflight))
        return {entry[0] for entry in inflight}

    def _forget_all(self) -> None:
        self.launches.clear()
        for entry in self.inflight:
            entry[1] = None
        self.inflight.clear()
        self.sweep_at = SWEEP_AT

    # -- waiting ----------------------------------------------------------- #

    def wait(self, events: list) -> None:
        """Block until `events` are complete (with the deadline, if any)."""
        if not self.polls:
            cl.wait_for_events(events)
            return
        self.queue.flush()
        deadline = time.monotonic() + self.timeout if self.timeout is not None else None
        for event in events:
            status = event.command_execution_status
            if status == _COMPLETE:
                continue
            if status > _COMPLETE:
                # Not complete yet: the device says when it is (a callback,
                # not a poll: PoCL's workers run slower while the host asks
                # an event's status over and over); the host waits on a
                # threading.Event in slices, so that a deadline passes and
                # Ctrl-C stops the wait.
                done = threading.Event()
                event.set_callback(_COMPLETE, lambda _status, done=done: done.set())
                while not done.wait(WAIT_SLICE):
                    if deadline is not None and time.monotonic() > deadline:
                        raise self._timeout()
                status = event.command_execution_status
            if status < 0:  # the command failed: let pyopencl say how
                event.wait()

    def finish(self) -> None:
        """All the work of the queue (the end of a run, `gpu.wait` alone)."""
        if not self.polls:
            self.queue.finish()
        else:
            self.wait([cl.enqueue_marker(self.queue)])
        self.check(all_done=True)

    def running_site(self) -> LaunchSite | None:
        """The site of the launch the device runs (or the oldest one not
        complete), None when none is listed."""
        pending = self._running_ids()
        return self.launches[pending[0]][0] if pending else None

    def _running_ids(self) -> list[int]:
        # The launch the device runs: an entry whose event is running, else a
        # chain whose first launch has started (running or complete) while
        # its last has not completed, else the oldest entry not complete.
        running, started, pending = [], [], []
        for entry in self.inflight:
            lid, event = entry[0], entry[1]
            status = event.command_execution_status
            if status == _RUNNING:
                running.append(lid)
            elif status > _COMPLETE:
                first = entry[2] if len(entry) > 2 else event
                if first is not event and first.command_execution_status <= _RUNNING:
                    started.append(lid)
                else:
                    pending.append(lid)
        return [lid for lid in running + started + pending if lid in self.launches]

    def _timeout(self) -> Timeout:
        pending = self._running_ids()
        assert self.timeout is not None
        if pending:
            site = self.launches[pending[0]][0]
            message = timeout_message(site.symbol, self.timeout)
            op = site.op
            self.dctx.hung = f"gpu.launch_func {site.symbol} timed out after {self.timeout:g} s"
        else:
            message = (
                f"the device did not finish within the timeout of {self.timeout:g} s "
                "(--timeout SECONDS sets the limit, 0 turns it off)"
            )
            op = None
            self.dctx.hung = f"a command timed out after {self.timeout:g} s"
        return Timeout(op, message)

    # -- the error record -------------------------------------------------- #

    def check(self, all_done: bool = False) -> None:
        """Raise the failure the record holds, if any. `all_done`: every
        launch of the run is complete."""
        record = self.record
        if record is None:
            if all_done:
                self._forget_all()
            return
        done = None
        if not all_done and len(self.launches) > PRUNE_AT:
            # Seen complete before the record is read: clean, they cannot fail.
            pending = self._pending_ids()
            done = [k for k in self.launches if k not in pending]
        if not record.claimed():
            if all_done:
                self._forget_all()
            elif done:
                for k in done:
                    del self.launches[k]
            return
        if not all_done:
            # The kernel that claimed the record may still be writing it.
            if not self.polls:
                self.queue.finish()
            else:
                self.wait([cl.enqueue_marker(self.queue)])
        from xgpu.runtime.fault_record import failure

        raise failure(record.read(), self.launches)
