"""A host `scf.for` whose body is one `gpu.launch_func async` chained on the
loop's only token, with loop-invariant operands, is one call of the
launcher's `repeat` (`xgpu.runtime.launch_repeat`, `host_gpu.repeated_launch`):
it gives what the loop gives, for every trip count, checked or not, with or
without a timeout; loops that differ in any way from that pattern keep their
Python loop; errors, interrupts and the watch's entries are those of the
launches one by one; the simulator's host code keeps its loop."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError, Runner, RunOptions, load

try:
    from xgpu.runtime.opencl_device import has_device

    SKIP = None if has_device() else "no OpenCL device"
except Exception as err:  # pragma: no cover
    SKIP = f"pyopencl unavailable: {err}"

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# @inc adds 1 to x[i + off] for i < n; @add adds w to x[i] for i < n.
KERNELS = """
  gpu.module @k {
    gpu.func @inc(%x: memref<?xf32>, %n: index, %off: index) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %j = arith.addi %i, %off : index
        %v = memref.load %x[%j] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%j] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @add(%x: memref<?xf32>, %n: index, %w: index) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %wi = arith.index_cast %w : index to i64
        %wf = arith.sitofp %wi : i64 to f32
        %v = memref.load %x[%i] : memref<?xf32>
        %r = arith.addf %v, %wf : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
"""

HEAD = (
    "module attributes {gpu.container_module} {"
    + KERNELS
    + """
  func.func @main(%host: memref<?xf32>, %lb: index, %ub: index, %step: index, %off: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%c16) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %side = gpu.wait async
"""
)

TAIL = """
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
"""

INC = (
    "@k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) "
    "args(%dev : memref<?xf32>, %c16 : index, %off2 : index)"
)

# The pattern: %off2 is computed before the loop.
REPEATED = (
    HEAD
    + f"""    %off2 = arith.addi %off, %c0 : index
    %t3 = scf.for %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {{
      %tn = gpu.launch_func async [%t] {INC}
      scf.yield %tn : !gpu.async.token
    }}"""
    + TAIL
)

# Loops that are not the pattern, and what x[0] is after each (one function
# of the iterations' induction variables).
OTHERS = {
    # an op in the body (the same lines as REPEATED: %off2 moved in)
    "extra op": (
        HEAD
        + f"""    %t3 = scf.for %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {{
      %off2 = arith.addi %off, %c0 : index
      %tn = gpu.launch_func async [%t] {INC}
      scf.yield %tn : !gpu.async.token
    }}"""
        + TAIL,
        len,
    ),
    "induction variable": (
        HEAD
        + """    %t3 = scf.for %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @k::@add blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<?xf32>, %c16 : index, %i : index)
      scf.yield %tn : !gpu.async.token
    }"""
        + TAIL,
        sum,
    ),
    "two launches": (
        HEAD
        + f"""    %off2 = arith.addi %off, %c0 : index
    %t3 = scf.for %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {{
      %ta = gpu.launch_func async [%t] {INC}
      %tn = gpu.launch_func async [%ta] {INC}
      scf.yield %tn : !gpu.async.token
    }}"""
        + TAIL,
        lambda r: 2 * len(r),
    ),
    "second iter_arg": (
        HEAD
        + f"""    %off2 = arith.addi %off, %c0 : index
    %t3, %kk = scf.for %i = %lb to %ub step %step iter_args(%t = %t2, %k = %c0) -> (!gpu.async.token, index) {{
      %tn = gpu.launch_func async [%t] {INC}
      scf.yield %tn, %k : !gpu.async.token, index
    }}"""
        + TAIL,
        len,
    ),
    "token from outside": (
        HEAD
        + f"""    %off2 = arith.addi %off, %c0 : index
    %t3 = scf.for %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {{
      %tn = gpu.launch_func async [%t, %side] {INC}
      scf.yield %tn : !gpu.async.token
    }}"""
        + TAIL,
        len,
    ),
    "unsignedCmp": (
        HEAD
        + f"""    %off2 = arith.addi %off, %c0 : index
    %t3 = scf.for unsigned %i = %lb to %ub step %step iter_args(%t = %t2) -> (!gpu.async.token) {{
      %tn = gpu.launch_func async [%t] {INC}
      scf.yield %tn : !gpu.async.token
    }}"""
        + TAIL,
        len,
    ),
}

OPTIONS = {
    "checked": {},
    "unchecked": {"checked": False},
    "checked, timeout": {"timeout": 60.0},
    "unchecked, timeout": {"checked": False, "timeout": 60.0},
}


def _run(text: str, bounds: tuple[int, int, int], off: int = 0, **options) -> np.ndarray:
    host = np.zeros(16, dtype=np.float32)
    xgpu.run(text, args=[host, *bounds, off], name="r.mlir", **options)
    return host


def _source(text: str, **options) -> str:
    module, sources = load(text, "r.mlir")
    return Runner(module, sources, RunOptions(**options)).program.source


def _error(text: str, bounds: tuple[int, int, int], off: int, **options) -> RunError:
    with pytest.raises(RunError) as info:
        _run(text, bounds, off, **options)
    return info.value


def _launch_line() -> str:
    """LINE:COLUMN of REPEATED's launch."""
    lines = REPEATED.splitlines()
    i = next(i for i, s in enumerate(lines) if "gpu.launch_func" in s)
    return f"{i + 1}:{lines[i].index('gpu.launch_func') + 1}"


def _globals(runner: Runner) -> dict:
    """The namespace of the launcher of the program's only launch site."""
    host_ns = runner.program.functions["main"].__globals__
    (launcher,) = [v for k, v in host_ns.items() if k.startswith("_L")]
    return launcher.repeat.__globals__


def test_the_pattern_is_one_repeat_call():
    source = _source(REPEATED)
    assert ".repeat(" in source
    assert "for " not in source.split("def f0_main")[1]
    assert "len(range(" in source


@pytest.mark.parametrize("options", list(OPTIONS), ids=list(OPTIONS))
@pytest.mark.parametrize(
    "bounds", [(0, 0, 1), (0, 1, 1), (0, 2, 1), (0, 1000, 1), (5, 2, 1), (-3, 10, 4)]
)
def test_repeat_launches_once_per_iteration(bounds, options):
    want = len(range(*bounds))
    np.testing.assert_array_equal(_run(REPEATED, bounds, **OPTIONS[options]), np.full(16, want))


@pytest.mark.parametrize("options", list(OPTIONS), ids=list(OPTIONS))
def test_repeat_enqueues_the_later_launches_itself(options):
    module, sources = load(REPEATED, "r.mlir")
    runner = Runner(module, sources, RunOptions(**OPTIONS[options]))
    host = np.zeros(16, dtype=np.float32)
    runner.call("main", [host, 0, 1, 1, 0])  # builds the kernel
    ns = _globals(runner)
    launch, enqueue = ns["launch"], ns["_enq"]
    calls = {"launch": 0, "enqueue": 0}

    def counted_launch(*args):
        calls["launch"] += 1
        return launch(*args)

    events: list = []
    unchained: list[int] = []  # enqueues not waiting for the one before
    last: list[bool] = []  # at the blocking wait: the chain entry holds the last event

    def counted_enqueue(*args):
        calls["enqueue"] += 1
        if events and tuple(args[5]) != (events[-1],):
            unchained.append(calls["enqueue"])
        event = enqueue(*args)
        events.append(event)
        return event

    watch = runner.gpu_runtime().watch
    seen = []
    check = watch.check

    def listed(all_done: bool = False) -> None:
        seen.append((len(watch.launches), len(watch.inflight)))
        if "_me" in ns and not last:
            last.append(ns["_me"][0][1] is events[-1])
        check(all_done)

    ns["launch"], ns["_enq"], watch.check = counted_launch, counted_enqueue, listed
    try:
        host[:] = 0
        runner.call("main", [host, 0, 500, 1, 0])
    finally:
        ns["launch"], ns["_enq"] = launch, enqueue
        del watch.check
    assert calls == {"launch": 1, "enqueue": 500}
    assert not unchained
    assert ("_me" in ns) == (options != "unchecked")
    assert last == ([] if options == "unchecked" else [True])
    np.testing.assert_array_equal(host, np.full(16, 500.0))
    # Listed as 500 launches one by one are (`watch`): one id and at most one
    # event (the chain's) at the blocking gpu.wait; nothing without a record
    # or a timeout.
    if options == "unchecked":
        assert seen[0] == (0, 0)
    else:
        assert seen[0] in ((1, 1), (1, 0))
    assert not watch.launches and not watch.inflight


def test_a_traced_run_launches_one_by_one(tmp_path):
    module, sources = load(REPEATED, "r.mlir")
    runner = Runner(module, sources, RunOptions(trace=str(tmp_path / "t.json")))
    host = np.zeros(16, dtype=np.float32)
    runner.call("main", [host, 0, 1, 1, 0])
    ns = _globals(runner)
    launch = ns["launch"]
    calls = [0]

    def counted(*args):
        calls[0] += 1
        return launch(*args)

    ns["launch"] = counted
    try:
        host[:] = 0
        runner.call("main", [host, 0, 40, 1, 0])
    finally:
        ns["launch"] = launch
    assert calls[0] == 40  # every launch is traced
    np.testing.assert_array_equal(host, np.full(16, 40.0))


@pytest.mark.parametrize("name", list(OTHERS))
def test_other_loops_keep_their_loop(name):
    text, _ = OTHERS[name]
    source = _source(text)
    assert ".repeat(" not in source
    assert "for v" in source


@pytest.mark.parametrize("backend", ["opencl", "sim"])
@pytest.mark.parametrize("bounds", [(0, 0, 1), (0, 3, 1), (2, 11, 3)])
@pytest.mark.parametrize("name", list(OTHERS))
def test_other_loops_give_their_results(name, bounds, backend):
    text, expect = OTHERS[name]
    got = _run(text, bounds, backend=backend)
    np.testing.assert_array_equal(got, np.full(16, float(expect(range(*bounds)))))


@pytest.mark.parametrize("bounds", [(0, 0, 1), (0, 1, 1), (0, 2, 1), (-3, 10, 4)])
def test_the_simulator_keeps_its_loop_and_gives_the_same_results(bounds):
    source = _source(REPEATED, backend="sim")
    assert ".repeat(" not in source and "for v" in source
    got = _run(REPEATED, bounds, backend="sim")
    np.testing.assert_array_equal(got, _run(REPEATED, bounds))
    np.testing.assert_array_equal(got, np.full(16, float(len(range(*bounds)))))


@pytest.mark.parametrize("options", ["checked", "checked, timeout"])
def test_an_out_of_bounds_repeated_launch_is_reported_as_one_by_one(options):
    # off = 16: every launch writes past the end of %dev.
    repeated = _error(REPEATED, (0, 300, 1), 16, **OPTIONS[options])
    one_by_one = _error(OTHERS["extra op"][0], (0, 300, 1), 16, **OPTIONS[options])
    simulated = _error(REPEATED, (0, 2, 1), 16, backend="sim")
    assert repeated.format() == one_by_one.format() == simulated.format()
    # The access in the kernel, on the buffer the launch passed.
    assert repeated.diagnostic.message.startswith("out-of-bounds access to %dev[16] ")
    assert repeated.diagnostic.message.endswith(" of @k::@inc")
    assert (
        repeated.diagnostic.location.line
        == KERNELS.count("\n", 0, KERNELS.index("memref.load")) + 1
    )


@pytest.mark.parametrize("options", ["checked", "unchecked"])
def test_a_repeated_launch_too_large_is_the_launch_error(options):
    # The block size is %off2 (1 << 20 work-items: more than any device allows).
    def sized(text: str) -> str:
        return text.replace("threads in (%c16,", "threads in (%off2,")

    big = 1 << 20
    repeated = _error(sized(REPEATED), (0, 300, 1), big, **OPTIONS[options])
    one_by_one = _error(sized(OTHERS["extra op"][0]), (0, 300, 1), big, **OPTIONS[options])
    assert repeated.format() == one_by_one.format()
    assert repeated.diagnostic.message.startswith("gpu.launch_func @k::@inc: ")
    assert str(repeated.diagnostic.location) == f"r.mlir:{_launch_line()}"


def test_a_zero_step_is_the_same_error():
    repeated = _error(REPEATED, (0, 4, 0), 0)
    simulated = _error(REPEATED, (0, 4, 0), 0, backend="sim")
    assert repeated.format() == simulated.format()
    assert "step of 0" in repeated.format()


def test_ctrl_c_in_the_middle_of_a_repeat_names_the_launch():
    module, sources = load(REPEATED, "r.mlir")
    runner = Runner(module, sources, RunOptions())
    host = np.zeros(16, dtype=np.float32)
    runner.call("main", [host, 0, 1, 1, 0])
    ns = _globals(runner)
    enqueue = ns["_enq"]
    calls = [0]

    def interrupted(*args):
        calls[0] += 1
        if calls[0] == 50:
            raise KeyboardInterrupt
        return enqueue(*args)

    ns["_enq"] = interrupted
    try:
        with pytest.raises(KeyboardInterrupt) as info:
            runner.call("main", [host, 0, 1000, 1, 0])
    finally:
        ns["_enq"] = enqueue
    assert calls[0] == 50
    assert info.value.xgpu_running == f"'gpu.launch_func @k::@inc' at r.mlir:{_launch_line()}"
    # The run after it works.
    host[:] = 0
    runner.call("main", [host, 0, 10, 1, 0])
    np.testing.assert_array_equal(host, np.full(16, 10.0))


@pytest.mark.parametrize("count", [1, 2, 1000, 2500])
def test_repeat_counts_its_launches_for_a_progress_line(monkeypatch, count):
    # 2500: two chunks of `launch_repeat.CHUNK` and a rest
    from xgpu.runtime import api

    monkeypatch.setattr(api, "is_terminal", lambda stream: True)
    module, sources = load(REPEATED, "r.mlir")
    runner = Runner(module, sources, RunOptions(progress=True))
    host = np.zeros(16, dtype=np.float32)
    runner.call("main", [host, 0, count, 1, 0])
    np.testing.assert_array_equal(host, np.full(16, float(count)))
    assert runner.gpu_runtime().launch_count == [count]
    assert "_cnt[0] += k" in _globals(runner)["repeat"].source
