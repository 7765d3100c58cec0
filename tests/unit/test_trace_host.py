"""`--trace` on both backends: the host track (loops, calls, waits, each
named by its op and line), the device slices, and their order, checked on
the forum program (examples/forum/program.mlir): its host loop (line 82)
runs after @scale and @shift are issued, and @square, issued after the
loop, starts after it ends."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from xgpu.runtime.opencl_device import has_device
from xgpu.tools.xgpu_run import main

FORUM = Path(__file__).parents[2] / "examples" / "forum" / "program.mlir"
#: float rounding of microseconds (ns / 1000): no clock is compared here
EPS = 1e-6


def _trace(capfd, tmp_path: Path, *argv: str) -> dict:
    path = tmp_path / "t.json"
    with pytest.raises(SystemExit) as info:
        main([str(FORUM), "--trace", str(path), *argv])
    out, err = capfd.readouterr()
    assert info.value.code == 0, err
    assert "[-1,  -9,  -25,  -49,  -81,  -121,  -169,  -225,  -289,  -361]" in out
    return json.loads(path.read_text())


def _slices(doc: dict) -> dict[str, list[dict]]:
    by_name: dict[str, list[dict]] = {}
    for e in doc["traceEvents"]:
        if e["ph"] == "X":
            by_name.setdefault(e["name"], []).append(e)
    return by_name


def _end(e: dict) -> float:
    return e["ts"] + e["dur"]


def _tracks(doc: dict) -> dict[int, str]:
    return {
        e["tid"]: e["args"]["name"]
        for e in doc["traceEvents"]
        if e["ph"] == "M" and e["name"] == "thread_name"
    }


def _check_host_track(doc: dict) -> dict[str, list[dict]]:
    s = _slices(doc)
    tracks = _tracks(doc)
    assert tracks[0] == "host"
    host = {
        name: (events[0]["cat"], len(events)) for name, events in s.items() if events[0]["tid"] == 0
    }
    assert host["@main"] == ("host call", 1)
    assert host["scf.for (line 101)"] == ("host loop", 1)
    assert host["func.call @forum (line 106)"] == ("host call", 1)
    assert host["scf.for (line 82)"] == ("host loop", 1)
    assert host["gpu.wait (line 91)"] == ("host wait", 1)
    assert host["func.call @printMemrefF32 (line 109)"] == ("host call", 1)
    for kernel in ("@module_1::@scale", "@module_1::@shift", "@module_2::@square"):
        (k,) = s[kernel]
        assert k["cat"] == "kernel" and tracks[k["tid"]].startswith("device lane ")
        assert k["args"] == {"grid": [1, 1, 1], "block": [64, 1, 1]}
    main_, forum, loop = (
        s["@main"][0],
        s["func.call @forum (line 106)"][0],
        s["scf.for (line 82)"][0],
    )
    wait = s["gpu.wait (line 91)"][0]
    # Host slices nest and follow the program's order.
    assert main_["ts"] <= forum["ts"] + EPS and _end(forum) <= _end(main_) + EPS
    assert forum["ts"] <= loop["ts"] + EPS and _end(loop) <= wait["ts"] + EPS
    assert _end(wait) <= _end(forum) + EPS
    # @square was issued after the loop: it starts after the loop's end.
    square = s["@module_2::@square"][0]
    assert square["ts"] >= _end(loop) - EPS
    return s


@pytest.mark.skipif(not has_device(), reason="no OpenCL device")
def test_opencl_trace_has_the_host_track(capfd, tmp_path):
    doc = _trace(capfd, tmp_path)
    s = _check_host_track(doc)
    assert doc["otherData"]["clock"].startswith("host perf_counter")
    # The blocking wait ends once the copy it waits for has ended.
    (d2h,) = s["memcpy D2H"]
    assert _end(d2h) <= _end(s["gpu.wait (line 91)"][0]) + EPS


def test_simulator_trace_in_simulated_time(capfd, tmp_path):
    doc = _trace(capfd, tmp_path, "--backend", "sim")
    s = _check_host_track(doc)
    assert doc["otherData"]["device"] == "the xgpu simulator"
    assert doc["otherData"]["clock"].startswith("simulated: 1 us shown = 1 step")
    loop = s["scf.for (line 82)"][0]
    scale, shift = s["@module_1::@scale"][0], s["@module_1::@shift"][0]
    # One step per work-item: 64 work-items a launch (one block of 64).
    assert scale["dur"] == shift["dur"] == 64
    # The host loop (4 iterations) runs while @scale does, in simulated time.
    assert loop["dur"] == 4
    assert scale["ts"] < loop["ts"] and _end(loop) < _end(scale)
    # The device runs its ops one after the other, in program order here.
    kernels = ["@module_1::@scale", "@module_1::@shift", "@module_2::@square", "@module_2::@negate"]
    starts = [s[k][0]["ts"] for k in kernels]
    assert starts == sorted(starts)
    assert all(_end(s[a][0]) <= s[b][0]["ts"] for a, b in zip(kernels, kernels[1:]))
    # The wait ends when the last copy back does.
    copies = s["memcpy H2D"] + s["memcpy D2H"]
    assert [c["args"] for c in copies] == [{"elements": 10}, {"elements": 10}]
    assert copies[0]["ts"] < scale["ts"] and copies[1]["ts"] > s["@module_2::@negate"][0]["ts"]
    assert _end(s["gpu.wait (line 91)"][0]) == max(_end(c) for c in copies)


def test_simulator_trace_follows_a_random_schedule(capfd, tmp_path):
    doc = _trace(capfd, tmp_path, "--backend", "sim", "--schedule", "random", "--seed", "3")
    s = _check_host_track(doc)
    device = sorted(
        (e for e in doc["traceEvents"] if e["ph"] == "X" and e["tid"] > 0), key=lambda e: e["ts"]
    )
    # One op at a time: no two device slices overlap.
    assert all(_end(a) <= b["ts"] for a, b in zip(device, device[1:]))
    assert len(device) == 7 and s["@module_2::@negate"][0]["ts"] > s["@module_2::@square"][0]["ts"]


def test_a_program_without_gpu_work_gets_a_host_trace(capfd, tmp_path):
    prog = tmp_path / "host.mlir"
    prog.write_text(
        "func.func @main() -> index {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %c3 = arith.constant 3 : index\n"
        "  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %c0) -> (index) {\n"
        "    %n = arith.addi %a, %i : index\n"
        "    scf.yield %n : index\n"
        "  }\n"
        "  return %r : index\n"
        "}\n"
    )
    for backend, clock in (("opencl", "host"), ("sim", "simulated")):
        path = tmp_path / f"{backend}.json"
        with pytest.raises(SystemExit) as info:
            main([str(prog), "--backend", backend, "--trace", str(path)])
        out, err = capfd.readouterr()
        assert info.value.code == 0 and out == "3\n", err
        doc = json.loads(path.read_text())
        names = {e["name"]: e for e in doc["traceEvents"] if e["ph"] == "X"}
        assert set(names) == {"@main", "scf.for (line 5)"}
        assert doc["otherData"]["clock"].startswith(clock)
        if backend == "sim":
            assert names["scf.for (line 5)"]["dur"] == 3  # a step per iteration


def test_the_hooks_are_generated_only_when_tracing():
    from xgpu.runtime.api import Runner, RunOptions, load

    text = FORUM.read_text()
    sources = {}
    for backend in ("sim", "opencl"):
        if backend == "opencl" and not has_device():
            continue
        for trace in (None, "unused.json"):
            module, files = load(text, "forum.mlir")
            runner = Runner(module, files, RunOptions(backend=backend, trace=trace))
            sources[backend, trace] = runner.program.source
    for (backend, trace), source in sources.items():
        assert ("_tnow()" in source) == (trace is not None)
        assert ("_ttick()" in source) == (trace is not None and backend == "sim")
        # Labels are bound objects, never text of the generated code.
        assert "line 82" not in source and "scf.for" not in source


def test_simulated_kernels_that_wait_for_each_other_overlap(tmp_path):
    import numpy as np
    from test_concurrent_kernels import BOTH

    import xgpu

    path = tmp_path / "t.json"
    seen = np.zeros(2, np.int32)
    xgpu.run(BOTH, args=[np.zeros(1, np.int32), seen], backend="sim", trace=str(path), timeout=30)
    assert seen.tolist() == [2, 2]
    doc = json.loads(path.read_text())
    first, second = sorted(_slices(doc)["@k::@meet"], key=lambda e: e["ts"])
    # The first spins until the second has run: its slice covers the second's
    # start, and the two lie on two device lanes.
    assert first["ts"] < second["ts"] < _end(first)
    assert first["tid"] != second["tid"] and {first["tid"], second["tid"]} == {1, 2}


def test_slices_past_the_limit_are_counted(tmp_path, monkeypatch):
    import xgpu
    from xgpu.runtime import trace

    monkeypatch.setattr(trace, "LIMIT", 3)
    from xgpu.runtime import sim_trace

    monkeypatch.setattr(sim_trace, "LIMIT", 3)
    text = FORUM.read_text()
    for backend in ("sim", "opencl"):
        if backend == "opencl" and not has_device():
            continue
        path = tmp_path / f"{backend}.json"
        xgpu.run(text, backend=backend, trace=str(path), stdout=io.StringIO())
        doc = json.loads(path.read_text())
        host = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["tid"] == 0]
        device = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["tid"] > 0]
        assert len(host) == 3 and len(device) == 3
        # Host: 8 slices (see _check_host_track), and on the simulator the
        # wait of the synchronous gpu.dealloc; device: 6 commands, and on the
        # simulator the deallocation.
        extra = 1 if backend == "sim" else 0
        assert doc["otherData"]["dropped"] == (8 + extra - 3) + (6 + extra - 3)
