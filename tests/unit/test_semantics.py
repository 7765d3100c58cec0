"""xgpu.semantics: the Python side against numpy, and the C side (a sample of
ops and types) against the Python side on an OpenCL device."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import xgpu
from xgpu import semantics as S
from xgpu.semantics import gpu as G

INT_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def ints(t: str, n: int = 40, seed: int = 0) -> list[int]:
    info = np.iinfo(INT_TYPES[t])
    edge = [0, 1, -1, 2, -2, 7, -7, info.min, info.max, info.min + 1, info.max - 1]
    rng = np.random.default_rng(seed)
    return edge + [int(v) for v in rng.integers(info.min, info.max, n, endpoint=True)]


F32_EDGE = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, -2.5, 3.0, 1e10, -1e-3, math.inf, -math.inf, math.nan]


def floats(n: int = 30, seed: int = 0) -> list[float]:
    rng = np.random.default_rng(seed)
    return F32_EDGE + [float(np.float32(v)) for v in rng.standard_normal(n) * 10]


def same_float(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def sem(name: str, ops, res, **params):
    return S.lookup_name(name, ops, res, **params)


# --------------------------------------------------------------------------- #
# Python side vs numpy                                                         #
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("t", list(INT_TYPES))
def test_wrapping_integer_ops_match_numpy(t):
    dt = INT_TYPES[t]
    xs = ints(t, 12)
    pairs = list(itertools.product(xs, xs))
    a = np.array([p[0] for p in pairs], dtype=dt)
    b = np.array([p[1] for p in pairs], dtype=dt)
    with np.errstate(all="ignore"):
        expected = {
            "arith.addi": a + b,
            "arith.subi": a - b,
            "arith.muli": a * b,
            "arith.andi": a & b,
            "arith.ori": a | b,
            "arith.xori": a ^ b,
            "arith.minsi": np.minimum(a, b),
            "arith.maxsi": np.maximum(a, b),
        }
    udt = np.dtype(dt).newbyteorder("=").str.replace("i", "u")
    expected["arith.minui"] = np.minimum(a.view(udt), b.view(udt)).view(dt)
    expected["arith.maxui"] = np.maximum(a.view(udt), b.view(udt)).view(dt)
    for name, want in expected.items():
        s = sem(name, [t, t], [t])
        got = [s.py(int(x), int(y)) for x, y in zip(a, b)]
        assert got == [int(v) for v in want], name


@pytest.mark.parametrize("t", list(INT_TYPES))
def test_division_matches_numpy_and_reports_ub(t):
    dt = INT_TYPES[t]
    info = np.iinfo(dt)
    xs = ints(t, 10, seed=1)
    for name in ("arith.divsi", "arith.remsi", "arith.floordivsi", "arith.ceildivsi"):
        s = sem(name, [t, t], [t])
        for x, y in itertools.product(xs, xs):
            if y == 0 or (x == info.min and y == -1):
                with pytest.raises(S.UndefinedBehavior):
                    s.py(x, y)
                continue
            q_floor = x // y
            trunc = q_floor + (1 if (x % y != 0 and (x < 0) != (y < 0)) else 0)
            want = {
                "arith.divsi": trunc,
                "arith.remsi": x - y * trunc,
                "arith.floordivsi": q_floor,
                "arith.ceildivsi": -((-x) // y),
            }[name]
            assert s.py(x, y) == want, (name, x, y)
            if name == "arith.remsi":
                assert s.py(x, y) == int(np.fmod(dt(x), dt(y)))
    mask = (1 << np.iinfo(dt).bits) - 1
    for name in ("arith.divui", "arith.remui", "arith.ceildivui"):
        s = sem(name, [t, t], [t])
        for x, y in itertools.product(xs, xs):
            ux, uy = x & mask, y & mask
            if uy == 0:
                with pytest.raises(S.UndefinedBehavior):
                    s.py(x, y)
                continue
            want = {"arith.divui": ux // uy, "arith.remui": ux % uy}.get(name, -(-ux // uy))
            assert s.py(x, y) == S.scalar(t).norm(want)


@pytest.mark.parametrize("t", list(INT_TYPES))
def test_shifts_and_comparisons(t):
    dt = INT_TYPES[t]
    bits = np.iinfo(dt).bits
    udt = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[bits]
    xs = ints(t, 8, seed=2)
    for x in xs:
        for k in range(bits):
            assert sem("arith.shli", [t, t], [t]).py(x, k) == int(
                (np.array(x, dt).view(udt) << udt(k)).view(dt)
            )
            assert sem("arith.shrui", [t, t], [t]).py(x, k) == int(
                (np.array(x, dt).view(udt) >> udt(k)).view(dt)
            )
            assert sem("arith.shrsi", [t, t], [t]).py(x, k) == int(np.array(x, dt) >> dt(k))
    ops = {
        "eq": np.equal,
        "ne": np.not_equal,
        "slt": np.less,
        "sle": np.less_equal,
        "sgt": np.greater,
        "sge": np.greater_equal,
    }
    for (x, y), (pred, fn) in itertools.product(itertools.product(xs, xs), ops.items()):
        assert sem("arith.cmpi", [t, t], ["i1"], predicate=pred).py(x, y) == int(fn(dt(x), dt(y)))
        upred = "u" + pred[1:] if pred[0] == "s" else pred
        ux, uy = np.array(x, dt).view(udt), np.array(y, dt).view(udt)
        assert sem("arith.cmpi", [t, t], ["i1"], predicate=upred).py(x, y) == int(fn(ux, uy))


def test_casts_match_numpy():
    for src, dst in itertools.product(INT_TYPES, INT_TYPES):
        for x in ints(src, 10, seed=3):
            sd, dd = INT_TYPES[src], INT_TYPES[dst]
            wide = np.iinfo(dd).bits > np.iinfo(sd).bits
            if wide:
                assert sem("arith.extsi", [src], [dst]).py(x) == int(np.array(x, sd).astype(dd))
                usd = np.dtype(sd).str.replace("i", "u")
                assert sem("arith.extui", [src], [dst]).py(x) == int(
                    np.array(x, sd).view(usd).astype(dd)
                )
            elif np.iinfo(dd).bits < np.iinfo(sd).bits:
                assert sem("arith.trunci", [src], [dst]).py(x) == int(np.array(x, sd).astype(dd))
            for ft, fdt in (("f32", np.float32), ("f64", np.float64)):
                assert sem("arith.sitofp", [src], [ft]).py(x) == float(np.array(x, sd).astype(fdt))
    assert sem("arith.index_cast", ["index"], ["i32"]).py(2**40 + 5) == 5
    assert sem("arith.index_cast", ["i32"], ["index"]).py(-3) == -3
    assert sem("arith.index_castui", ["i32"], ["index"]).py(-1) == 2**32 - 1
    # float -> int: truncation in range, saturation and NaN -> 0 out of it.
    s = sem("arith.fptosi", ["f32"], ["i32"])
    assert [s.py(v) for v in (2.9, -2.9, 1e20, -1e20, math.nan)] == [2, -2, 2**31 - 1, -(2**31), 0]
    u = sem("arith.fptoui", ["f32"], ["i8"])
    assert [u.py(v) for v in (200.5, -3.0, 1e9)] == [-56, 0, -1]  # 200, 0, 255 as i8
    assert sem("arith.truncf", ["f64"], ["f32"]).py(0.1) == float(np.float32(0.1))
    assert sem("arith.uitofp", ["i32"], ["f32"]).py(-1) == float(np.float32(2**32 - 1))
    assert sem("arith.sitofp", ["i64"], ["f32"]).py(2**62 + 1) == float(np.float32(2**62))


def test_bitcast_and_i1():
    assert sem("arith.bitcast", ["f32"], ["i32"]).py(1.0) == 0x3F800000
    assert sem("arith.bitcast", ["i64"], ["f64"]).py(-(2**63)) == -0.0
    assert sem("arith.bitcast", ["i32"], ["f32"]).py(0x7F800000) == math.inf
    # i1: 0/1 values whose signed reading is 0/-1.
    assert sem("arith.addi", ["i1", "i1"], ["i1"]).py(1, 1) == 0
    assert sem("arith.extsi", ["i1"], ["i32"]).py(True) == -1
    assert sem("arith.extui", ["i1"], ["i32"]).py(1) == 1
    assert sem("arith.sitofp", ["i1"], ["f32"]).py(1) == -1.0
    assert sem("arith.cmpi", ["i1", "i1"], ["i1"], predicate="slt").py(1, 0) == 1
    assert sem("arith.cmpi", ["i1", "i1"], ["i1"], predicate="ult").py(1, 0) == 0
    assert sem("arith.minsi", ["i1", "i1"], ["i1"]).py(1, 0) == 1
    assert sem("arith.trunci", ["i32"], ["i1"]).py(6) == 0


def test_float_ops_match_numpy_f32():
    xs = floats(10, seed=4)
    pairs = list(itertools.product(xs, xs))
    a = np.array([p[0] for p in pairs], np.float32)
    b = np.array([p[1] for p in pairs], np.float32)
    with np.errstate(all="ignore"):
        expected = {
            "arith.addf": a + b,
            "arith.subf": a - b,
            "arith.mulf": a * b,
            "arith.divf": a / b,
            "arith.maximumf": np.maximum(a, b),
            "arith.minimumf": np.minimum(a, b),
            "arith.remf": np.fmod(a, b),
            "math.copysign": np.copysign(a, b),
        }
    for name, want in expected.items():
        s = sem(name, ["f32", "f32"], ["f32"])
        for x, y, w in zip(a, b, want):
            got = s.py(float(x), float(y))
            if name in ("arith.maximumf", "arith.minimumf") and x == 0 and y == 0:
                # numpy does not order -0 and +0; MLIR does (-0 < +0).
                if name == "arith.maximumf":
                    positive = math.copysign(1, x) > 0 or math.copysign(1, y) > 0
                    want_zero = 0.0 if positive else -0.0
                else:
                    negative = math.copysign(1, x) < 0 or math.copysign(1, y) < 0
                    want_zero = -0.0 if negative else 0.0
                assert same_float(got, want_zero), (name, x, y, got)
                continue
            assert same_float(got, float(w)), (name, x, y, got, w)
    # maxnumf/minnumf ignore NaN (numpy's fmax/fmin); zeros of either sign.
    for x, y in zip(a, b):
        got = sem("arith.maxnumf", ["f32", "f32"], ["f32"]).py(float(x), float(y))
        want = float(np.fmax(x, y))
        assert same_float(got, want) or (got == 0 and want == 0)


def test_cmpf_every_predicate_with_nans():
    xs = [0.0, -0.0, 1.0, -1.0, math.inf, math.nan]
    fns = {
        "oeq": np.equal,
        "ogt": np.greater,
        "oge": np.greater_equal,
        "olt": np.less,
        "ole": np.less_equal,
    }
    for x, y in itertools.product(xs, xs):
        unordered = math.isnan(x) or math.isnan(y)
        with np.errstate(all="ignore"):
            for pred, fn in fns.items():
                ordered = bool(fn(np.float32(x), np.float32(y)))
                assert sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate=pred).py(x, y) == ordered
                upred = "u" + pred[1:]
                assert sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate=upred).py(x, y) == (
                    ordered or unordered
                )
        one = sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate="one").py(x, y)
        assert one == (not unordered and x != y)
        assert sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate="une").py(x, y) == (x != y)
        assert sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate="uno").py(x, y) == unordered
        assert sem("arith.cmpf", ["f32"] * 2, ["i1"], predicate="ord").py(x, y) == (not unordered)
    assert sem("arith.cmpf", ["f64"] * 2, ["i1"], predicate=15).py(math.nan, 1) == 1  # true


def test_math_matches_numpy():
    xs = [float(np.float32(v)) for v in floats(20, seed=5) if math.isfinite(v)]
    from xgpu.semantics.math import UNARY

    for name in UNARY:
        s = sem(name, ["f32"], ["f32"])
        for x in xs:
            with np.errstate(all="ignore"):
                ref = {
                    "math.erf": lambda v: math.erf(v),
                    "math.erfc": lambda v: math.erfc(v),
                    "math.round": lambda v: float(np.copysign(np.floor(abs(v) + 0.5), v)),
                    "math.rsqrt": lambda v: 1 / np.sqrt(np.float64(v)),
                }.get(name)
                if ref is None:
                    npname = UNARY[name][1]
                    ref64 = float(npname(np.float64(x)))
                else:
                    ref64 = float(ref(x))
            want = float(np.float32(ref64))
            assert same_float(s.py(x), want), (name, x)
    # round: half away from zero; roundeven: half to even.
    r, re = sem("math.round", ["f32"], ["f32"]), sem("math.roundeven", ["f32"], ["f32"])
    assert [r.py(v) for v in (0.5, 1.5, 2.5, -0.5, -2.5)] == [1, 2, 3, -1, -3]
    assert [re.py(v) for v in (0.5, 1.5, 2.5, -0.5, -2.5)] == [0, 2, 2, -0.0, -2]
    assert same_float(r.py(-0.25), -0.0)
    # fma rounds once.
    fma = sem("math.fma", ["f32"] * 3, ["f32"])
    a = 1 + 2**-12
    assert fma.py(a, a, -1.0) == 2**-11 + 2**-24  # exact; a * a alone rounds
    assert fma.py(a, a, -1.0) != float(np.float32(np.float32(a * a) - 1))
    assert sem("math.ctlz", ["i32"], ["i32"]).py(1) == 31
    assert sem("math.cttz", ["i16"], ["i16"]).py(0) == 16
    assert sem("math.cttz", ["i64"], ["i64"]).py(-(2**63)) == 63
    assert sem("math.ctpop", ["i8"], ["i8"]).py(-1) == 8
    assert sem("math.absi", ["i32"], ["i32"]).py(-(2**31)) == -(2**31)
    assert sem("math.ipowi", ["i32"] * 2, ["i32"]).py(3, 21) == int(np.int32(3) ** 21)
    assert sem("math.ipowi", ["i32"] * 2, ["i32"]).py(-1, -3) == -1
    with pytest.raises(S.UndefinedBehavior):
        sem("math.ipowi", ["i32"] * 2, ["i32"]).py(0, -1)
    assert sem("math.fpowi", ["f32", "i32"], ["f32"]).py(2.0, -2) == 0.25


def test_extended_ops():
    add = sem("arith.addui_extended", ["i32"] * 2, ["i32", "i1"])
    assert add.py(-1, 1) == (0, 1)
    assert add.py(5, 6) == (11, 0)
    mul = sem("arith.mului_extended", ["i32"] * 2, ["i32", "i32"])
    assert mul.py(-1, 2) == (-2, 1)
    smul = sem("arith.mulsi_extended", ["i64"] * 2, ["i64", "i64"])
    assert smul.py(-1, 2) == (-2, -1)
    assert isinstance(add.c("a", "b"), tuple)


def test_constants_and_literals():
    f32 = S.scalar("f32")
    assert S.c_literal(0.1, f32) == "0.1f"
    assert S.c_literal(-math.inf, f32) == "(-INFINITY)"
    assert S.c_literal(math.nan, S.scalar("f64")) == "((double)NAN)"
    assert S.c_literal(-(2**31), S.scalar("i32")) == "(-2147483647 - 1)"
    assert S.c_literal(5, S.scalar("index")) == "5L"
    assert S.c_literal(-3, S.scalar("i8")) == "(char)-3"


def test_lookup_reads_ops():
    module = xgpu.parse(
        "func.func @f(%a: i32, %b: i32, %x: f64) {\n"
        "  %c = arith.cmpi ult, %a, %b : i32\n"
        "  %k = arith.constant -7 : i16\n"
        "  %f = arith.constant 2.5 : f64\n"
        "  %g = arith.cmpf oge, %x, %f : f64\n"
        "  %s = math.sqrt %x : f64\n"
        "  return\n"
        "}\n",
        "t.mlir",
    )
    ops = {op.name: op for op in module.walk()}
    c = S.lookup(ops["arith.cmpi"])
    assert c.py(-1, 1) == 0 and c.c("a", "b") == "(uchar)((uint)a < (uint)b)"
    k = S.lookup(ops["arith.constant"])
    assert k.py() in (-7, 2.5)
    assert S.lookup(ops["math.sqrt"]).extensions == {"cl_khr_fp64"}
    assert "arith.addi" in S.supported_ops() and "math.tanh" in S.supported_ops()
    with pytest.raises(S.SemanticsError):
        S.lookup_name("arith.addi", ["f32", "f32"], ["f32"])
    with pytest.raises(S.SemanticsError):
        S.scalar("i7")


def test_gpu_reduction_and_exchange_semantics():
    assert G.fold_reduce([1, 2, 3, 4], lambda a, b: a - b) == -8
    assert G.identity("minsi", "i32") == 2**31 - 1
    assert G.identity("and", "i8") == -1
    assert G.identity("maxnumf", "f32") == -math.inf
    with pytest.raises(S.SemanticsError):
        G.combiner("and", "f32")
    vals = list(range(8))
    assert G.shuffle(vals, 1, 8, "xor") == [(v ^ 1, 1) for v in vals]
    assert G.shuffle(vals, 2, 8, "up")[:3] == [(0, 0), (1, 0), (0, 1)]
    assert G.shuffle(vals, 2, 4, "down")[2:4] == [(2, 0), (3, 0)]
    assert G.rotate(vals, 1, 4)[:5] == [(1, 1), (2, 1), (3, 1), (0, 1), (4, 0)]
    assert G.cluster_reduce(vals, lambda a, b: a + b, 2, 2) == [2, 4, 2, 4, 10, 12, 10, 12]
    assert G.broadcast(vals, 5) == [5] * 8


# --------------------------------------------------------------------------- #
# C side on an OpenCL device                                                  #
# --------------------------------------------------------------------------- #

# (op, operand types, result types, params, exact)
C_SAMPLES = [
    ("arith.addi", ["i8", "i8"], ["i8"], {}, True),
    ("arith.subi", ["i16", "i16"], ["i16"], {}, True),
    ("arith.muli", ["i16", "i16"], ["i16"], {}, True),
    ("arith.muli", ["i32", "i32"], ["i32"], {}, True),
    ("arith.muli", ["i64", "i64"], ["i64"], {}, True),
    ("arith.divsi", ["i32", "i32"], ["i32"], {}, True),
    ("arith.divui", ["i8", "i8"], ["i8"], {}, True),
    ("arith.remsi", ["i64", "i64"], ["i64"], {}, True),
    ("arith.remui", ["i32", "i32"], ["i32"], {}, True),
    ("arith.floordivsi", ["i32", "i32"], ["i32"], {}, True),
    ("arith.ceildivsi", ["i16", "i16"], ["i16"], {}, True),
    ("arith.ceildivui", ["i32", "i32"], ["i32"], {}, True),
    ("arith.shli", ["i8", "i8"], ["i8"], {}, True),
    ("arith.shrui", ["i16", "i16"], ["i16"], {}, True),
    ("arith.shrsi", ["i32", "i32"], ["i32"], {}, True),
    ("arith.shli", ["i64", "i64"], ["i64"], {}, True),
    ("arith.minui", ["i32", "i32"], ["i32"], {}, True),
    ("arith.maxsi", ["i8", "i8"], ["i8"], {}, True),
    ("arith.cmpi", ["i32", "i32"], ["i1"], {"predicate": "ult"}, True),
    ("arith.cmpi", ["i8", "i8"], ["i1"], {"predicate": "sge"}, True),
    ("arith.cmpi", ["i1", "i1"], ["i1"], {"predicate": "slt"}, True),
    ("arith.addi", ["i1", "i1"], ["i1"], {}, True),
    ("arith.extsi", ["i1"], ["i32"], {}, True),
    ("arith.extui", ["i16"], ["i64"], {}, True),
    ("arith.trunci", ["i64"], ["i8"], {}, True),
    ("arith.sitofp", ["i64"], ["f32"], {}, True),
    ("arith.uitofp", ["i32"], ["f64"], {}, True),
    ("arith.fptosi", ["f32"], ["i16"], {}, True),
    ("arith.fptoui", ["f64"], ["i32"], {}, True),
    ("arith.bitcast", ["f32"], ["i32"], {}, True),
    ("arith.addf", ["f32", "f32"], ["f32"], {}, True),
    ("arith.divf", ["f32", "f32"], ["f32"], {}, True),
    ("arith.mulf", ["f64", "f64"], ["f64"], {}, True),
    ("arith.remf", ["f32", "f32"], ["f32"], {}, True),
    ("arith.maximumf", ["f32", "f32"], ["f32"], {}, True),
    ("arith.minimumf", ["f64", "f64"], ["f64"], {}, True),
    ("arith.maxnumf", ["f32", "f32"], ["f32"], {}, True),
    ("arith.cmpf", ["f32", "f32"], ["i1"], {"predicate": "one"}, True),
    ("arith.cmpf", ["f32", "f32"], ["i1"], {"predicate": "ueq"}, True),
    ("arith.cmpf", ["f32", "f32"], ["i1"], {"predicate": "ult"}, True),
    ("arith.negf", ["f32"], ["f32"], {}, True),
    ("arith.select", ["i1", "i32", "i32"], ["i32"], {}, True),
    ("arith.truncf", ["f64"], ["f32"], {}, True),
    ("math.floor", ["f32"], ["f32"], {}, True),
    ("math.round", ["f32"], ["f32"], {}, True),
    ("math.roundeven", ["f32"], ["f32"], {}, True),
    ("math.sqrt", ["f64"], ["f64"], {}, True),
    ("math.fma", ["f32", "f32", "f32"], ["f32"], {}, True),
    ("math.copysign", ["f32", "f32"], ["f32"], {}, True),
    ("math.exp", ["f32"], ["f32"], {}, False),
    ("math.sin", ["f32"], ["f32"], {}, False),
    ("math.tanh", ["f64"], ["f64"], {}, False),
    ("math.atan2", ["f32", "f32"], ["f32"], {}, False),
    ("math.ctlz", ["i32"], ["i32"], {}, True),
    ("math.cttz", ["i16"], ["i16"], {}, True),
    ("math.ctpop", ["i64"], ["i64"], {}, True),
    ("math.absi", ["i8"], ["i8"], {}, True),
    ("math.ipowi", ["i32", "i32"], ["i32"], {}, True),
]


def _values(t: str, seed: int) -> list:
    if t == "i1":
        return [0, 1]
    if t in INT_TYPES:
        return ints(t, 6, seed) + list(range(0, 70, 9))
    return floats(8, seed)


def _inputs(types: list[str], seed: int) -> list[tuple]:
    pools = [_values(t, seed + k) for k, t in enumerate(types)]
    if len(types) == 1:
        return [(v,) for v in pools[0]]
    rows = list(itertools.product(*pools[:2]))
    if len(types) == 3:
        rng = np.random.default_rng(seed)
        rows = [(*r, pools[2][int(rng.integers(len(pools[2])))]) for r in rows]
    return rows


@pytest.fixture(scope="module")
def device_run():
    cl = pytest.importorskip("pyopencl", reason="pyopencl is not installed")
    from xgpu.backend.opencl.device import NoDevice, select_device

    try:
        device = select_device()
    except NoDevice as err:
        pytest.skip(f"no OpenCL device: {err}")
    helpers: dict[str, str] = {}
    exts: set[str] = set()
    kernels = []
    for k, (name, ops, res, params, _) in enumerate(C_SAMPLES):
        s = sem(name, ops, res, **params)
        for h in s.helpers:
            helpers[h.name] = h.source
        exts |= s.extensions
        args = ", ".join(f"__global const {S.scalar(t).c}* in{j}" for j, t in enumerate(ops))
        expr = s.c(*(f"in{j}[i]" for j in range(len(ops))))
        kernels.append(
            f"__kernel void s{k}({args}, __global {S.scalar(res[0]).c}* out) {{\n"
            f"  size_t i = get_global_id(0);\n  out[i] = {expr};\n}}"
        )
    source = "".join(f"#pragma OPENCL EXTENSION {e} : enable\n" for e in sorted(exts))
    source += "\n".join(helpers.values()) + "\n" + "\n".join(kernels)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, source).build("-cl-std=CL1.2")

    def run(k: int, rows: list[tuple]) -> np.ndarray:
        name, ops, res, params, _ = C_SAMPLES[k]
        mf = cl.mem_flags
        bufs = []
        for j, t in enumerate(ops):
            st = S.scalar(t)
            if st.is_float:
                arr = np.array([r[j] for r in rows], dtype=st.dtype)
            else:
                arr = np.array([st.norm(r[j]) for r in rows], dtype=np.int64).astype(st.dtype)
            bufs.append(cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=arr))
        out = np.zeros(len(rows), S.scalar(res[0]).dtype)
        out_buf = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        getattr(program, f"s{k}")(queue, (len(rows),), None, *bufs, out_buf)
        cl.enqueue_copy(queue, out, out_buf)
        return out

    return run


@pytest.mark.parametrize("k", range(len(C_SAMPLES)), ids=[f"{s[0]}-{s[1][0]}" for s in C_SAMPLES])
def test_c_side_matches_python_on_device(device_run, k):
    name, ops, res, params, exact = C_SAMPLES[k]
    s = sem(name, ops, res, **params)
    rows = _inputs(ops, seed=10 + k)
    got = device_run(k, rows)
    rt = S.scalar(res[0])
    checked = 0
    for row, g in zip(rows, got):
        try:
            want = s.py(*row)
        except S.UndefinedBehavior:
            continue
        checked += 1
        if rt.is_float:
            g = float(g)
            if exact:
                ok = same_float(g, want) or (
                    name in ("arith.maxnumf", "arith.minnumf") and g == 0 and want == 0
                )
            else:
                ok = same_float(g, want) or math.isclose(g, want, rel_tol=4e-6, abs_tol=1e-30)
            assert ok, (name, row, g, want)
        else:
            assert rt.norm(int(g)) == want, (name, row, int(g), want)
    assert checked > 0


def test_normalizer_equals_norm():
    # Generated code calls the specialized `normalizer`; it must agree with
    # `norm` on every value, rounding, overflow to infinity and wrap-around included.
    import math
    import random

    from xgpu.semantics import scalar

    rng = random.Random(0)
    specials = [float("inf"), -float("inf"), 1e-46, -0.0, 0.0, 3.4028235677973366e38, 65520.0]
    for name in ("i1", "i8", "i16", "i32", "i64", "index", "f16", "f32", "f64"):
        t = scalar(name)
        f = t.normalizer
        for k in range(3000):
            if t.is_float:
                v = (
                    specials[k]
                    if k < len(specials)
                    else rng.uniform(-1e40, 1e40) / 10 ** rng.randint(0, 45)
                )
            else:
                v = rng.randint(-(2**70), 2**70)
            a, b = f(v), t.norm(v)
            assert a == b or (math.isnan(a) and math.isnan(b)), (name, v, a, b)
            assert math.copysign(1, a) == math.copysign(1, b), (name, v)
