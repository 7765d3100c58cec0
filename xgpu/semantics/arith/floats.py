"""arith's float ops (`xgpu.semantics.arith`): +, -, *, /, negf, remf, the
IEEE and NaN-ignoring min/max, cmpf; `np_float` runs a function with IEEE
results."""

from __future__ import annotations

import math as _m
from typing import Any

import numpy as np

from xgpu.semantics.arith.common import CMPF_PREDICATES, _check_float, _helper_name
from xgpu.semantics.core import CHelper, OpSemantics, Signature, make, register
from xgpu.semantics.types import Scalar, SemanticsError

# --------------------------------------------------------------------------- #
# Float arithmetic                                                            #
# --------------------------------------------------------------------------- #


def np_float(fn: Any) -> Any:
    """Run `fn` on float64 numpy scalars with IEEE results (no warnings)."""

    def wrapped(*args: float) -> float:
        with np.errstate(all="ignore"):
            return float(fn(*(np.float64(a) for a in args)))

    return wrapped


_FLOAT_BINOPS = {
    "arith.addf": ("+", lambda a, b: a + b),
    "arith.subf": ("-", lambda a, b: a - b),
    "arith.mulf": ("*", lambda a, b: a * b),
    "arith.divf": ("/", lambda a, b: a / b),
}

_np_divide = np_float(lambda a, b: a / b)


def _py_divf(a: float, b: float) -> float:
    # Python raises on a zero divisor where IEEE gives +-inf or NaN.
    return a / b if b else _np_divide(a, b)


# Python's float +, - and * are IEEE double operations that never raise
# (overflow gives inf), as numpy's: no numpy scalars on the hot path.
_PY_FLOAT_BINOPS = {
    "arith.addf": _FLOAT_BINOPS["arith.addf"][1],
    "arith.subf": _FLOAT_BINOPS["arith.subf"][1],
    "arith.mulf": _FLOAT_BINOPS["arith.mulf"][1],
    "arith.divf": _py_divf,
}


@register(*_FLOAT_BINOPS)
def _float_binop(sig: Signature) -> OpSemantics:
    _check_float(sig)
    sym, _ = _FLOAT_BINOPS[sig.name]
    return make(sig, lambda a, b: f"({a} {sym} {b})", _PY_FLOAT_BINOPS[sig.name])


@register("arith.negf")
def _negf(sig: Signature) -> OpSemantics:
    _check_float(sig)
    return make(sig, lambda a: f"(-{a})", lambda a: -a)


@register("arith.remf")
def _remf(sig: Signature) -> OpSemantics:
    _check_float(sig)
    return make(sig, lambda a, b: f"fmod({a}, {b})", np_float(np.fmod))


def _ieee_minmax_helper(t: Scalar, is_max: bool) -> CHelper:
    name = _helper_name("maximumf" if is_max else "minimumf", t)
    T = t.c
    pick = "fmax" if is_max else "fmin"
    # Equal operands: +0 and -0 differ only in sign; maximum prefers +0.
    equal = "signbit(a) ? b : a" if is_max else "signbit(a) ? a : b"
    source = (
        f"static inline {T} {name}({T} a, {T} b) {{\n"
        f"  if (isnan(a) || isnan(b)) return a + b;\n"
        f"  if (a == b) return {equal};\n"
        f"  return {pick}(a, b);\n}}"
    )
    return CHelper(name, source)


def _py_ieee_minmax(is_max: bool) -> Any:
    def py(a: float, b: float) -> float:
        if _m.isnan(a) or _m.isnan(b):
            return _m.nan
        if a == b:
            a_neg = _m.copysign(1.0, a) < 0
            return (b if a_neg else a) if is_max else (a if a_neg else b)
        return max(a, b) if is_max else min(a, b)

    return py


@register("arith.maximumf", "arith.minimumf")
def _ieee_minmax(sig: Signature) -> OpSemantics:
    t = _check_float(sig)
    is_max = sig.name == "arith.maximumf"
    helper = _ieee_minmax_helper(t, is_max)
    return make(
        sig,
        lambda a, b: f"{helper.name}({a}, {b})",
        _py_ieee_minmax(is_max),
        [helper],
        doc="NaN-propagating; -0 < +0",
    )


def _py_num_minmax(is_max: bool) -> Any:
    def py(a: float, b: float) -> float:
        if _m.isnan(a):
            return b
        if _m.isnan(b):
            return a
        return max(a, b) if is_max else min(a, b)

    return py


@register("arith.maxnumf", "arith.minnumf")
def _num_minmax(sig: Signature) -> OpSemantics:
    _check_float(sig)
    is_max = sig.name == "arith.maxnumf"
    fn = "fmax" if is_max else "fmin"
    return make(
        sig, lambda a, b: f"{fn}({a}, {b})", _py_num_minmax(is_max), doc="NaN-ignoring (maxNum)"
    )


@register("arith.cmpf")
def _cmpf(sig: Signature) -> OpSemantics:
    _check_float(sig, results=False)
    pred = sig.params.get("predicate")
    if pred not in CMPF_PREDICATES:
        raise SemanticsError(f"arith.cmpf: unknown predicate {pred!r}")
    templates = {
        "false": "0",
        "oeq": "{a} == {b}",
        "ogt": "{a} > {b}",
        "oge": "{a} >= {b}",
        "olt": "{a} < {b}",
        "ole": "{a} <= {b}",
        "one": "islessgreater({a}, {b})",
        "ord": "!isunordered({a}, {b})",
        "ueq": "isunordered({a}, {b}) || {a} == {b}",
        "ugt": "!({a} <= {b})",
        "uge": "!({a} < {b})",
        "ult": "!({a} >= {b})",
        "ule": "!({a} > {b})",
        "une": "{a} != {b}",
        "uno": "isunordered({a}, {b})",
        "true": "1",
    }

    def c(a: str, b: str) -> str:
        return f"(uchar)({templates[pred].format(a=a, b=b)})"

    def py(a: float, b: float) -> int:
        unordered = _m.isnan(a) or _m.isnan(b)
        if pred == "false":
            return 0
        if pred == "true":
            return 1
        if pred == "ord":
            return int(not unordered)
        if pred == "uno":
            return int(unordered)
        kind = pred[1:]
        if unordered:
            return int(pred[0] == "u")
        return int(
            {
                "eq": a == b,
                "gt": a > b,
                "ge": a >= b,
                "lt": a < b,
                "le": a <= b,
                "ne": a != b,
            }[kind]
        )

    return make(sig, c, py)
