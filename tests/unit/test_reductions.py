"""gpu.all_reduce and gpu.subgroup_reduce in both reduction orders ("fold" and
"tree", `xgpu.backend.opencl.reductions`), forced with `reduction=`: on the
OpenCL device (PoCL in CI, a CPU device that gets "fold" by default) and on
the simulator, which reproduces the same order, and against numpy.

Every kernel stores every work item's result, so a lane that got another
value fails too. Float data are small integers and powers of two: sums and
products are exact in any order, so numpy's own order gives the same bits.
The OpenCL part is skipped, with the reason, without an OpenCL device.
"""

from __future__ import annotations

import functools
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import xgpu
from xgpu.backend.opencl import compile_gpu_module
from xgpu.semantics import gpu as gsem

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ("fold", "tree")
DTYPES = {
    "i1": np.uint8,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "f32": np.float32,
    "f64": np.float64,
}
INT_KINDS = ("add", "mul", "minsi", "minui", "maxsi", "maxui", "and", "or", "xor")
FLOAT_KINDS = ("add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf")


@functools.cache
def _device():
    """The OpenCL device, or the reason there is none."""
    try:
        from xgpu.runtime.opencl_device import select_device

        return select_device(None)
    except Exception as err:  # no pyopencl, no device
        return f"no OpenCL device: {err}"


def _has_fp64() -> bool:
    device = _device()
    return not isinstance(device, str) and "cl_khr_fp64" in device.extensions


# --------------------------------------------------------------------------- #
# Programs                                                                    #
# --------------------------------------------------------------------------- #

# Each kernel reads in[i] (i: the block's first item + the linear local id)
# and stores result k of its reductions at out[i, k].
KERNEL = """
    gpu.func @{name}(%in: memref<?x{t}>, %out: memref<?x{n}x{t}>) kernel {{
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %nx = gpu.block_dim x
      %ny = gpu.block_dim y
      %nz = gpu.block_dim z
      %b = gpu.block_id x
      %a0 = arith.muli %ny, %tz : index
      %a1 = arith.addi %ty, %a0 : index
      %a2 = arith.muli %nx, %a1 : index
      %l = arith.addi %tx, %a2 : index
      %nxy = arith.muli %nx, %ny : index
      %nwi = arith.muli %nxy, %nz : index
      %first = arith.muli %b, %nwi : index
      %i = arith.addi %first, %l : index
      %v = memref.load %in[%i] : memref<?x{t}>
{body}
{stores}
      gpu.return
    }}
"""

HOST = """
  func.func @main_{name}(%in: memref<?x{t}>, %out: memref<?x{n}x{t}>, %bx: index, %by: index,
                      %bz: index, %g: index) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %len = memref.dim %in, %c0 : memref<?x{t}>
    %din = gpu.alloc (%len) : memref<?x{t}>
    %dout = gpu.alloc (%len) : memref<?x{n}x{t}>
    gpu.memcpy %din, %in : memref<?x{t}>, memref<?x{t}>
    gpu.launch_func @k::@{name} blocks in (%g, %c1, %c1) threads in (%bx, %by, %bz) args(%din : memref<?x{t}>, %dout : memref<?x{n}x{t}>)
    gpu.memcpy %out, %dout : memref<?x{n}x{t}>, memref<?x{n}x{t}>
    gpu.dealloc %din : memref<?x{t}>
    gpu.dealloc %dout : memref<?x{n}x{t}>
    return
  }}
"""


def all_reduce(kind: str):
    return lambda k, t: f"%r{k} = gpu.all_reduce {kind} %v uniform {{}} : ({t}) -> {t}"


def subgroup_reduce(kind: str, size: int | None = None, stride: int = 1, uniform=False):
    cluster = "" if size is None else f" cluster(size = {size}, stride = {stride})"
    flag = " uniform" if uniform else ""
    return lambda k, t: f"%r{k} = gpu.subgroup_reduce {kind} %v{flag}{cluster} : ({t}) -> {t}"


def region(*lines: str):
    """The region form; `lines` compute %y from %x (lhs) and %z (rhs)."""

    def text(k: int, t: str) -> str:
        body = "\n".join("        " + re.sub(r"%([a-z]+)", rf"%\1_{k}", ln) for ln in lines)
        return (
            f"%r{k} = gpu.all_reduce %v {{\n      ^bb0(%x_{k}: {t}, %z_{k}: {t}):\n{body}\n"
            f"        gpu.yield %y_{k} : {t}\n      }} : ({t}) -> {t}"
        )

    return text


def in_loop(k: int, t: str) -> str:
    """Three iterations of acc = (sum(acc) - max(acc)) + v in an scf.for."""
    return f"""%lo{k} = arith.constant 0 : index
      %hi{k} = arith.constant 3 : index
      %st{k} = arith.constant 1 : index
      %r{k} = scf.for %it{k} = %lo{k} to %hi{k} step %st{k} iter_args(%acc{k} = %v) -> ({t}) {{
        %s{k} = gpu.all_reduce add %acc{k} uniform {{}} : ({t}) -> {t}
        %m{k} = gpu.all_reduce maxsi %acc{k} uniform {{}} : ({t}) -> {t}
        %d{k} = arith.subi %s{k}, %m{k} : {t}
        %e{k} = arith.addi %d{k}, %v : {t}
        scf.yield %e{k} : {t}
      }}"""


def kernel(name: str, t: str, pieces) -> str:
    body = "\n".join("      " + p(k, t) for k, p in enumerate(pieces))
    stores = "\n".join(
        f"      %c{k} = arith.constant {k} : index\n"
        f"      memref.store %r{k}, %out[%i, %c{k}] : memref<?x{len(pieces)}x{t}>"
        for k in range(len(pieces))
    )
    return KERNEL.format(name=name, t=t, n=len(pieces), body=body, stores=stores)


# name -> (element type, the reductions)
KERNELS = {
    **{
        f"kinds_{t}": (t, [all_reduce(kind) for kind in INT_KINDS])
        for t in ("i1", "i8", "i16", "i32", "i64")
    },
    **{f"kinds_{t}": (t, [all_reduce(kind) for kind in FLOAT_KINDS]) for t in ("f32", "f64")},
    "mixed_i32": (
        "i32",
        [
            all_reduce("add"),
            all_reduce("maxui"),
            region(
                "%three = arith.constant 3 : i32",
                "%p = arith.muli %x, %three : i32",
                "%y = arith.addi %p, %z : i32",
            ),  # fmt: skip
            region("%zero = arith.constant 0 : i32", "%y = arith.addi %x, %zero : i32"),
            region("%g = arith.cmpi sgt, %x, %z : i32", "%y = arith.select %g, %x, %z : i32"),
            in_loop,
        ],
    ),
    "mixed_f32": (
        "f32",
        [
            all_reduce("add"),
            all_reduce("mul"),
            all_reduce("minimumf"),
            region("%y = arith.addf %x, %z : f32"),
        ],
    ),
    "sub_i32": (
        "i32",
        [
            subgroup_reduce("add"),
            subgroup_reduce("maxsi", 4),
            subgroup_reduce("add", 4, 2),
            subgroup_reduce("mul", 2, 4),
            subgroup_reduce("minui", 16),
        ],
    ),
    "sub_f32": (
        "f32",
        [
            subgroup_reduce("add", uniform=True),
            subgroup_reduce("add", 8),
            subgroup_reduce("minimumf", 2, 2, uniform=True),
        ],
    ),
}


@functools.cache
def program(family: str | None = None):
    """The module of the kernels whose names start with `family` (all: None),
    each with its host function @main_<name>. One gpu.module per family keeps
    each OpenCL program (rebuilt per subgroup size and order) small."""
    names = [n for n in KERNELS if family is None or n.startswith(family)]
    kernels = "".join(kernel(n, *KERNELS[n]) for n in names)
    hosts = "".join(HOST.format(name=n, t=KERNELS[n][0], n=len(KERNELS[n][1])) for n in names)
    text = (
        "module attributes {gpu.container_module} {\n  gpu.module @k {"
        + kernels
        + "  }\n"
        + hosts
        + "}\n"
    )
    module = xgpu.parse(text, "reductions.mlir")
    errors = xgpu.verify(module)
    assert not errors, errors.format()
    return module


# --------------------------------------------------------------------------- #
# Data and expectations                                                       #
# --------------------------------------------------------------------------- #


def data(t: str, n: int, seed: int = 0) -> np.ndarray:
    """Mostly +-1 (products stay meaningful), some extremes and random values;
    floats: powers of two from 1/4 to 4 (exact sums and products)."""
    rng = np.random.default_rng(seed)
    dt = DTYPES[t]
    if t == "i1":
        return rng.integers(0, 2, n).astype(dt)
    if t.startswith("f"):
        mags = np.where(rng.random(n) < 0.8, 1.0, rng.choice([0.25, 0.5, 2.0, 4.0], n))
        return (mags * rng.choice([-1.0, 1.0], n)).astype(dt)
    info = np.iinfo(dt)
    x = rng.choice(np.array([-1, 1], dt), n)
    wide = rng.random(n) < 0.3
    x[wide] = rng.integers(info.min, info.max, int(wide.sum()), dtype=dt, endpoint=True)
    if n > 4:
        x[rng.integers(0, n, 2)] = [info.min, info.max]
    return x


def expect(kind: str, t: str, vals: np.ndarray):
    """numpy's reduction of `vals` (one group) by `kind` on type `t`."""
    if t == "i1":  # 0/1; signed, 1 is -1
        any_, all_ = vals.any(), vals.all()
        return np.uint8(
            {
                "add": vals.sum() % 2,
                "xor": vals.sum() % 2,
                "mul": all_,
                "and": all_,
                "minui": all_,
                "maxsi": all_,
                "or": any_,
                "maxui": any_,
                "minsi": any_,
            }[kind]
        )
    dt = vals.dtype
    if kind in ("minui", "maxui"):
        u = vals.view(np.dtype(dt.str.replace("i", "u")))
        return (u.min() if kind == "minui" else u.max()).astype(u.dtype).view(dt)
    table = {
        "add": np.add,
        "mul": np.multiply,
        "minsi": np.minimum,
        "maxsi": np.maximum,
        "and": np.bitwise_and,
        "or": np.bitwise_or,
        "xor": np.bitwise_xor,
        "minnumf": np.fmin,
        "maxnumf": np.fmax,
        "minimumf": np.minimum,
        "maximumf": np.maximum,
    }
    return table[kind].reduce(vals, dtype=dt)


def _wrap32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def expect_mixed_i32(vals: np.ndarray, order: str) -> list:
    py = [int(v) for v in vals]
    acc = py
    for _ in range(3):
        step = sum(acc) - max(acc)
        acc = [_wrap32(step + v) for v in py]
    return [
        expect("add", "i32", vals),
        expect("maxui", "i32", vals),
        # Not associative: the order is the one asked for, in Python.
        gsem.REDUCTIONS[order](py, lambda a, b: _wrap32(3 * a + b)),
        vals[0],  # the left operand, always the lower lane: lane 0's value
        vals.max(),
        np.array(acc, np.int32),  # per lane
    ]


def expect_subgroups(name: str, vals: np.ndarray, size: int) -> np.ndarray:
    """Per lane of one block, the results of kernel `name` (subgroups of
    `size` lanes in linear order, the last one partial)."""
    t, pieces = KERNELS[name]
    specs = {
        "sub_i32": [("add", None, 1), ("maxsi", 4, 1), ("add", 4, 2), ("mul", 2, 4), ("minui", 16, 1)],
        "sub_f32": [("add", None, 1), ("add", 8, 1), ("minimumf", 2, 2)],
    }[name]  # fmt: skip
    out = np.zeros((len(vals), len(specs)), vals.dtype)
    for lane in range(len(vals)):
        sg = lane // size * size
        sub = vals[sg : sg + size]
        j = lane - sg
        for k, (kind, csize, stride) in enumerate(specs):
            if csize is None:
                members = sub
            else:
                same = [
                    m
                    for m in range(len(sub))
                    if m // (csize * stride) == j // (csize * stride) and m % stride == j % stride
                ]
                members = sub[same]
            out[lane, k] = expect(kind, t, members)
    return out


# --------------------------------------------------------------------------- #
# Running                                                                     #
# --------------------------------------------------------------------------- #


def launch(name: str, block, grid: int, backend: str, order: str, seed=0, subgroup_size=None):
    t, pieces = KERNELS[name]
    nwi = math.prod(block)
    x = data(t, nwi * grid, seed)
    out = np.zeros((nwi * grid, len(pieces)), DTYPES[t])
    xgpu.run(
        program(name.split("_")[0]),
        entry=f"main_{name}",
        args=[x, out, *block, grid],
        backend=backend,
        reduction=order,
        subgroup_size=subgroup_size,
    )
    return x, out


def bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.dtype(f"u{a.dtype.itemsize}"))


def both(name: str, block, grid: int, order: str, **kw):
    """The simulator's results; on an OpenCL device, the device's, which must
    be the same bits. Returns (input, results)."""
    x, sim = launch(name, block, grid, "sim", order, **kw)
    device = _device()
    if isinstance(device, str):
        return x, sim
    if KERNELS[name][0] == "f64" and not _has_fp64():
        return x, sim
    _, ocl = launch(name, block, grid, "opencl", order, **kw)
    np.testing.assert_array_equal(bits(ocl), bits(sim), err_msg=f"{name} {block} {order}")
    return x, sim


def check_kinds(name: str, x: np.ndarray, got: np.ndarray, nwi: int) -> None:
    t, _ = KERNELS[name]
    kinds = INT_KINDS if t.startswith("i") else FLOAT_KINDS
    for g in range(len(x) // nwi):
        vals = x[g * nwi : (g + 1) * nwi]
        rows = got[g * nwi : (g + 1) * nwi]
        for k, kind in enumerate(kinds):
            want = expect(kind, t, vals)
            assert (bits(rows[:, k]) == bits(np.array([want], rows.dtype))).all(), (
                f"{name} {kind} block {g}: {rows[:, k][:8]} != {want}"
            )


# --------------------------------------------------------------------------- #
# Tests                                                                       #
# --------------------------------------------------------------------------- #


# Each (kernel, block size) costs PoCL a build of about a second: the
# combinations are chosen to cover every case once, not all products.


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("t", list(DTYPES))
def test_every_kind_and_type(t, order):
    name = f"kinds_{t}"
    block = (33, 1, 1) if t in ("i1", "i16", "i64", "f64") else (4, 3, 2)
    x, got = both(name, block, 2, order, seed=len(t))
    check_kinds(name, x, got, math.prod(block))


SIZES = [(n, 1, 1) for n in (1, 2, 3, 7, 31, 32, 33, 64, 100, 256, 1000, 1024)]
SIZES += [(3, 5, 7), (32, 32, 1)]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("block", SIZES, ids=["x".join(map(str, b)) for b in SIZES])
def test_workgroup_sizes_several_reductions_regions_loops(block, order):
    """i32: add, maxui, three region forms and two reductions in an scf.for,
    on every workgroup size; f32 add, mul, minimumf and a region on three."""
    nwi = math.prod(block)
    grid = 1 if nwi > 256 else 2
    x, got = both("mixed_i32", block, grid, order, seed=nwi)
    for g in range(grid):
        vals = x[g * nwi : (g + 1) * nwi]
        rows = got[g * nwi : (g + 1) * nwi]
        want = expect_mixed_i32(vals, order)
        for k in range(5):
            assert (rows[:, k] == want[k]).all(), (k, rows[:4, k], want[k])
        np.testing.assert_array_equal(rows[:, 5], want[5])
    if nwi not in (3, 105, 1024):
        return
    x, got = both("mixed_f32", block, grid, order, seed=nwi + 1)
    for g in range(grid):
        vals = x[g * nwi : (g + 1) * nwi]
        rows = got[g * nwi : (g + 1) * nwi]
        want = [expect(k, "f32", vals) for k in ("add", "mul", "minimumf", "add")]
        for k in range(4):
            assert (rows[:, k] == want[k]).all(), (k, rows[:4, k], want[k])


SUBGROUP_CASES = [(8, (30, 1, 1)), (8, (6, 4, 2)), (32, (100, 1, 1))]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(("size", "block"), SUBGROUP_CASES, ids=["8-30", "8-6x4x2", "32-100"])
def test_subgroup_reduce_sizes_and_clusters(block, size, order):
    """Emulated subgroups of 8 and 32 lanes (the last one partial), clusters
    with strides, partial clusters and a cluster larger than the subgroup."""
    nwi = math.prod(block)
    for name in ("sub_i32", "sub_f32"):
        x, got = both(name, block, 2, order, seed=size, subgroup_size=size)
        for g in range(2):
            want = expect_subgroups(name, x[g * nwi : (g + 1) * nwi], size)
            np.testing.assert_array_equal(got[g * nwi : (g + 1) * nwi], want)


NAN_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @nan(%in: memref<?xf32>, %out: memref<?x4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<?xf32>
      %a = gpu.all_reduce minnumf %v uniform {} : (f32) -> f32
      %b = gpu.all_reduce maxnumf %v uniform {} : (f32) -> f32
      %c = gpu.all_reduce minimumf %v uniform {} : (f32) -> f32
      %d = gpu.all_reduce maximumf %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      memref.store %a, %out[%i, %c0] : memref<?x4xf32>
      memref.store %b, %out[%i, %c1] : memref<?x4xf32>
      memref.store %c, %out[%i, %c2] : memref<?x4xf32>
      memref.store %d, %out[%i, %c3] : memref<?x4xf32>
      gpu.return
    }
  }
  func.func @main(%in: memref<?xf32>, %out: memref<?x4xf32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %n = memref.dim %in, %c0 : memref<?xf32>
    %din = gpu.alloc (%n) : memref<?xf32>
    %dout = gpu.alloc (%n) : memref<?x4xf32>
    gpu.memcpy %din, %in : memref<?xf32>, memref<?xf32>
    gpu.launch_func @k::@nan blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%din : memref<?xf32>, %dout : memref<?x4xf32>)
    gpu.memcpy %out, %dout : memref<?x4xf32>, memref<?x4xf32>
    return
  }
}
"""


@pytest.mark.parametrize("order", ORDERS)
def test_nan_in_min_max(order):
    x = np.arange(1, 38, dtype=np.float32) - 20
    x[7] = np.nan
    backends = ["sim"] + ([] if isinstance(_device(), str) else ["opencl"])
    for backend in backends:
        out = np.zeros((len(x), 4), np.float32)
        xgpu.run(NAN_KERNEL, args=[x, out], backend=backend, reduction=order)
        assert (out[:, 0] == -19).all() and (out[:, 1] == 17).all(), backend
        assert np.isnan(out[:, 2:]).all(), backend


# --------------------------------------------------------------------------- #
# The generated C                                                             #
# --------------------------------------------------------------------------- #


def _sources(**options) -> str:
    gpu_module = next(op for op in program().walk() if op.name == "gpu.module")
    return compile_gpu_module(gpu_module, **options).source


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("subgroup_size", [None, 8])
def test_barriers_are_in_uniform_control_flow_only(order, subgroup_size):
    """In the emitted C (kernels whose own control flow is uniform: one
    scf.for with constant bounds), every barrier is inside plain blocks,
    do-while loops (their exit conditions only count the workgroup, subgroup
    or cluster size down) and the kernel's own loop; never inside an `if`
    or any other loop."""
    source = _sources(reduction=order, subgroup_size=subgroup_size)
    stack: list[str] = []
    barriers = 0
    for line in source.splitlines():
        text = line.strip()
        if text.startswith("}"):
            stack.pop()
        if "barrier(" in text:
            barriers += 1
            bad = [s for s in stack if s not in ("{", "do {", "kernel", "scf.for")]
            assert not bad, f"barrier inside {bad}"
        if text.endswith("{"):
            if text.startswith("__kernel"):
                stack.append("kernel")
            elif re.match(r"for \(long v\w* = 0L; v\w* < 3L; ", text):
                stack.append("scf.for")
            else:
                stack.append(text.lstrip("} "))
    assert barriers > 0 and not stack


def test_tree_loops_are_do_while_opening_with_a_barrier():
    source = _sources(reduction="tree")
    assert "for (long xg_j" not in source  # no fold left
    loops = source.count("do {")
    opened = len(re.findall(r"do \{\n\s*barrier\(CLK_LOCAL_MEM_FENCE\);", source))
    assert loops == opened > 0
    fold = _sources(reduction="fold")
    assert "do {" not in fold and "for (long xg_j" in fold


def _kernel_source(source: str, name: str) -> str:
    start = re.search(rf"void xg[0-9]+_{name}\(", source).start()
    end = source.find("__kernel", start)
    return source[start : end if end >= 0 else len(source)]


def test_the_last_reduction_outside_loops_needs_no_release_barrier():
    """A reduction ends with a barrier so that the next scratch op cannot
    overwrite its result before every lane has read it; after the kernel's
    last one, outside loops, there is none. In a loop it stays."""
    fold, tree = _sources(reduction="fold"), _sources(reduction="tree")
    kinds = _kernel_source(fold, "kinds_i32")
    assert kinds.count("barrier(") == 3 * len(INT_KINDS) - 1
    last = kinds[kinds.rindex("barrier(") :]
    assert "= xg_s[0];" in last and "barrier(" not in last[1:]
    mixed = _kernel_source(fold, "mixed_i32")  # the last two are in an scf.for
    assert mixed.count("barrier(") == 3 * 7
    # tree: one barrier per step (in the loop), one after it, one release
    assert _kernel_source(tree, "kinds_i32").count("barrier(") == 3 * len(INT_KINDS) - 1


@pytest.mark.skipif(shutil.which("clang-14") is None, reason="clang-14 is not installed")
@pytest.mark.parametrize("order", ORDERS)
def test_emitted_reductions_compile_for_nvptx64(order, tmp_path):
    for size in (None, 8):
        path = tmp_path / f"r{size}.cl"
        path.write_text(_sources(reduction=order, subgroup_size=size))
        proc = subprocess.run(
            ["clang-14", "-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-nvcl",
             "-Xclang", "-finclude-default-header", "-S", "-o", "/dev/null", str(path)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        assert "warning" not in proc.stderr, proc.stderr


@pytest.mark.skipif(shutil.which("oclgrind") is None, reason="oclgrind is not installed")
def test_tree_is_oclgrind_clean_and_oclgrind_gets_the_tree(tmp_path):
    """Oclgrind reports itself as a GPU: xgpu-run gives it the tree. Run the
    collectives program under Oclgrind's race and uninitialized-value checks:
    no report, and the simulator's output in the tree order."""
    path = ROOT / "tests" / "runtime" / "sim" / "subgroups.mlir"
    cmd = [sys.executable, "-m", "xgpu.tools.xgpu_run", "--device", "oclgrind", "--verbose"]
    proc = subprocess.run(
        ["oclgrind", "--data-races", "--uninitialized", *cmd, "--subgroup-size", "8", str(path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("xgpu-run: device:")]
    assert not lines, proc.stderr
    assert "GPU" in proc.stderr
    sim = subprocess.run(
        [sys.executable, "-m", "xgpu.tools.xgpu_run", "--backend", "sim", "--reduction", "tree",
         "--subgroup-size", "8", str(path)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip

    def strip(s: str) -> str:
        return re.sub(r"base@ = 0x[0-9a-f]+", "", s)

    assert strip(proc.stdout) == strip(sim.stdout) and sim.stdout


# --------------------------------------------------------------------------- #
# Choosing the order                                                          #
# --------------------------------------------------------------------------- #


class _FakeDevice:
    def __init__(self, kind: int):
        self.type = kind
        self.extensions = "cl_khr_fp64"


def test_the_device_type_chooses_the_order_and_the_variable_forces_it(monkeypatch):
    cl = pytest.importorskip("pyopencl", reason="pyopencl is not installed")
    from xgpu.backend.opencl.device import REDUCTION_ENV, emit_options

    kinds = cl.device_type
    monkeypatch.delenv(REDUCTION_ENV, raising=False)
    assert emit_options(_FakeDevice(kinds.CPU))["reduction"] == "fold"
    # Oclgrind's type has every bit, GPU included.
    for kind in (kinds.GPU, kinds.ACCELERATOR, kinds.ALL, kinds.CPU | kinds.GPU):
        assert emit_options(_FakeDevice(kind))["reduction"] == "tree"
    assert emit_options(_FakeDevice(kinds.GPU), reduction="fold")["reduction"] == "fold"
    monkeypatch.setenv(REDUCTION_ENV, "tree")
    assert emit_options(_FakeDevice(kinds.CPU))["reduction"] == "tree"
    assert emit_options(_FakeDevice(kinds.CPU), reduction="fold")["reduction"] == "fold"
    monkeypatch.setenv(REDUCTION_ENV, "both")
    with pytest.raises(ValueError, match="XGPU_REDUCTION must be 'fold' or 'tree', not 'both'"):
        emit_options(_FakeDevice(kinds.CPU))
    with pytest.raises(ValueError, match="reduction must be 'fold' or 'tree'"):
        compile_gpu_module(next(op for op in program().walk() if op.name == "gpu.module"),
                           reduction="both")  # fmt: skip


def test_a_cpu_device_gets_the_fold():
    device = _device()
    if isinstance(device, str):
        pytest.skip(device)
    import pyopencl as cl

    from xgpu.backend.opencl.device import device_reduction

    if device.type & (cl.device_type.GPU | cl.device_type.ACCELERATOR):
        pytest.skip("not a CPU device")
    assert device_reduction(device) == "fold"


def test_xgpu_run_reports_a_bad_choice(monkeypatch, capfd):
    from xgpu.tools.xgpu_run import main

    path = str(ROOT / "tests" / "runtime" / "zoo" / "reduction.mlir")
    monkeypatch.setenv("XGPU_REDUCTION", "both")
    for backend in ("sim", "opencl"):
        if backend == "opencl" and isinstance(_device(), str):
            continue
        capfd.readouterr()
        with pytest.raises(SystemExit) as info:
            main([path, "--backend", backend])
        assert info.value.code == 1
        err = capfd.readouterr().err
        assert err == "xgpu-run: error: XGPU_REDUCTION must be 'fold' or 'tree', not 'both'\n"
    monkeypatch.delenv("XGPU_REDUCTION")
    with pytest.raises(SystemExit) as info:
        main([path, "--reduction", "both"])
    assert info.value.code == 2
    assert "invalid choice: 'both'" in capfd.readouterr().err


_OCLGRIND_SCRIPT = """
import sys
sys.path.insert(0, {here!r})
import test_reductions as T
for order in T.ORDERS:
    for name, block, size in T.OCLGRIND_CASES:
        _, sim = T.launch(name, block, 2, "sim", order, subgroup_size=size)
        _, ocl = T.launch(name, block, 2, "opencl", order, subgroup_size=size)
        if not (T.bits(ocl) == T.bits(sim)).all():
            print("different:", order, name, block, size)
"""
OCLGRIND_CASES = [
    ("kinds_i32", (33, 1, 1), None),
    ("kinds_f64", (4, 3, 2), None),
    ("kinds_i1", (5, 1, 1), None),
    ("mixed_i32", (3, 5, 7), None),
    ("mixed_f32", (100, 1, 1), None),
    ("sub_i32", (30, 1, 1), 8),
    ("sub_f32", (6, 4, 2), 8),
    ("sub_i32", (100, 1, 1), 32),
]


@pytest.mark.skipif(shutil.which("oclgrind") is None, reason="oclgrind is not installed")
def test_both_orders_are_oclgrind_clean_and_match_the_simulator():
    """Kernels of every family, both orders, on Oclgrind under its race and
    uninitialized-value checks: no report, the simulator's bits."""
    script = _OCLGRIND_SCRIPT.format(here=str(Path(__file__).parent))
    proc = subprocess.run(
        ["oclgrind", "--data-races", "--uninitialized", sys.executable, "-c", script],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
        env={**os.environ, "XGPU_DEVICE": "oclgrind"},
    )  # fmt: skip
    assert proc.returncode == 0 and not proc.stdout and not proc.stderr.strip(), (
        proc.stdout + proc.stderr
    )
