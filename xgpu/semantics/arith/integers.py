"""arith's integer ops (`xgpu.semantics.arith`): wrapping and bitwise
arithmetic, division and remainder (with their C helpers), min/max, shifts,
the extended add and multiplies, cmpi and select."""

from __future__ import annotations

from typing import Any

from xgpu.semantics.arith.common import (
    CMPI_PREDICATES,
    _check_int,
    _helper_name,
    signed_c,
    unsigned_c,
    wrap_c,
)
from xgpu.semantics.core import CHelper, OpSemantics, Signature, make, register
from xgpu.semantics.types import Scalar, SemanticsError, UndefinedBehavior

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
