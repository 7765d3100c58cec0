"""arith's casts (`xgpu.semantics.arith`): integer casts, integer <-> float
conversions (saturating float-to-int), float extension and truncation,
bitcast."""

from __future__ import annotations

import math as _m
from fractions import Fraction
from typing import Any

from xgpu.semantics.arith.common import _check_float, _check_int, signed_c, unsigned_c
from xgpu.semantics.core import OpSemantics, Signature, make, register
from xgpu.semantics.types import SemanticsError, bits_float, float_bits, round_exact

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
