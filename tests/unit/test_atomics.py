"""`memref.atomic_rmw` (every kind on i32, i64 and f32; some on f64) and
`memref.generic_atomic_rmw`, in kernels on both backends and in host code,
and how the race detector sees them: two atomic accesses are ordered, an
atomic and a plain access of different work-items race."""

from __future__ import annotations

import numpy as np
import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError

N = 64

# Every work-item t applies `KIND value(t)` to cell[0] and stores the value
# the op returned (the cell's value before its update) in old[t].
KERNEL = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f(%cell: memref<1x{t}>, %vals: memref<{n}x{t}>, %old: memref<{n}x{t}>) kernel {{
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.load %vals[%i] : memref<{n}x{t}>
      %o = memref.atomic_rmw {kind} %v, %cell[%c0] : ({t}, memref<1x{t}>) -> {t}
      memref.store %o, %old[%i] : memref<{n}x{t}>
      gpu.return
    }}
  }}
  func.func @main(%cell: memref<1x{t}>, %vals: memref<{n}x{t}>, %old: memref<{n}x{t}>) {{
    %c1 = arith.constant 1 : index
    %cn = arith.constant {n} : index
    %dc = gpu.alloc () : memref<1x{t}>
    %dv = gpu.alloc () : memref<{n}x{t}>
    %do = gpu.alloc () : memref<{n}x{t}>
    gpu.memcpy %dc, %cell : memref<1x{t}>, memref<1x{t}>
    gpu.memcpy %dv, %vals : memref<{n}x{t}>, memref<{n}x{t}>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) args(%dc : memref<1x{t}>, %dv : memref<{n}x{t}>, %do : memref<{n}x{t}>)
    gpu.memcpy %cell, %dc : memref<1x{t}>, memref<1x{t}>
    gpu.memcpy %old, %do : memref<{n}x{t}>, memref<{n}x{t}>
    return
  }}
}}
"""

_DTYPES = {"i32": np.int32, "i64": np.int64, "f32": np.float32, "f64": np.float64}


def _values(t: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """The cell's start and the work-items' values: exact in any order."""
    rng = np.random.default_rng(abs(hash((t, kind))) % 2**32)
    dt = _DTYPES[t]
    if kind in ("mulf", "muli"):
        vals = rng.choice([1, 1, 1, 2, -1], N).astype(dt)
        start = np.array([3], dt)
    elif t in ("f32", "f64"):
        vals = rng.integers(-1000, 1000, N).astype(dt)
        start = np.array([0.5], dt)
    else:
        big = 1 << 40 if t == "i64" else 1 << 20
        vals = rng.integers(-big, big, N).astype(dt)
        start = np.array([7], dt)
    return start, vals


def _fold(kind: str, start, vals, dt):
    acc = start[0]
    with np.errstate(over="ignore"):
        for v in vals:
            if kind in ("addf", "addi"):
                acc = dt(acc + v)
            elif kind in ("mulf", "muli"):
                acc = dt(acc * v)
            elif kind in ("maximumf", "maxnumf", "maxs"):
                acc = max(acc, v)
            elif kind in ("minimumf", "minnumf", "mins"):
                acc = min(acc, v)
            elif kind == "maxu":
                acc = acc if acc.astype(np.uint64) >= v.astype(np.uint64) else v
            elif kind == "minu":
                acc = acc if acc.astype(np.uint64) <= v.astype(np.uint64) else v
            elif kind == "andi":
                acc = acc & v
            elif kind == "ori":
                acc = acc | v
            elif kind == "xori":
                acc = acc ^ v
    return acc


CASES = [
    (t, k)
    for t in ("i32", "i64")
    for k in ("addi", "muli", "maxs", "mins", "maxu", "minu", "andi", "ori", "xori", "assign")
] + [("f32", k) for k in ("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf", "assign")]
CASES += [("f64", k) for k in ("addf", "maximumf", "assign")]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("t", "kind"), CASES)
def test_every_kind_in_a_kernel(backend: str, t: str, kind: str):
    dt = _DTYPES[t]
    start, vals = _values(t, kind)
    cell = start.copy()
    old = np.zeros(N, dt)
    xgpu.run(KERNEL.format(t=t, n=N, kind=kind), args=[cell, vals, old], backend=backend)
    if kind == "assign":
        # Each swap returns the value it replaced: the old values and the
        # final one are the start and every work-item's value, each once.
        seen = sorted(np.concatenate([old, cell]).tolist())
        assert seen == sorted(np.concatenate([start, vals]).tolist())
        return
    assert cell[0] == _fold(kind, start, vals, dt)
    # The first update of the cell returned its start.
    assert start[0] in old


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_old_values_of_a_counter_are_each_count_once(backend: str):
    """64 work-items add 1: the values returned are 0..63, once each (an
    update that was not indivisible would return one twice)."""
    cell = np.zeros(1, np.int32)
    vals = np.ones(N, np.int32)
    old = np.full(N, -1, np.int32)
    xgpu.run(KERNEL.format(t="i32", n=N, kind="addi"), args=[cell, vals, old], backend=backend)
    assert cell[0] == N
    assert sorted(old.tolist()) == list(range(N))


GENERIC = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%cell: memref<2xf32>, %old: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %x = arith.index_cast %i : index to i32
      %f = arith.sitofp %x : i32 to f32
      %o = memref.generic_atomic_rmw %cell[%c1] : memref<2xf32> {
      ^bb0(%cur: f32):
        %two = arith.constant 2.0 : f32
        %m = arith.mulf %f, %two : f32
        %n = arith.maximumf %cur, %m : f32
        memref.atomic_yield %n : f32
      }
      memref.store %o, %old[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main(%cell: memref<2xf32>, %old: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %dc = gpu.alloc () : memref<2xf32>
    %do = gpu.alloc () : memref<64xf32>
    gpu.memcpy %dc, %cell : memref<2xf32>, memref<2xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dc : memref<2xf32>, %do : memref<64xf32>)
    gpu.memcpy %cell, %dc : memref<2xf32>, memref<2xf32>
    gpu.memcpy %old, %do : memref<64xf32>, memref<64xf32>
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_generic_atomic_rmw_in_a_kernel(backend: str):
    cell = np.array([5.0, -1.0], np.float32)
    old = np.zeros(64, np.float32)
    xgpu.run(GENERIC, args=[cell, old], backend=backend)
    assert cell.tolist() == [5.0, 126.0]
    assert -1.0 in old and old.max() < 126.0


HOST = """module {
  func.func @main(%m: memref<3xi32>, %out: memref<3xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %five = arith.constant 5 : i32
    %a = memref.atomic_rmw addi %five, %m[%c0] : (i32, memref<3xi32>) -> i32
    %neg = arith.constant -3 : i32
    %b = memref.atomic_rmw maxu %neg, %m[%c1] : (i32, memref<3xi32>) -> i32
    %c = memref.generic_atomic_rmw %m[%c2] : memref<3xi32> {
    ^bb0(%cur: i32):
      %d = arith.muli %cur, %cur : i32
      memref.atomic_yield %d : i32
    }
    memref.store %a, %out[%c0] : memref<3xi32>
    memref.store %b, %out[%c1] : memref<3xi32>
    memref.store %c, %out[%c2] : memref<3xi32>
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_atomics_in_host_code(backend: str):
    m = np.array([10, 4, 9], np.int32)
    out = np.zeros(3, np.int32)
    xgpu.run(HOST, args=[m, out], backend=backend)
    assert m.tolist() == [15, -3, 81]
    assert out.tolist() == [10, 4, 9]


def test_atomics_do_not_race_with_each_other():
    cell = np.zeros(1, np.int32)
    vals = np.ones(N, np.int32)
    old = np.zeros(N, np.int32)
    program = KERNEL.format(t="i32", n=N, kind="addi")
    xgpu.run(program, args=[cell, vals, old], backend="sim", detect_races=True)
    assert cell[0] == N
    text = GENERIC
    xgpu.run(
        text,
        args=[np.zeros(2, np.float32), np.zeros(64, np.float32)],
        backend="sim",
        detect_races=True,
    )


def test_an_atomic_and_a_plain_access_race():
    """Work-item 0 reads the counter the others update atomically."""
    racy = KERNEL.format(t="i32", n=N, kind="addi").replace(
        "      memref.store %o, %old[%i] : memref<64xi32>\n",
        "      memref.store %o, %old[%i] : memref<64xi32>\n"
        "      %peek = memref.load %cell[%c0] : memref<1xi32>\n",
    )
    assert "%peek" in racy
    cell = np.zeros(1, np.int32)
    with pytest.raises(RunError) as info:
        xgpu.run(
            racy,
            args=[cell, np.ones(N, np.int32), np.zeros(N, np.int32)],
            backend="sim",
            detect_races=True,
            name="r.mlir",
        )
    text = str(info.value)
    assert "data race" in text
    assert "memref.atomic_rmw" in text and "memref.load" in text


def test_narrow_elements_are_an_error_on_opencl():
    from devices import has_opencl

    if not has_opencl():
        pytest.skip("no OpenCL device")
    program = KERNEL.format(t="i16", n=N, kind="addi")
    with pytest.raises(RunError) as info:
        xgpu.run(
            program,
            args=[np.zeros(1, np.int16), np.ones(N, np.int16), np.zeros(N, np.int16)],
            name="n.mlir",
        )
    assert "atomics on 16-bit elements are not supported by OpenCL" in str(info.value)
