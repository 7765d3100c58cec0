"""xgpu-run's progress line (`xgpu.runtime.progress`): the text, the 2-second
threshold, the rewrite interval, clearing, and nothing on a stream that is
not a terminal. The clock and the stream are injected: no test sleeps."""

from __future__ import annotations

import io
from types import SimpleNamespace

from xgpu.runtime import progress
from xgpu.runtime.progress import Progress, progress_text, runtime_counts


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_text():
    assert progress_text(1, None, 2.04) == "xgpu-run: 1 launch, 2.0 s"
    assert (
        progress_text(12, 1048576, 5.25)
        == "xgpu-run: 12 launches, 1,048,576 work-items simulated, 5.2 s"
    )
    assert progress_text(0, 1, 3.0) == "xgpu-run: 0 launches, 1 work-item simulated, 3.0 s"


def test_nothing_before_the_threshold_then_a_line_rewritten_in_place():
    stream, clock = _Terminal(), _Clock()
    p = Progress(stream, clock)
    clock.t += 1.9
    assert not p.tick(3, 100)
    assert stream.getvalue() == ""
    clock.t += 0.2  # 2.1 s
    assert p.tick(3, 100)
    assert stream.getvalue() == "\rxgpu-run: 3 launches, 100 work-items simulated, 2.1 s"
    # Not again within the interval.
    clock.t += progress.INTERVAL / 2
    assert not p.tick(4, 200)
    clock.t += progress.INTERVAL
    assert p.tick(4, 200)
    assert stream.getvalue().endswith("\rxgpu-run: 4 launches, 200 work-items simulated, 2.5 s")
    assert "\n" not in stream.getvalue()


def test_a_shorter_line_covers_the_longer_one_and_clear_erases_it():
    stream, clock = _Terminal(), _Clock()
    p = Progress(stream, clock)
    clock.t += 3
    p.tick(5, 123456)
    long_line = "xgpu-run: 5 launches, 123,456 work-items simulated, 3.0 s"
    clock.t += 1
    stream.seek(0)
    stream.truncate()
    p.tick(5, None)
    short = "xgpu-run: 5 launches, 4.0 s"
    assert stream.getvalue() == "\r" + short + " " * (len(long_line) - len(short))
    stream.seek(0)
    stream.truncate()
    p.clear()
    assert stream.getvalue() == "\r" + " " * len(short) + "\r"
    stream.seek(0)
    stream.truncate()
    p.clear()  # nothing shown any more
    assert stream.getvalue() == ""


def test_clear_without_a_line_writes_nothing():
    stream, clock = _Terminal(), _Clock()
    p = Progress(stream, clock)
    clock.t += 1
    p.tick(1)
    p.clear()
    assert stream.getvalue() == ""


def test_a_stream_that_is_not_a_terminal_gets_nothing():
    stream, clock = io.StringIO(), _Clock()
    p = Progress(stream, clock)
    clock.t += 60
    assert not p.tick(10, 10)
    p.clear()
    assert stream.getvalue() == ""
    assert progress.start(stream, lambda: (0, None)) is None


def test_a_closed_stream_turns_it_off():
    stream, clock = _Terminal(), _Clock()
    p = Progress(stream, clock)
    stream.close()
    clock.t += 3
    assert p.tick(1) is True  # the write failed quietly
    assert not p.active


def test_runtime_counts():
    assert runtime_counts(None) == (0, None)
    sim = SimpleNamespace(launches=2, work_items=640, current_launch=None)
    assert runtime_counts(sim) == (2, 640)
    sim.current_launch = SimpleNamespace(work_items=64)
    assert runtime_counts(sim) == (2, 704)
    assert runtime_counts(SimpleNamespace(launch_count=[7])) == (7, None)
    assert runtime_counts(SimpleNamespace(launch_count=None)) == (0, None)


def test_the_launchers_count_launches_only_for_a_progress_line(monkeypatch):
    import numpy as np

    from xgpu.runtime import api

    counts = []
    for shown in (False, True):
        # Whether stderr is a terminal (the progress thread itself still
        # finds pytest's captured stderr is none, and writes nothing).
        monkeypatch.setattr(api, "is_terminal", lambda stream, shown=shown: shown)
        x = np.zeros(8, dtype=np.float32)
        module, sources = api.load(_KERNEL)
        runner = api.Runner(module, sources, api.RunOptions(progress=True))
        runner.call("main", [x])
        assert list(x) == [3.0] * 8
        counts.append(runner.gpu_runtime().launch_count)
    assert counts == [None, [3]]


_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @inc(%a: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%h: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    scf.for %i = %c0 to %c3 step %c1 {
      gpu.launch_func @m::@inc blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>)
    }
    return
  }
}
"""
