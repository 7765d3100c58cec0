"""gpu.subgroup_mma_* kernels on both backends against numpy, and f16 on
an OpenCL device without cl_khr_fp16.

The expected values are computed here in numpy from the rules of
`xgpu.semantics.mma` written out again (not by calling it): f32
accumulation one k at a time, f16 accumulation rounded to f16 once per pair
of k."""

from __future__ import annotations

import functools

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError


@functools.cache
def _opencl() -> bool:
    try:
        from xgpu.runtime.opencl_device import select_device

        select_device(None)
        return True
    except Exception:
        return False


def _backends() -> list[str]:
    return ["sim", "opencl"] if _opencl() else ["sim"]


def _program(ct: str, ld: int, cols: int, at: str, attrs_a: str, attrs_b: str, threads: int):
    """One kernel: D = A x B + C with A, B 16x16 f16 loaded from `in`
    (`attrs_*`: transpose), C of `ct` loaded from and D stored to `out`
    (rows of `cols` elements, window at column `at`, leadDimension `ld`)."""
    return f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @mma(%in: memref<16x16xf16>, %out: memref<16x{cols}x{ct}>) kernel {{
      %c0 = arith.constant 0 : index
      %cj = arith.constant {at} : index
      %a = gpu.subgroup_mma_load_matrix %in[%c0, %c0] {{leadDimension = 16 : index{attrs_a}}} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %b = gpu.subgroup_mma_load_matrix %in[%c0, %c0] {{leadDimension = 16 : index{attrs_b}}} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %c = gpu.subgroup_mma_load_matrix %out[%c0, %cj] {{leadDimension = {ld} : index}} : memref<16x{cols}x{ct}> -> !gpu.mma_matrix<16x16x{ct}, "COp">
      %d = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16x{ct}, "COp">
      gpu.subgroup_mma_store_matrix %d, %out[%c0, %cj] {{leadDimension = {ld} : index}} : !gpu.mma_matrix<16x16x{ct}, "COp">, memref<16x{cols}x{ct}>
      gpu.return
    }}
  }}
  func.func @main(%in: memref<16x16xf16>, %out: memref<16x{cols}x{ct}>) {{
    %c1 = arith.constant 1 : index
    %n = arith.constant {threads} : index
    %din = gpu.alloc () : memref<16x16xf16>
    %dout = gpu.alloc () : memref<16x{cols}x{ct}>
    gpu.memcpy %din, %in : memref<16x16xf16>, memref<16x16xf16>
    gpu.memcpy %dout, %out : memref<16x{cols}x{ct}>, memref<16x{cols}x{ct}>
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%din : memref<16x16xf16>, %dout : memref<16x{cols}x{ct}>)
    gpu.memcpy %out, %dout : memref<16x{cols}x{ct}>, memref<16x{cols}x{ct}>
    return
  }}
}}
"""


def _expect_f32(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    d = c.astype(np.float32).copy()
    for k in range(16):
        d = d + a[:, k, None].astype(np.float32) * b[None, k, :].astype(np.float32)
    return d


def _expect_f16(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    d = c.astype(np.float32)
    for k in range(0, 16, 2):
        pair = (a[:, k, None].astype(np.float32) * b[None, k, :]) + (
            a[:, k + 1, None].astype(np.float32) * b[None, k + 1, :]
        )
        d = np.float32(d + pair).astype(np.float16).astype(np.float32)
    return d.astype(np.float16)


def _inputs(ct: str, cols: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.integers(-8, 9, (16, 16)).astype(np.float16) / np.float16(4)
    if ct == "f16":
        # Sums past 2048 round in f16: the expected values test the pairs.
        x = (rng.integers(0, 40, (16, 16))).astype(np.float16)
    out = rng.integers(-50, 50, (16, cols)).astype(
        np.dtype("float16" if ct == "f16" else "float32")
    )
    return x, out


CASES = [
    # (C type, leadDimension, columns of out, window column, transpose A, B, threads)
    ("f32", 16, 16, 0, False, False, 32),
    ("f32", 16, 16, 0, True, True, 32),
    ("f32", 32, 32, 16, True, False, 32),
    ("f16", 16, 16, 0, False, False, 32),
    ("f16", 32, 32, 16, False, True, 32),
    ("f32", 16, 16, 0, False, False, 8),  # a subgroup of 8 lanes
]


@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_mma_kernel_matches_numpy(backend: str, case) -> None:
    ct, ld, cols, at, ta, tb, threads = case
    x, out = _inputs(ct, cols, seed=ld + at + ta + 2 * tb)
    before = out.copy()
    src = _program(
        ct, ld, cols, at, ", transpose" if ta else "", ", transpose" if tb else "", threads
    )
    xgpu.run(src, entry="main", args=[x, out], backend=backend)
    a = x.T if ta else x
    b = x.T if tb else x
    c = before[:, at : at + 16]
    want = _expect_f16(a, b, c) if ct == "f16" else _expect_f32(a, b, c)
    np.testing.assert_array_equal(out[:, at : at + 16], want)
    # The rest of `out` is untouched.
    rest = np.delete(out, np.s_[at : at + 16], axis=1)
    np.testing.assert_array_equal(rest, np.delete(before, np.s_[at : at + 16], axis=1))


DIVERGENT = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%out: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1.0 : f32
      %t = gpu.thread_id x
      %low = arith.cmpi ult, %t, %c16 : index
      scf.if %low {
        %m = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf32, "COp">
        gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      }
      gpu.return
    }
  }
  func.func @main(%out: memref<16x16xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<16x16xf32>
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<16x16xf32>)
    gpu.memcpy %out, %d : memref<16x16xf32>, memref<16x16xf32>
    return
  }
}
"""


def test_divergent_mma_op_is_an_error_on_the_simulator() -> None:
    out = np.zeros((16, 16), np.float32)
    with pytest.raises(RunError) as info:
        xgpu.run(DIVERGENT, entry="main", args=[out], backend="sim")
    text = str(info.value)
    assert "gpu.subgroup_mma_constant_matrix not reached by every work-item of its subgroup" in (
        text
    )
    assert "work-item (16, 0, 0) of block (0, 0, 0) returned without reaching it" in text
    assert "<input>:11:" in text  # the op's location


ELEMENTWISE_F16 = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xf16>, %b: memref<64xf16>, %o: memref<64xf16>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<64xf16>
      %y = memref.load %b[%i] : memref<64xf16>
      %p = arith.mulf %x, %y : f16
      %s = arith.addf %p, %x : f16
      %q = arith.divf %s, %y : f16
      memref.store %q, %o[%i] : memref<64xf16>
      gpu.return
    }
  }
  func.func @main(%a: memref<64xf16>, %b: memref<64xf16>, %o: memref<64xf16>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %da = gpu.alloc () : memref<64xf16>
    %db = gpu.alloc () : memref<64xf16>
    %do = gpu.alloc () : memref<64xf16>
    gpu.memcpy %da, %a : memref<64xf16>, memref<64xf16>
    gpu.memcpy %db, %b : memref<64xf16>, memref<64xf16>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%da : memref<64xf16>, %db : memref<64xf16>, %do : memref<64xf16>)
    gpu.memcpy %o, %do : memref<64xf16>, memref<64xf16>
    return
  }
}
"""


@pytest.mark.parametrize("backend", _backends())
def test_f16_elementwise_rounds_after_each_op(backend: str) -> None:
    """f16 arithmetic (emulated in float on devices without cl_khr_fp16)
    rounds to f16 after each op, as numpy's float16 does; values include
    subnormal f16 results and overflow to infinity."""
    rng = np.random.default_rng(5)
    a = rng.uniform(-300, 300, 64).astype(np.float16)
    b = rng.uniform(0.01, 3, 64).astype(np.float16)
    a[:4] = [6.1e-5, 1e-4, 60000, -3e-5]
    b[:4] = [0.01, 0.003, 200, 0.5]
    o = np.zeros(64, np.float16)
    xgpu.run(ELEMENTWISE_F16, entry="main", args=[a, b, o], backend=backend)
    with np.errstate(all="ignore"):
        want = ((a * b) + a) / b  # numpy float16: rounded after each op
    assert np.isinf(want[2])
    np.testing.assert_array_equal(o.view(np.uint16), want.view(np.uint16))


def test_f16_rounding_helper_is_exact_on_the_device() -> None:
    """`xg_half` against numpy's float32 -> float16 rounding on 2^16 floats
    around every f16 exponent (ties, subnormals, overflow, signs)."""
    if not _opencl():
        pytest.skip("no OpenCL device")
    import pyopencl as cl

    from xgpu.backend.opencl.half import ROUND
    from xgpu.runtime.opencl_device import select_device

    device = select_device(None)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    src = ROUND.source + (
        "\n__kernel void k(__global const float* x, __global float* y) {"
        " size_t i = get_global_id(0); y[i] = xg_half(x[i]); }"
    )
    prog = cl.Program(ctx, src).build(options="-cl-std=CL1.2")
    rng = np.random.default_rng(0)
    halves = rng.integers(0, 1 << 16, 1 << 15, dtype=np.uint32).astype(np.uint16)
    base = halves.view(np.float16).astype(np.float32)
    ties = (base.view(np.uint32) + np.uint32(1 << 12)).view(np.float32)  # halfway up
    x = np.concatenate([base, ties, np.float32([65519.0, 65520.0, 2.0**-25, 3 * 2.0**-26])])
    x = x[np.isfinite(x)].astype(np.float32)
    y = np.empty_like(x)
    mf = cl.mem_flags
    bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    by = cl.Buffer(ctx, mf.WRITE_ONLY, y.nbytes)
    prog.k(queue, (x.size,), None, bx, by)
    cl.enqueue_copy(queue, y, by)
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).astype(np.float32)
    np.testing.assert_array_equal(y.view(np.uint32), want.view(np.uint32))


BAD = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%out: memref<16x32xf32>, %i: index, %k: index) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = gpu.thread_id x
      %u = arith.remui %t, %c2 : index
      %j = arith.muli %u, %k : index
      %m = gpu.subgroup_mma_load_matrix %out[%i, %j] {leadDimension = 32 : index} : memref<16x32xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %m, %out[%c0, %c0] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x32xf32>
      gpu.return
    }
  }
  func.func @main(%out: memref<16x32xf32>, %i: index, %k: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<16x32xf32>
    gpu.memcpy %d, %out : memref<16x32xf32>, memref<16x32xf32>
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<16x32xf32>, %i : index, %k : index)
    gpu.memcpy %out, %d : memref<16x32xf32>, memref<16x32xf32>
    return
  }
}
"""


def _bad(i: int, k: int, backend: str) -> np.ndarray:
    out = np.arange(512, dtype=np.float32).reshape(16, 32)
    xgpu.run(BAD, entry="main", args=[out, i, k], backend=backend)
    return out


@pytest.mark.parametrize("backend", _backends())
def test_window_outside_the_memory_is_an_error_at_the_op(backend: str) -> None:
    """The window at row 1 of a 16x32 memref with leadDimension 32: its
    element (15, 0) is at 1 * 32 + 15 * 32 = 512, the first position past
    the 512 elements in row-major order."""
    with pytest.raises(RunError) as info:
        _bad(1, 0, backend)
    assert (
        "<input>:10:12: error: gpu.subgroup_mma_load_matrix loads from element 512 of memory "
        "of 512 elements (the 16x16 window at indices [1, 0] with leadDimension 32)"
    ) in str(info.value)


@pytest.mark.parametrize("backend", _backends())
def test_in_place_load_and_store_of_a_window(backend: str) -> None:
    """Every lane loads [0, 0] and stores it back: memory unchanged."""
    np.testing.assert_array_equal(_bad(0, 0, backend), np.arange(512).reshape(16, 32))


def test_lanes_giving_other_indices_is_an_error_on_the_simulator() -> None:
    """Odd lanes load at [0, 1], even ones at [0, 0]."""
    with pytest.raises(RunError) as info:
        _bad(0, 1, "sim")
    assert (
        "gpu.subgroup_mma_load_matrix: lane 1 of the subgroup gives other memory or indices "
        "than lane 0"
    ) in str(info.value)


K_LOOP = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: memref<16x48xf16>, %b: memref<48x16xf16>, %out: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %zero = arith.constant 0.0 : f32
      %z = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c48 step %c16 iter_args(%c = %z) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %x = gpu.subgroup_mma_load_matrix %a[%c0, %k] {leadDimension = 48 : index} : memref<16x48xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %y = gpu.subgroup_mma_load_matrix %b[%k, %c0] {leadDimension = 16 : index} : memref<48x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %d = gpu.subgroup_mma_compute %x, %y, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %d : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<16x48xf16>, %b: memref<48x16xf16>, %out: memref<16x16xf32>) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %da = gpu.alloc () : memref<16x48xf16>
    %db = gpu.alloc () : memref<48x16xf16>
    %dout = gpu.alloc () : memref<16x16xf32>
    gpu.memcpy %da, %a : memref<16x48xf16>, memref<16x48xf16>
    gpu.memcpy %db, %b : memref<48x16xf16>, memref<48x16xf16>
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%da : memref<16x48xf16>, %db : memref<48x16xf16>, %dout : memref<16x16xf32>)
    gpu.memcpy %out, %dout : memref<16x16xf32>, memref<16x16xf32>
    return
  }
}
"""


@pytest.mark.parametrize("backend", _backends())
def test_accumulator_carried_through_a_k_loop(backend: str) -> None:
    """A 16x48 by 48x16 product in three 16-wide steps, the f32 accumulator
    an scf.for iteration value; f16 inputs with fractions, so the f32 sums
    round: numpy in the same order (k = 0, 1, ..., 47, each product exact)."""
    rng = np.random.default_rng(7)
    a = rng.uniform(-4, 4, (16, 48)).astype(np.float16)
    b = rng.uniform(-4, 4, (48, 16)).astype(np.float16)
    out = np.zeros((16, 16), np.float32)
    xgpu.run(K_LOOP, entry="main", args=[a, b, out], backend=backend)
    want = np.zeros((16, 16), np.float32)
    for k in range(48):
        want = want + a[:, k, None].astype(np.float32) * b[None, k, :].astype(np.float32)
    np.testing.assert_array_equal(out, want)


ELEMENTWISE_MMA = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%x: memref<16x16xf16>, %out: memref<4x16x16xf32>, %s: f16) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %nan = arith.constant 0x7FC00000 : f32
      %a = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %k = gpu.subgroup_mma_constant_matrix %s : !gpu.mma_matrix<16x16xf16, "COp">
      %q = gpu.subgroup_mma_elementwise divf %a, %k : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %n = gpu.subgroup_mma_elementwise negatef %q : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      %w = gpu.subgroup_mma_elementwise extf %n : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %e = gpu.subgroup_mma_elementwise extf %a : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %m = gpu.subgroup_mma_elementwise maxf %w, %e : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %z = gpu.subgroup_mma_constant_matrix %nan : !gpu.mma_matrix<16x16xf32, "COp">
      %p = gpu.subgroup_mma_elementwise minf %m, %z : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %w, %out[%c0, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4x16x16xf32>
      gpu.subgroup_mma_store_matrix %e, %out[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4x16x16xf32>
      gpu.subgroup_mma_store_matrix %m, %out[%c2, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4x16x16xf32>
      gpu.subgroup_mma_store_matrix %p, %out[%c3, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<4x16x16xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<16x16xf16>, %out: memref<4x16x16xf32>, %s: f16) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %dx = gpu.alloc () : memref<16x16xf16>
    %dout = gpu.alloc () : memref<4x16x16xf32>
    gpu.memcpy %dx, %x : memref<16x16xf16>, memref<16x16xf16>
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%dx : memref<16x16xf16>, %dout : memref<4x16x16xf32>, %s : f16)
    gpu.memcpy %out, %dout : memref<4x16x16xf32>, memref<4x16x16xf32>
    return
  }
}
"""


@pytest.mark.parametrize("backend", _backends())
def test_constant_and_elementwise_matrices(backend: str) -> None:
    """divf and negatef in f16 (rounded as numpy's float16), extf, maxf and
    minf as arith.maximumf/minimumf (NaN wins), a NaN constant matrix."""
    rng = np.random.default_rng(3)
    x = rng.uniform(-100, 100, (16, 16)).astype(np.float16)
    out = np.zeros((4, 16, 16), np.float32)
    xgpu.run(ELEMENTWISE_MMA, entry="main", args=[x, out, 3.0], backend=backend)
    w = (-(x / np.float16(3.0))).astype(np.float32)
    np.testing.assert_array_equal(out[0], w)
    np.testing.assert_array_equal(out[1], x.astype(np.float32))
    np.testing.assert_array_equal(out[2], np.maximum(w, x.astype(np.float32)))
    assert np.isnan(out[3]).all()


@pytest.mark.parametrize("backend", _backends())
@pytest.mark.parametrize("shape", ["0x16", "128x128"])
def test_matrix_sizes_out_of_range_are_errors_at_the_op(backend: str, shape: str) -> None:
    src = f"""
module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @mma() kernel {{
      %one = arith.constant 1.0 : f32
      %m = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<{shape}xf32, "COp">
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@mma blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }}
}}
"""
    with pytest.raises(RunError) as info:
        xgpu.run(src, entry="main", backend=backend)
    assert (
        f"<input>:6:12: error: 'gpu.subgroup_mma_constant_matrix' op MMA matrices of {shape} "
        "elements are not supported (from 1 to 4096"
    ) in str(info.value)


WORKGROUP_F16 = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xf16>, %o: memref<8xf16>) workgroup(%w: memref<8xf16, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %c7 = arith.constant 7 : index
      %x = memref.load %a[%i] : memref<8xf16>
      memref.store %x, %w[%i] : memref<8xf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c7, %i : index
      %y = memref.load %w[%j] : memref<8xf16, #gpu.address_space<workgroup>>
      %z = arith.mulf %y, %x : f16
      memref.store %z, %o[%i] : memref<8xf16>
      gpu.return
    }
  }
  func.func @main(%a: memref<8xf16>, %o: memref<8xf16>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %da = gpu.alloc () : memref<8xf16>
    %do = gpu.alloc () : memref<8xf16>
    gpu.memcpy %da, %a : memref<8xf16>, memref<8xf16>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%da : memref<8xf16>, %do : memref<8xf16>)
    gpu.memcpy %o, %do : memref<8xf16>, memref<8xf16>
    return
  }
}"""


@pytest.mark.parametrize("backend", _backends())
def test_f16_workgroup_memory(backend: str) -> None:
    """f16 through workgroup memory (half pointers, vload_half/vstore_half
    without cl_khr_fp16): o[i] = a[7 - i] * a[i] rounded to f16."""
    a = np.linspace(-3, 5, 8).astype(np.float16)
    o = np.zeros(8, np.float16)
    xgpu.run(WORKGROUP_F16, entry="main", args=[a, o], backend=backend)
    np.testing.assert_array_equal(o.view(np.uint16), (a[::-1] * a).view(np.uint16))


def test_f16_private_memory_without_cl_khr_fp16_is_an_error_at_the_op() -> None:
    if not _opencl():
        pytest.skip("no OpenCL device")
    from xgpu.runtime.opencl_device import select_device

    if "cl_khr_fp16" in select_device(None).extensions:
        pytest.skip("the device has cl_khr_fp16")
    src = WORKGROUP_F16.replace(
        "%x = memref.load %a[%i] : memref<8xf16>",
        "%x = memref.load %a[%i] : memref<8xf16>\n      %p = memref.alloca() : memref<2xf16>",
    )
    with pytest.raises(RunError) as info:
        xgpu.run(src, entry="main", args=[np.zeros(8, np.float16), np.zeros(8, np.float16)])
    assert (
        "<input>:8:12: error: 'memref.alloca' op f16 private memory needs cl_khr_fp16, which "
        "the target device lacks"
    ) in str(info.value)
