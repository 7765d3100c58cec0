"""Clock alignment of `xgpu-run --trace`: the device's QUEUED time of each
command lies between the host clock read before and after its enqueue; the
trace uses the tightest lower bound of the offset (or the tightest upper bound
for commands recorded without a "before" time)."""

from __future__ import annotations

from types import SimpleNamespace

from xgpu.runtime.trace import Tracer


def _event(queued: int, start: int, end: int):
    return SimpleNamespace(profile=SimpleNamespace(queued=queued, start=start, end=end))


def _slices(tracer: Tracer) -> dict[str, float]:
    return {e["name"]: e["ts"] for e in tracer.events() if e["ph"] == "X"}


def test_offset_is_the_tightest_lower_bound():
    # Device clock = host clock - 1000 (ns); enqueue calls take 0-30 ns.
    tracer = Tracer()
    tracer.commands.append((_event(100, 150, 160), "a", "kernel", 1120, 1095, {}))
    tracer.commands.append((_event(200, 250, 260), "b", "kernel", 1230, 1200, {}))
    # Lower bounds 995 and 1000, upper bounds 1020 and 1030: the offset is 1000.
    assert _slices(tracer) == {"a": 1.15, "b": 1.25}


def test_without_before_times_the_upper_bound_is_used():
    tracer = Tracer()
    tracer.commands.append((_event(100, 150, 160), "a", "kernel", 1120, None, {}))
    tracer.commands.append((_event(200, 250, 260), "b", "kernel", 1230, None, {}))
    assert _slices(tracer) == {"a": 1.17, "b": 1.27}


def test_inconsistent_bounds_fall_back_to_the_upper_bound():
    # Clock drift: a lower bound above an upper bound.
    tracer = Tracer()
    tracer.commands.append((_event(100, 150, 160), "a", "kernel", 1110, 1100, {}))
    tracer.commands.append((_event(200, 250, 260), "b", "kernel", 1250, 1240, {}))
    # lower = max(1000, 1040) = 1040 > upper = min(1010, 1050) = 1010
    assert _slices(tracer) == {"a": 1.16, "b": 1.26}


def test_host_slices_outer_first():
    from xgpu.runtime.trace import HostTrace, trace_events

    host = HostTrace()
    host.add("inner", "host copy", 0, 1)  # recorded first, same span as its caller
    host.add("later", "host call", 1, 2)
    host.add("outer", "host call", 0, 1)
    host.add("loop", "host loop", 0, 2)
    names = [e["name"] for e in trace_events([], host.slices, 1.0) if e["ph"] == "X"]
    assert names == ["loop", "outer", "inner", "later"]
