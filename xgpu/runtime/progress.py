"""xgpu-run's progress line on long runs.

Once a run has lasted `THRESHOLD` seconds, a line on stderr says how far it
is, rewritten in place (`\\r`) a few times a second:

    xgpu-run: 12 launches, 1,048,576 work-items simulated, 5.2 s

(the simulator; on OpenCL the launches issued and the time). It is shown
only when the stream is a terminal (never in a pipe, a file or a test) and
not under `--quiet`; the line is cleared when the run ends.

`Progress` is the testable core: it takes the stream and the clock, and its
`tick(counts)` decides whether to write and what. `ProgressThread` calls it
from a daemon thread while the run goes on (reading the runtime's counters:
`launches`, and `work_items` plus those of the launch being simulated).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

#: seconds a run lasts before the line appears
THRESHOLD = 2.0
#: seconds between two rewrites of the line
INTERVAL = 0.25


def is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def progress_text(launches: int, work_items: int | None, seconds: float) -> str:
    """`xgpu-run: 3 launches, 1,024 work-items simulated, 2.5 s`."""
    parts = [f"{launches:,} launch{'' if launches == 1 else 'es'}"]
    if work_items is not None:
        parts.append(f"{work_items:,} work-item{'' if work_items == 1 else 's'} simulated")
    parts.append(f"{seconds:.1f} s")
    return "xgpu-run: " + ", ".join(parts)


class Progress:
    """The progress line on `stream` (see the module docstring); `clock`:
    seconds, monotonic (`time.monotonic`)."""

    def __init__(
        self,
        stream: TextIO,
        clock: Callable[[], float] = time.monotonic,
        threshold: float = THRESHOLD,
        interval: float = INTERVAL,
    ):
        self.stream = stream
        self.clock = clock
        self.threshold = threshold
        self.interval = interval
        #: nothing is ever written to a stream that is not a terminal
        self.active = is_terminal(stream)
        self.start = clock()
        self.last: float | None = None
        #: the length of the line shown (0: none)
        self.shown = 0

    def tick(self, launches: int, work_items: int | None = None) -> bool:
        """Write the line if it is time to; whether it was written."""
        if not self.active:
            return False
        now = self.clock()
        elapsed = now - self.start
        if elapsed < self.threshold:
            return False
        if self.last is not None and now - self.last < self.interval:
            return False
        self.last = now
        text = progress_text(launches, work_items, elapsed)
        pad = " " * max(self.shown - len(text), 0)
        self._write("\r" + text + pad)
        self.shown = len(text)
        return True

    def clear(self) -> None:
        """Erase the line (if shown)."""
        if self.shown:
            self._write("\r" + " " * self.shown + "\r")
            self.shown = 0

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            self.active = False


class ProgressThread:
    """Ticks a `Progress` from a daemon thread until `stop()`; `counts()`
    gives (launches, work-items or None)."""

    def __init__(self, progress: Progress, counts: Callable[[], tuple[int, int | None]]):
        self.progress = progress
        self.counts = counts
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._loop, name="xgpu-progress", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while not self.done.wait(self.progress.interval / 2):
            try:
                launches, work_items = self.counts()
            except Exception:  # a counter read while the runtime is being made
                continue
            with self.lock:
                if not self.done.is_set():
                    self.progress.tick(launches, work_items)

    def stop(self) -> None:
        """Stop ticking and clear the line."""
        with self.lock:
            self.done.set()
            self.progress.clear()


def start(stream: TextIO, counts: Callable[[], tuple[int, int | None]]) -> ProgressThread | None:
    """A `ProgressThread` on `stream`, or None when it is not a terminal."""
    if not is_terminal(stream):
        return None
    return ProgressThread(Progress(stream), counts)


def runtime_counts(gpu: Any) -> tuple[int, int | None]:
    """(launches, work-items simulated or None) of a run's GPU runtime (None:
    not made yet): the simulator counts both (with the blocks done of the
    launch it simulates), OpenCL the launches issued (`launch_count`, kept
    only while a progress line may be shown)."""
    if gpu is None:
        return 0, None
    if hasattr(gpu, "work_items"):
        current = getattr(gpu, "current_launch", None)
        extra = getattr(current, "work_items", 0) if current is not None else 0
        return gpu.launches, gpu.work_items + extra
    count = getattr(gpu, "launch_count", None)
    return (count[0] if count else 0), None
