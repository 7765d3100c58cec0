"""arith/math/index ops over arrays of lanes.

`vector_op(sem)` gives, for an `xgpu.semantics.OpSemantics`, a function
`f(mask, n, *operands)` computing the op for every lane of a batch of `n`
lanes (operands: numpy arrays of `n` lanes, or Python values the same for
every lane; `mask`: None for every lane, else a boolean array of the lanes
that execute the op). The result has the lanes' dtype (`lane_dtype`: i1 is
`bool`, other types the `Scalar`'s dtype). Lanes outside the mask get
unspecified values.

The results are the ones `sem.py` gives lane by lane, bit for bit:

- the ops of `_VECTOR` compute with numpy: integer arithmetic wraps like
  `Scalar.norm` (numpy's integer arrays wrap), float `+ - * /` and `sqrt`
  round once to the type like the semantics (which compute in double and
  round: exact for these ops), comparisons and selects are exact, float
  min/max (`minnumf`, `maxnumf`, `minimumf`, `maximumf`) follow the Python
  forms' NaN and signed-zero choices (`_float_minmax`);
- any other op runs `sem.py` on the active lanes one after the other (math
  functions, whose numpy forms may round differently from Python's).

Undefined behaviour (integer division by zero, `INT_MIN / -1`, a step of
0 ...) is not diagnosed here: the vector forms raise `NeedsReplay`, and the
launch is run again by the work-item engine, which reports it as it always
did (see `xgpu.backend.sim.lockstep`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from xgpu.semantics import OpSemantics
from xgpu.semantics.types import Scalar


class NeedsReplay(Exception):
    """The lockstep run cannot go on exactly (a failure, undefined behaviour,
    a divergent barrier, a race): the launch is replayed work-item by work-item."""


def lane_dtype(t: Scalar) -> np.dtype:
    return np.dtype(np.bool_) if t.is_bool else t.dtype


def _u(t: Scalar) -> np.dtype:
    return np.dtype(f"u{t.dtype.itemsize}")


def _arr(x: Any, dt: np.dtype) -> np.ndarray:
    return np.asarray(x, dtype=dt)


def lanewise(sem: OpSemantics) -> Callable[..., Any]:
    """`sem.py` lane by lane on the active lanes."""
    outs = [lane_dtype(t) for t in sem.result_types]
    py = sem.py

    def run(mask: Any, n: int, *args: Any) -> Any:
        sel = np.arange(n) if mask is None else np.flatnonzero(mask)
        cols = []
        for a in args:
            if isinstance(a, np.ndarray):
                cols.append(a[sel].tolist())
            else:
                cols.append([a] * len(sel))
        values = [py(*row) for row in zip(*cols)] if cols else [py() for _ in sel]
        if len(outs) == 1:
            out = np.zeros(n, outs[0])
            if len(sel):
                out[sel] = values
            return out
        results = []
        for k, dt in enumerate(outs):
            out = np.zeros(n, dt)
            if len(sel):
                out[sel] = [v[k] for v in values]
            results.append(out)
        return tuple(results)

    return run


def _active(mask: Any, a: np.ndarray) -> np.ndarray:
    return a if mask is None or a.ndim == 0 else a[mask]


# Builders: Scalar of the first operand, Scalar of the result -> f(mask, n, *args)


def _binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray], unsigned: bool = False):
    def build(t: Scalar, r: Scalar):
        dt = lane_dtype(t)
        rdt = lane_dtype(r)
        if unsigned and not t.is_bool:
            udt = _u(t)

            def run_u(mask, n, a, b):
                out = fn(
                    _arr(a, dt).view(udt) if np.ndim(a) else _arr(a, dt).astype(udt),
                    _arr(b, dt).view(udt) if np.ndim(b) else _arr(b, dt).astype(udt),
                )
                return np.asarray(out).astype(rdt, copy=False) if out.dtype != rdt else out

            return run_u

        def run(mask, n, a, b):
            out = fn(_arr(a, dt), _arr(b, dt))
            return out if out.dtype == rdt else out.astype(rdt)

        return run

    return build


def _int_only(build):
    def guarded(t: Scalar, r: Scalar):
        if t.is_bool:
            return None
        return build(t, r)

    return guarded


def _bool_ok(fn_bool, fn_int):
    def build(t: Scalar, r: Scalar):
        return _binary(fn_bool if t.is_bool else fn_int)(t, r)

    return build


def _div(kind: str):
    def build(t: Scalar, r: Scalar):
        if t.is_bool or t.width < 32:
            return None
        dt = lane_dtype(t)
        udt = _u(t)
        lo = t.min

        def run(mask, n, a, b):
            a = _arr(a, dt)
            b = _arr(b, dt)
            if np.any(_active(mask, b) == 0):
                raise NeedsReplay
            if mask is not None and b.ndim:
                b = np.where(mask, b, 1).astype(dt)
            if kind in ("divsi", "remsi"):
                if np.any(_active(mask, (a == lo) & (b == -1))):
                    raise NeedsReplay
                rem = np.fmod(a, b)
                if kind == "remsi":
                    return rem.astype(dt)
                return ((a - rem) // b).astype(dt)
            au = a.view(udt) if a.ndim else a.astype(udt)
            bu = b.view(udt) if b.ndim else b.astype(udt)
            out = au // bu if kind == "divui" else au % bu
            return out.astype(dt) if out.ndim == 0 else out.view(dt)

        return run

    return build


def _shift(kind: str):
    def build(t: Scalar, r: Scalar):
        if t.width not in (32, 64):
            return None
        dt = lane_dtype(t)
        udt = _u(t)
        bits = t.width - 1

        def run(mask, n, a, b):
            a = _arr(a, dt)
            amount = (_arr(b, dt) & bits).astype(udt)
            if kind == "shli":
                out = (a.astype(udt) << amount).astype(dt)
            elif kind == "shrsi":
                out = a >> amount.astype(dt)
            else:
                out = (a.astype(udt) >> amount).astype(dt)
            return out

        return run

    return build


_CMPI = {
    "eq": (np.equal, False),
    "ne": (np.not_equal, False),
    "slt": (np.less, False),
    "sle": (np.less_equal, False),
    "sgt": (np.greater, False),
    "sge": (np.greater_equal, False),
    "ult": (np.less, True),
    "ule": (np.less_equal, True),
    "ugt": (np.greater, True),
    "uge": (np.greater_equal, True),
}


def _cmpf_fn(pred: str):
    def nan(a, b):
        return np.isnan(a) | np.isnan(b)

    table = {
        "false": lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
        "true": lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
        "oeq": np.equal,
        "ogt": np.greater,
        "oge": np.greater_equal,
        "olt": np.less,
        "ole": np.less_equal,
        "one": lambda a, b: np.not_equal(a, b) & ~nan(a, b),
        "ord": lambda a, b: ~nan(a, b),
        "ueq": lambda a, b: np.equal(a, b) | nan(a, b),
        "ugt": lambda a, b: np.greater(a, b) | nan(a, b),
        "uge": lambda a, b: np.greater_equal(a, b) | nan(a, b),
        "ult": lambda a, b: np.less(a, b) | nan(a, b),
        "ule": lambda a, b: np.less_equal(a, b) | nan(a, b),
        "une": np.not_equal,
        "uno": nan,
    }
    return table.get(pred)


def _cast(t: Scalar, r: Scalar, unsigned: bool):
    """Integer to integer: sign or zero extension, or truncation (wraps)."""
    src = lane_dtype(t)
    dst = lane_dtype(r)
    if r.is_bool:

        def to_bool(mask, n, a):
            return (_arr(a, src).astype(np.int64) & 1).astype(bool)

        return to_bool
    if t.is_bool:
        if unsigned:
            return lambda mask, n, a: _arr(a, src).astype(dst)
        return lambda mask, n, a: (-_arr(a, src).astype(np.int64)).astype(dst)
    if unsigned and r.width > t.width:
        udt = _u(t)
        return lambda mask, n, a: _arr(a, src).astype(udt).astype(dst)
    return lambda mask, n, a: _arr(a, src).astype(dst)


def _float_cast(t: Scalar, r: Scalar, kind: str):
    dst = lane_dtype(r)
    src = lane_dtype(t)
    if kind in ("sitofp", "uitofp"):
        if t.is_bool:
            return None
        mid = _u(t) if kind == "uitofp" else src
        # Through float64 as the semantics do (Python's float()), then rounded.
        return lambda mask, n, a: _arr(a, src).astype(mid).astype(np.float64).astype(dst)
    if kind in ("extf", "truncf"):
        if r.width == 16 or t.width == 16:
            return None
        return lambda mask, n, a: _arr(a, src).astype(dst)
    return None


def vector_op(sem: OpSemantics, params: dict[str, Any]) -> Callable[..., Any]:
    """The lanes' form of `sem` (see the module docstring)."""
    fn = _vector_form(sem, params)
    return fn if fn is not None else lanewise(sem)


def _vector_form(sem: OpSemantics, params: dict[str, Any]):
    name = sem.name
    if not sem.operand_types or len(sem.result_types) != 1:
        return None
    t = sem.operand_types[0]
    r = sem.result_types[0]
    if any(x.is_float and x.width == 16 for x in (*sem.operand_types, r)):
        return None
    name = _INDEX_NAMES.get(name, name)
    if name == "arith.cmpi":
        fn, unsigned = _CMPI[params["predicate"]]
        if t.is_bool:
            return _binary(fn)(t, r) if params["predicate"] in ("eq", "ne") else None
        return _binary(fn, unsigned)(t, r)
    if name == "arith.cmpf":
        fn = _cmpf_fn(params["predicate"])
        return _binary(fn)(t, r) if fn is not None else None
    if name == "arith.select":
        dt = lane_dtype(sem.operand_types[1])

        def select(mask, n, c, a, b):
            out = np.where(c, a, b)
            return out if out.dtype == dt else out.astype(dt)

        return select
    if name in ("arith.index_cast", "arith.extsi", "arith.trunci"):
        return _cast(t, r, False)
    if name in ("arith.index_castui", "arith.extui"):
        return _cast(t, r, True)
    kind = name.split(".")[1]
    if kind in ("sitofp", "uitofp", "extf", "truncf"):
        return _float_cast(t, r, kind)
    if kind in ("divsi", "remsi", "divui", "remui"):
        return _div(kind)(t, r)
    if kind in ("shli", "shrsi", "shrui"):
        return _shift(kind)(t, r)
    if name == "arith.negf":
        return lambda mask, n, a: -_arr(a, lane_dtype(t))
    if name == "math.sqrt":
        return lambda mask, n, a: np.sqrt(_arr(a, lane_dtype(t)))
    if name == "math.absf":
        return lambda mask, n, a: np.abs(_arr(a, lane_dtype(t)))
    build = _BINARY.get(name)
    if build is None:
        return None
    return build(t, r)


_INDEX_NAMES = {
    "index.add": "arith.addi",
    "index.sub": "arith.subi",
    "index.mul": "arith.muli",
    "index.and": "arith.andi",
    "index.or": "arith.ori",
    "index.xor": "arith.xori",
    "index.divs": "arith.divsi",
    "index.divu": "arith.divui",
    "index.rems": "arith.remsi",
    "index.remu": "arith.remui",
    "index.maxs": "arith.maxsi",
    "index.mins": "arith.minsi",
    "index.maxu": "arith.maxui",
    "index.minu": "arith.minui",
    "index.cmp": "arith.cmpi",
}


def _float_minmax(kind: str):
    """`arith.{min,max}{num,imum}f` exactly as the semantics' Python forms:
    maxnum/minnum ignore a NaN operand (the other one), and otherwise give
    Python's `max(a, b)`/`min(a, b)` (`a` unless `b` is strictly beyond it);
    maximum/minimum give NaN for any NaN operand and order -0 < +0."""
    is_max = kind.startswith("max")
    num = kind.endswith("numf")

    def build(t: Scalar, r: Scalar):
        if not t.is_float:
            return None
        dt = lane_dtype(t)
        nan = dt.type(np.nan)

        def run(mask, n, a, b):
            a, b = _arr(a, dt), _arr(b, dt)
            beyond = (b > a) if is_max else (b < a)
            out = np.where(beyond, b, a)
            na, nb = np.isnan(a), np.isnan(b)
            if num:
                out = np.where(na, b, np.where(nb, a, out))
            else:
                eq = a == b
                neg = np.signbit(a)
                tie = np.where(neg, b, a) if is_max else np.where(neg, a, b)
                out = np.where(na | nb, nan, np.where(eq, tie, out))
            return out if out.dtype == dt else out.astype(dt)

        return run

    return build


_BINARY: dict[str, Any] = {
    "arith.addi": _bool_ok(np.bitwise_xor, np.add),
    "arith.subi": _bool_ok(np.bitwise_xor, np.subtract),
    "arith.muli": _bool_ok(np.bitwise_and, np.multiply),
    "arith.andi": _binary(np.bitwise_and),
    "arith.ori": _binary(np.bitwise_or),
    "arith.xori": _binary(np.bitwise_xor),
    "arith.maxsi": _int_only(_binary(np.maximum)),
    "arith.minsi": _int_only(_binary(np.minimum)),
    "arith.maxui": _int_only(_binary(np.maximum, True)),
    "arith.minui": _int_only(_binary(np.minimum, True)),
    "arith.addf": _binary(np.add),
    "arith.subf": _binary(np.subtract),
    "arith.mulf": _binary(np.multiply),
    "arith.divf": _binary(np.divide),
    "arith.maxnumf": _float_minmax("maxnumf"),
    "arith.minnumf": _float_minmax("minnumf"),
    "arith.maximumf": _float_minmax("maximumf"),
    "arith.minimumf": _float_minmax("minimumf"),
}
