"""math: OpenCL C builtins and their Python counterparts.

Float functions map to OpenCL's precise builtins (`exp`, `sin`, ... never the
`native_`/`half_` ones; the `fastmath` flags are ignored). `py` computes in
double precision with numpy (IEEE special values: `log(0)` is -inf, `sqrt(-1)`
NaN) and rounds the result to the result type. OpenCL's builtins are accurate
within the ULP bounds of the OpenCL C 1.2 specification (section 7.4: e.g. 4
ulp for single-precision `sin`), so compare transcendental results with a
tolerance; `fabs`, `ceil`, `floor`, `trunc`, `round`, `rint`, `copysign`,
`fma` and `sqrt` (with PoCL) are exact on both sides.

`math.round` rounds half away from zero (C `round`); `math.roundeven` is
`rint` (the default rounding mode). `math.fpowi` is `pown` (the exponent is
converted to `int`). `math.ipowi` with a negative exponent gives 0 (1 and -1
for bases 1 and -1); a zero base with a negative exponent is UB (`py` raises,
C gives 0). `ctlz`/`cttz` of 0 give the bit width.
"""

from __future__ import annotations

import math as _m
from fractions import Fraction
from typing import Any

import numpy as np

from xgpu.semantics.arith import _check_float, _check_int, _helper_name, np_float, wrap_c
from xgpu.semantics.core import CHelper, OpSemantics, Signature, make, register
from xgpu.semantics.types import SemanticsError, UndefinedBehavior, round_exact


def _round_half_away(x: float) -> float:
    if not _m.isfinite(x):
        return x
    t = _m.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return _m.copysign(float(t), x)


# name -> (OpenCL builtin, Python function on float64)
UNARY: dict[str, tuple[str, Any]] = {
    "math.absf": ("fabs", np.fabs),
    "math.acos": ("acos", np.arccos),
    "math.acosh": ("acosh", np.arccosh),
    "math.asin": ("asin", np.arcsin),
    "math.asinh": ("asinh", np.arcsinh),
    "math.atan": ("atan", np.arctan),
    "math.atanh": ("atanh", np.arctanh),
    "math.cbrt": ("cbrt", np.cbrt),
    "math.ceil": ("ceil", np.ceil),
    "math.cos": ("cos", np.cos),
    "math.cosh": ("cosh", np.cosh),
    "math.erf": ("erf", lambda x: _m.erf(float(x))),
    "math.erfc": ("erfc", lambda x: _m.erfc(float(x))),
    "math.exp": ("exp", np.exp),
    "math.exp2": ("exp2", np.exp2),
    "math.expm1": ("expm1", np.expm1),
    "math.floor": ("floor", np.floor),
    "math.log": ("log", np.log),
    "math.log10": ("log10", np.log10),
    "math.log1p": ("log1p", np.log1p),
    "math.log2": ("log2", np.log2),
    "math.round": ("round", lambda x: _round_half_away(float(x))),
    "math.roundeven": ("rint", np.rint),
    "math.rsqrt": ("rsqrt", lambda x: 1.0 / np.sqrt(x)),
    "math.sin": ("sin", np.sin),
    "math.sinh": ("sinh", np.sinh),
    "math.sqrt": ("sqrt", np.sqrt),
    "math.tan": ("tan", np.tan),
    "math.tanh": ("tanh", np.tanh),
    "math.trunc": ("trunc", np.trunc),
}

BINARY: dict[str, tuple[str, Any]] = {
    "math.atan2": ("atan2", np.arctan2),
    "math.copysign": ("copysign", np.copysign),
    "math.powf": ("pow", np.power),
}

PREDICATES: dict[str, tuple[str, Any]] = {
    "math.isnan": ("isnan", _m.isnan),
    "math.isinf": ("isinf", _m.isinf),
    "math.isfinite": ("isfinite", _m.isfinite),
    "math.isnormal": ("isnormal", None),
}


@register(*UNARY)
def _unary(sig: Signature) -> OpSemantics:
    _check_float(sig)
    fn, py = UNARY[sig.name]
    return make(sig, lambda a: f"{fn}({a})", np_float(py))


@register(*BINARY)
def _binary(sig: Signature) -> OpSemantics:
    _check_float(sig)
    fn, py = BINARY[sig.name]
    return make(sig, lambda a, b: f"{fn}({a}, {b})", np_float(py))


@register(*PREDICATES)
def _predicate(sig: Signature) -> OpSemantics:
    t = sig.operand()
    if not t.is_float:
        raise SemanticsError(f"'{sig.name}' expects a float operand")
    fn, py = PREDICATES[sig.name]
    if py is None:
        tiny = float(np.finfo(t.dtype).tiny)

        def py(x: float) -> bool:
            return _m.isfinite(x) and abs(x) >= tiny

    return make(sig, lambda a: f"(uchar){fn}({a})", lambda a: int(py(a)))


@register("math.fma")
def _fma(sig: Signature) -> OpSemantics:
    t = _check_float(sig)

    def py(a: float, b: float, c: float) -> float:
        if not all(_m.isfinite(x) for x in (a, b, c)):
            with np.errstate(all="ignore"):
                return float(np.float64(a) * np.float64(b) + np.float64(c))
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            # The sign of an exact zero: -0 only when both terms are -0 (or a
            # negative product of zeros plus -0).
            prod_neg = (_m.copysign(1, a) * _m.copysign(1, b)) < 0 and a * b == 0
            if a * b == 0 and c == 0:
                return -0.0 if (prod_neg and _m.copysign(1, c) < 0) else 0.0
            return 0.0
        return round_exact(exact, t.width)

    return make(sig, lambda a, b, c: f"fma({a}, {b}, {c})", py, doc="fused, one rounding")


@register("math.fpowi")
def _fpowi(sig: Signature) -> OpSemantics:
    base, exp = sig.operand(0), sig.operand(1)
    if not base.is_float or not exp.is_int:
        raise SemanticsError("math.fpowi expects a float base and an integer exponent")

    def c(a: str, b: str) -> str:
        return f"pown({a}, (int){b})"

    def py(a: float, b: int) -> float:
        e = ((b & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000  # (int)b
        with np.errstate(all="ignore"):
            return float(np.power(np.float64(a), np.float64(e)))

    return make(sig, c, py)


@register("math.absi")
def _absi(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    if t.is_bool:
        return make(sig, lambda a: a, lambda a: a)
    return make(sig, lambda a: f"({t.c})abs({a})", lambda a: abs(t.signed(a)))


@register("math.ctpop")
def _ctpop(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    if t.is_bool:
        return make(sig, lambda a: a, lambda a: a)
    return make(
        sig, lambda a: f"({t.c})popcount(({t.cu}){a})", lambda a: bin(t.unsigned(a)).count("1")
    )


@register("math.ctlz")
def _ctlz(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    if t.is_bool:
        return make(sig, lambda a: f"(uchar)({a} ^ 1)", lambda a: a ^ 1)
    return make(
        sig,
        lambda a: f"({t.c})clz(({t.cu}){a})",
        lambda a: t.width - t.unsigned(a).bit_length(),
    )


@register("math.cttz")
def _cttz(sig: Signature) -> OpSemantics:
    t = _check_int(sig)

    def py(a: int) -> int:
        u = t.unsigned(a)
        return t.width if u == 0 else (u & -u).bit_length() - 1

    if t.is_bool:
        return make(sig, lambda a: f"(uchar)({a} ^ 1)", py)
    name = _helper_name("cttz", t)
    cu = t.compute_unsigned
    helper = CHelper(
        name,
        f"static inline {t.c} {name}({t.c} a) {{\n"
        f"  {cu} u = ({cu})({t.cu})a;\n"
        f"  if (u == 0) return ({t.c}){t.width};\n"
        f"  return ({t.c})popcount((u & (({cu})0 - u)) - 1);\n}}",
    )
    return make(sig, lambda a: f"{name}({a})", py, [helper])


@register("math.ipowi")
def _ipowi(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    if t.is_bool:
        raise SemanticsError("math.ipowi on i1 is not supported")
    name = _helper_name("ipowi", t)
    cu = t.compute_unsigned
    T = t.c
    helper = CHelper(
        name,
        f"static inline {T} {name}({T} a, {T} b) {{\n"
        f"  if (b < 0) return a == 1 ? ({T})1 : a == -1 ? (({T})((b & 1) ? -1 : 1)) : ({T})0;\n"
        f"  {cu} r = 1, x = ({cu})a;\n"
        f"  while (b != 0) {{\n"
        f"    if (b & 1) r *= x;\n"
        f"    x *= x;\n"
        f"    b = ({T})(b >> 1);\n"
        f"  }}\n"
        f"  return {wrap_c(t, 'r')};\n}}",
    )

    def py(a: int, b: int) -> int:
        a, b = t.signed(a), t.signed(b)
        if b < 0:
            if a == 0:
                raise UndefinedBehavior("math.ipowi: zero to a negative power")
            if a == 1:
                return 1
            if a == -1:
                return -1 if b & 1 else 1
            return 0
        return pow(a & t.mask, b, 1 << t.width)

    return make(sig, lambda a, b: f"{name}({a}, {b})", py, [helper])
