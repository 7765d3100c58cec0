"""arith: how each op computes, in OpenCL C and in Python.

Integers (any supported width, `index` = 64 bits) wrap modulo 2**width. The C
side computes wrapping arithmetic in an unsigned type (`uint`/`ulong`), where
overflow is defined, and converts back; signed readings of `i1` are 0 and -1.

Undefined behaviour and poison, the same choice on both sides where possible:
- integer division and remainder by zero, and signed division overflow
  (`INT_MIN / -1`): immediate UB in MLIR. `py` raises `UndefinedBehavior`; the
  C helpers return 0 for a zero divisor and the wrapped quotient (`INT_MIN`)
  or 0 (remainder) for `INT_MIN / -1`, instead of trapping.
- shift amounts >= the width: poison in MLIR. Both sides compute what OpenCL C
  defines: the amount is taken modulo the promoted width (32, or 64 for 64-bit
  types), and the result is truncated to the type (`shli` of an i8 by 9 is 0).
- `fptosi`/`fptoui` out of range: poison in MLIR. Both sides saturate to the
  result range and give 0 for NaN (OpenCL's `convert_<T>_sat_rtz`).
- `maxnumf`/`minnumf` of +0 and -0 may give either zero (as in IEEE
  maxNum); tests should not depend on it.
Float arithmetic is IEEE round-to-nearest on both sides. OpenCL C 1.2 allows
2.5 ulp for a single-precision divide: PoCL's is correctly rounded.
"""

from __future__ import annotations

import math as _m
from fractions import Fraction
from typing import Any

import numpy as np

from xgpu.semantics.core import CHelper, OpSemantics, Signature, make, register
from xgpu.semantics.types import (
    Scalar,
    SemanticsError,
    UndefinedBehavior,
    bits_float,
    float_bits,
    round_exact,
)

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
)


# --------------------------------------------------------------------------- #
# C building blocks                                                           #
# --------------------------------------------------------------------------- #


def wrap_c(t: Scalar, expr: str) -> str:
    """`expr` (computed in a wider or unsigned type) converted to `t` with
    wrap-around (i1: its low bit)."""
    if t.is_bool:
        return f"(uchar)(({expr}) & 1u)"
    return f"({t.c})({expr})"


def signed_c(t: Scalar, x: str) -> str:
    """The signed reading of an integer operand (i1 becomes 0 or -1)."""
    return f"(-(int){x})" if t.is_bool else x


def unsigned_c(t: Scalar, x: str) -> str:
    return x if t.is_bool else f"({t.cu}){x}"


def _helper_name(op: str, t: Scalar) -> str:
    return f"xg_{op}_{t.c}"


def _check_int(sig: Signature) -> Scalar:
    for t in (*sig.operands, *sig.results):
        if not t.is_int:
            raise SemanticsError(f"'{sig.name}' expects integer or index operands, got {t}")
    return sig.operand(0)


def _check_float(sig: Signature, results: bool = True) -> Scalar:
    for t in (*sig.operands, *(sig.results if results else ())):
        if not t.is_float:
            raise SemanticsError(f"'{sig.name}' expects float operands, got {t}")
    return sig.operand(0)


# --------------------------------------------------------------------------- #
# Integer arithmetic                                                          #
# --------------------------------------------------------------------------- #

_WRAPPING = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*"}
_PY_WRAPPING = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
}


@register(*_WRAPPING)
def _wrapping(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    sym = _WRAPPING[sig.name]
    cu = t.compute_unsigned

    def c(a: str, b: str) -> str:
        return wrap_c(t, f"({cu}){a} {sym} ({cu}){b}")

    return make(sig, c, _PY_WRAPPING[sig.name], doc=f"wrapping {sym}")


_BITWISE = {"arith.andi": "&", "arith.ori": "|", "arith.xori": "^"}
_PY_BITWISE = {
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
}


@register(*_BITWISE)
def _bitwise(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    sym = _BITWISE[sig.name]
    return make(sig, lambda a, b: f"({t.c})({a} {sym} {b})", _PY_BITWISE[sig.name])


def _div_helpers(t: Scalar) -> dict[str, CHelper]:
    T, U, CU = t.c, t.cu, t.compute_unsigned
    helpers: dict[str, str] = {}
    if t.is_bool:
        # i1: the only valid divisor is 1 (-1 when signed); a / 1 == a, a % 1 == 0.
        for op in ("divsi", "divui", "floordivsi", "ceildivsi", "ceildivui"):
            helpers[op] = "return b ? a : (uchar)0;"
        for op in ("remsi", "remui"):
            helpers[op] = "return (uchar)0;"
    else:
        neg = f"({T})(({CU})0 - ({CU})a)"
        helpers["divsi"] = f"return b == 0 ? ({T})0 : b == -1 ? {neg} : ({T})(a / b);"
        helpers["divui"] = f"return b == 0 ? ({T})0 : ({T})(({U})a / ({U})b);"
        helpers["remsi"] = f"return (b == 0 || b == -1) ? ({T})0 : ({T})(a % b);"
        helpers["remui"] = f"return b == 0 ? ({T})0 : ({T})(({U})a % ({U})b);"
        helpers["floordivsi"] = (
            f"if (b == 0) return ({T})0;\n  if (b == -1) return {neg};\n"
            f"  {T} q = ({T})(a / b), r = ({T})(a % b);\n"
            f"  return (r != 0 && ((r < 0) != (b < 0))) ? ({T})(q - 1) : q;"
        )
        helpers["ceildivsi"] = (
            f"if (b == 0) return ({T})0;\n  if (b == -1) return {neg};\n"
            f"  {T} q = ({T})(a / b), r = ({T})(a % b);\n"
            f"  return (r != 0 && ((r < 0) == (b < 0))) ? ({T})(q + 1) : q;"
        )
        helpers["ceildivui"] = (
            f"if (b == 0) return ({T})0;\n"
            f"  {U} x = ({U})a, y = ({U})b;\n"
            # One division, no remainder: (x - 1) / y + 1 for x > 0 (clang turns a
            # div/rem pair into `freeze`, which Oclgrind cannot run).
            f"  return x == 0 ? ({T})0 : ({T})((x - 1) / y + 1);"
        )
    out = {}
    for op, body in helpers.items():
        name = _helper_name(op, t)
        out[op] = CHelper(name, f"static inline {T} {name}({T} a, {T} b) {{\n  {body}\n}}")
    return out


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _py_division(sig: Signature, t: Scalar) -> Any:
    op = sig.name.removeprefix("arith.")
    signed = op.endswith("si")

    def py(a: int, b: int) -> int:
        if signed:
            a, b = t.signed(a), t.signed(b)
        else:
            a, b = t.unsigned(a), t.unsigned(b)
        if b == 0:
            raise UndefinedBehavior(f"{sig.name}: division by zero")
        if signed and a == -(1 << (t.width - 1)) and b == -1:
            raise UndefinedBehavior(f"{sig.name}: signed overflow ({a} / -1)")
        if op in ("divsi", "divui"):
            return _trunc_div(a, b)
        if op in ("remsi", "remui"):
            return a - b * _trunc_div(a, b)
        if op == "floordivsi":
            return a // b
        # ceildivsi, ceildivui
        return -((-a) // b)

    return py


@register(
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.ceildivui",
)
def _division(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    helper = _div_helpers(t)[sig.name.removeprefix("arith.")]
    return make(
        sig,
        lambda a, b: f"{helper.name}({a}, {b})",
        _py_division(sig, t),
        [helper],
        doc="UB on a zero divisor or INT_MIN / -1 (py raises UndefinedBehavior)",
    )


@register("arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui")
def _minmax_int(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    op = sig.name.removeprefix("arith.")
    fn = op[:3]
    signed = op.endswith("si")
    if t.is_bool:
        # Signed: true (-1) < false (0); unsigned: false < true.
        take_or = (fn == "min") == signed

        def c_bool(a: str, b: str) -> str:
            return f"(uchar)({a} {'|' if take_or else '&'} {b})"

        return make(sig, c_bool, (lambda a, b: a | b) if take_or else (lambda a, b: a & b))

    def c(a: str, b: str) -> str:
        if signed:
            return f"{fn}({a}, {b})"
        return f"({t.c}){fn}(({t.cu}){a}, ({t.cu}){b})"

    reading = t.signed if signed else t.unsigned
    pick = min if fn == "min" else max
    return make(sig, c, lambda a, b: pick(reading(a), reading(b)))


@register("arith.shli", "arith.shrui", "arith.shrsi")
def _shift(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    op = sig.name.removeprefix("arith.")
    pw = t.promoted_width
    cu = t.compute_unsigned

    def amount(b: int) -> int:
        return t.unsigned(b) & (pw - 1)

    if op == "shli":

        def c(a: str, b: str) -> str:
            return wrap_c(t, f"({cu}){a} << ({t.cu}){b}")

        def py(a: int, b: int) -> int:
            return t.unsigned(a) << amount(b)

    elif op == "shrui":

        def c(a: str, b: str) -> str:
            return wrap_c(t, f"({t.cu}){a} >> ({t.cu}){b}")

        def py(a: int, b: int) -> int:
            return t.unsigned(a) >> amount(b)

    else:

        def c(a: str, b: str) -> str:
            return wrap_c(t, f"{signed_c(t, a)} >> ({t.cu}){b}")

        def py(a: int, b: int) -> int:
            return t.signed(a) >> amount(b)

    return make(sig, c, py, doc="shift amount modulo the promoted width (poison in MLIR)")


@register("arith.addui_extended")
def _addui_extended(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    cu = t.compute_unsigned

    def c(a: str, b: str) -> tuple[str, str]:
        total = wrap_c(t, f"({cu}){a} + ({cu}){b}")
        return total, f"(uchar)(({t.cu}){total} < ({t.cu}){a})"

    def py(a: int, b: int) -> tuple[int, int]:
        s = t.unsigned(a) + t.unsigned(b)
        return s, int(s > t.mask)

    return make(sig, c, py)


@register("arith.mului_extended", "arith.mulsi_extended")
def _mul_extended(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    cu = t.compute_unsigned
    signed = sig.name == "arith.mulsi_extended"

    def c(a: str, b: str) -> tuple[str, str]:
        low = wrap_c(t, f"({cu}){a} * ({cu}){b}")
        if t.is_bool:
            return low, "(uchar)0"
        if signed:
            return low, f"mul_hi({a}, {b})"
        return low, f"({t.c})mul_hi(({t.cu}){a}, ({t.cu}){b})"

    def py(a: int, b: int) -> tuple[int, int]:
        reading = t.signed if signed else t.unsigned
        p = reading(a) * reading(b)
        return p, p >> t.width

    return make(sig, c, py)


@register("arith.cmpi")
def _cmpi(sig: Signature) -> OpSemantics:
    t = _check_int(sig)
    pred = sig.params.get("predicate")
    if pred not in CMPI_PREDICATES:
        raise SemanticsError(f"arith.cmpi: unknown predicate {pred!r}")
    sym = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
    kind = pred if pred in ("eq", "ne") else pred[1:]
    signed = pred[0] == "s"
    unsigned = pred[0] == "u"

    def c(a: str, b: str) -> str:
        if signed:
            a, b = signed_c(t, a), signed_c(t, b)
        elif unsigned:
            a, b = unsigned_c(t, a), unsigned_c(t, b)
        return f"(uchar)({a} {sym[kind]} {b})"

    ops = {
        "eq": lambda x, y: x == y,
        "ne": lambda x, y: x != y,
        "lt": lambda x, y: x < y,
        "le": lambda x, y: x <= y,
        "gt": lambda x, y: x > y,
        "ge": lambda x, y: x >= y,
    }

    def py(a: int, b: int) -> int:
        reading = t.unsigned if unsigned else t.signed
        return int(ops[kind](reading(a), reading(b)))

    return make(sig, c, py)


@register("arith.select")
def _select(sig: Signature) -> OpSemantics:
    if not sig.operand(0).is_bool:
        raise SemanticsError("arith.select: the condition must be i1")
    return make(sig, lambda c, a, b: f"({c} ? {a} : {b})", lambda c, a, b: a if c else b)


# --------------------------------------------------------------------------- #
# Casts                                                                       #
# --------------------------------------------------------------------------- #


@register("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui")
def _int_cast(sig: Signature) -> OpSemantics:
    _check_int(sig)
    src, dst = sig.operand(), sig.result()
    zero_extend = sig.name in ("arith.extui", "arith.index_castui")

    def c(a: str) -> str:
        if dst.width < src.width or (dst.width == src.width):
            if dst.is_bool:
                return f"(uchar)({a} & 1)"
            return f"({dst.c}){a}"
        if zero_extend:
            return f"({dst.c}){unsigned_c(src, a)}"
        return f"({dst.c}){signed_c(src, a)}"

    def py(a: int) -> int:
        return src.unsigned(a) if zero_extend else src.signed(a)

    return make(sig, c, py)


def _float_of_int(value: int, width: int) -> float:
    """An integer converted to a float of `width` bits, rounded once."""
    return round_exact(Fraction(value), width)


@register("arith.sitofp", "arith.uitofp")
def _int_to_float(sig: Signature) -> OpSemantics:
    src, dst = sig.operand(), sig.result()
    if not src.is_int or not dst.is_float:
        raise SemanticsError(f"{sig.name}: expects an integer operand and a float result")
    signed = sig.name == "arith.sitofp"

    def c(a: str) -> str:
        return f"({dst.c}){signed_c(src, a) if signed else unsigned_c(src, a)}"

    def py(a: int) -> float:
        v = src.signed(a) if signed else src.unsigned(a)
        return _float_of_int(v, dst.width)

    return make(sig, c, py)


@register("arith.fptosi", "arith.fptoui")
def _float_to_int(sig: Signature) -> OpSemantics:
    src, dst = sig.operand(), sig.result()
    if not src.is_float or not dst.is_int:
        raise SemanticsError(f"{sig.name}: expects a float operand and an integer result")
    signed = sig.name == "arith.fptosi"

    def convert(a: str) -> str:
        if dst.is_bool:
            if signed:
                return f"(uchar)(clamp(convert_int_sat_rtz({a}), -1, 0) & 1)"
            return f"(uchar)min(convert_uint_sat_rtz({a}), 1u)"
        if signed:
            return f"convert_{dst.c}_sat_rtz({a})"
        return f"({dst.c})convert_{dst.cu}_sat_rtz({a})"

    def c(a: str) -> str:
        # OpenCL says a saturating conversion maps NaN to 0; PoCL 3 does not.
        return f"(isnan({a}) ? ({dst.c})0 : {convert(a)})"

    lo, hi = (-(1 << (dst.width - 1)), (1 << (dst.width - 1)) - 1) if signed else (0, dst.mask)

    def py(a: float) -> int:
        if _m.isnan(a):
            return 0
        if _m.isinf(a):
            return hi if a > 0 else lo
        return max(lo, min(hi, _m.trunc(a)))

    return make(sig, c, py, doc="saturating, NaN -> 0 (out of range is poison in MLIR)")


@register("arith.extf", "arith.truncf")
def _float_cast(sig: Signature) -> OpSemantics:
    _check_float(sig)
    dst = sig.result()
    return make(sig, lambda a: f"({dst.c}){a}", lambda a: a)


_AS = {("float", 16): "half", ("float", 32): "float", ("float", 64): "double"}


@register("arith.bitcast")
def _bitcast(sig: Signature) -> OpSemantics:
    src, dst = sig.operand(), sig.result()
    if src.width != dst.width or src.kind == "index" or dst.kind == "index":
        raise SemanticsError(f"arith.bitcast: cannot reinterpret {src} as {dst}")

    def c(a: str) -> str:
        if src.is_float == dst.is_float:
            return f"({dst.c}){a}"
        if dst.is_bool or src.is_bool:
            raise SemanticsError("arith.bitcast: i1 has no float counterpart")
        return f"as_{dst.c}({a})"

    def py(a: Any) -> Any:
        if src.is_float and dst.is_float:
            return a
        bits = float_bits(a, src.width) if src.is_float else src.unsigned(a)
        return bits_float(bits, dst.width) if dst.is_float else bits

    return make(sig, c, py)


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


# --------------------------------------------------------------------------- #
# Constants                                                                   #
# --------------------------------------------------------------------------- #


def c_literal(value: Any, t: Scalar) -> str:
    """`value` of type `t` as an OpenCL C expression of that type."""
    v = t.norm(value)
    if t.is_float:
        assert isinstance(v, float)
        if _m.isnan(v):
            text = "NAN"
        elif _m.isinf(v):
            text = "INFINITY" if v > 0 else "(-INFINITY)"
        else:
            # The shortest text that reads back as the same value of the type.
            text = repr(v) if t.width == 64 else str(t.dtype.type(v))
            if "." not in text and "e" not in text:
                text += ".0"
            if t.width == 32:
                text += "f"
            elif t.width == 16:
                text = f"(half){text}f"
            if text.startswith("-"):
                text = f"({text})"
            return text
        return text if t.width == 32 else f"(({t.c}){text})"
    assert isinstance(v, int)
    if t.width == 64:
        if v == -(1 << 63):
            return "(-9223372036854775807L - 1L)"
        text = f"{v}L"
    elif t.width == 32:
        text = "(-2147483647 - 1)" if v == -(1 << 31) else str(v)
    else:
        text = f"({t.c}){v}"
    return f"({text})" if text.startswith("-") else text


@register("arith.constant")
def _constant(sig: Signature) -> OpSemantics:
    if "value" not in sig.params:
        raise SemanticsError("arith.constant: no value")
    t = sig.result()
    value = t.norm(sig.params["value"])
    return make(sig, lambda: c_literal(value, t), lambda: value)
