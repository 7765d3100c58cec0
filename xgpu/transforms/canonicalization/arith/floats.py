"""Floating point semantics for the arith folders, as APFloat computes them.

f16, bf16, f32 and f64 values of attributes, the arithmetic and min/max of
two floats rounded to the type (NaN operands propagated, a new NaN the
positive quiet one), and the conversions between integers, floats and bits.
"""

from __future__ import annotations

import math
import struct

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
)
from xdsl.ir import Attribute

from xgpu.ir.splats import is_compact_splat

# ---------------------------------------------------------------------------
# Floating point semantics
# ---------------------------------------------------------------------------

_FOLDABLE_FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)
_PRECISION = {Float16Type: 11, BFloat16Type: 8, Float32Type: 24, Float64Type: 53}
_MAX_EXPONENT = {Float16Type: 15, BFloat16Type: 127, Float32Type: 127, Float64Type: 1023}
_DEFAULT_NAN = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000000))[0]


def float_value(attr: Attribute | None) -> float | None:
    """The value of a FloatAttr of a type xgpu folds (f16, bf16, f32, f64)."""
    if isinstance(attr, FloatAttr) and isinstance(attr.type, _FOLDABLE_FLOATS):
        return attr.value.data
    return None


def float_or_splat(attr: Attribute | None) -> float | None:
    """The value of a float or float splat constant (for MLIR's float
    matchers such as `m_OneFloat`), any float type."""
    if isinstance(attr, FloatAttr):
        return attr.value.data
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        if values and isinstance(values[0], float):
            if is_compact_splat(attr):
                return values[0]  # type: ignore[return-value]
            first = _f64_bits(values[0])
            if all(_f64_bits(v) == first for v in values):  # type: ignore[arg-type]
                return values[0]  # type: ignore[return-value]
    return None


def _f64_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _quiet(x: float) -> float:
    return struct.unpack("<d", struct.pack("<Q", _f64_bits(x) | (1 << 51)))[0]


def _is_neg(x: float) -> bool:
    return math.copysign(1.0, x) < 0


def _nan_operand(a: float, b: float) -> float | None:
    """APFloat's result when an operand is a NaN: the first NaN, quieted."""
    if math.isnan(a):
        return _quiet(a)
    if math.isnan(b):
        return _quiet(b)
    return None


def _fadd(a: float, b: float) -> float:
    nan = _nan_operand(a, b)
    if nan is not None:
        return nan
    if math.isinf(a) and math.isinf(b) and _is_neg(a) != _is_neg(b):
        return _DEFAULT_NAN
    return a + b


def _fsub(a: float, b: float) -> float:
    nan = _nan_operand(a, b)
    if nan is not None:
        return nan
    if math.isinf(a) and math.isinf(b) and _is_neg(a) == _is_neg(b):
        return _DEFAULT_NAN
    return a - b


def _fmul(a: float, b: float) -> float:
    nan = _nan_operand(a, b)
    if nan is not None:
        return nan
    if (math.isinf(a) and b == 0) or (math.isinf(b) and a == 0):
        return _DEFAULT_NAN
    return a * b


def _fdiv(a: float, b: float) -> float:
    nan = _nan_operand(a, b)
    if nan is not None:
        return nan
    if (a == 0 and b == 0) or (math.isinf(a) and math.isinf(b)):
        return _DEFAULT_NAN
    if b == 0:
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _fmaximum(a: float, b: float) -> float:
    """llvm::maximum: NaN-propagating, -0 < +0."""
    if math.isnan(a):
        return _quiet(a)
    if math.isnan(b):
        return _quiet(b)
    if a == 0 and b == 0 and _is_neg(a) != _is_neg(b):
        return b if _is_neg(a) else a
    return b if a < b else a


def _fminimum(a: float, b: float) -> float:
    """llvm::minimum: NaN-propagating, -0 < +0."""
    if math.isnan(a):
        return _quiet(a)
    if math.isnan(b):
        return _quiet(b)
    if a == 0 and b == 0 and _is_neg(a) != _is_neg(b):
        return a if _is_neg(a) else b
    return b if b < a else a


def _fmaxnum(a: float, b: float) -> float:
    """llvm::maxnum: a NaN operand yields the other operand, -0 < +0."""
    if math.isnan(a):
        return _quiet(b) if math.isnan(b) else b
    if math.isnan(b):
        return a
    if a == 0 and b == 0 and _is_neg(a) != _is_neg(b):
        return b if _is_neg(a) else a
    return b if a < b else a


def _fminnum(a: float, b: float) -> float:
    """llvm::minnum: a NaN operand yields the other operand, -0 < +0."""
    if math.isnan(a):
        return _quiet(b) if math.isnan(b) else b
    if math.isnan(b):
        return a
    if a == 0 and b == 0 and _is_neg(a) != _is_neg(b):
        return a if _is_neg(a) else b
    return b if b < a else a


def int_to_float(value: int, type_: Attribute) -> float:
    """APFloat::convertFromAPInt (round to nearest even) of the integer
    `value` into the float type `type_` (exact: no double rounding)."""
    precision = _PRECISION[type(type_)]  # type: ignore[index]
    magnitude = abs(value)
    shift = magnitude.bit_length() - precision
    if shift > 0:
        quotient = magnitude >> shift
        rest = magnitude & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if rest > half or (rest == half and quotient & 1):
            quotient += 1
        magnitude = quotient << shift
    try:
        result = float(magnitude)
    except OverflowError:
        result = math.inf
    result = -result if value < 0 else result
    return FloatAttr(result, type_).value.data  # type: ignore[arg-type]


def float_to_int(value: float, width: int, signed: bool) -> int | None:
    """APFloat::convertToInteger toward zero into a `width`-bit integer
    (unsigned bits), or None where APFloat reports an invalid operation (NaN,
    infinity or out of range)."""
    if math.isnan(value) or math.isinf(value):
        return None
    truncated = int(value)
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    if not low <= truncated <= high:
        return None
    return truncated & ((1 << width) - 1)


def _float_bits(value: float, type_: Attribute) -> int | None:
    if isinstance(type_, Float64Type):
        return _f64_bits(value)
    if isinstance(type_, Float32Type):
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if isinstance(type_, Float16Type):
        return struct.unpack("<H", struct.pack("<e", value))[0]
    if isinstance(type_, BFloat16Type):
        return struct.unpack("<I", struct.pack("<f", value))[0] >> 16
    return None


def _bits_float(bits: int, type_: Attribute) -> float | None:
    if isinstance(type_, Float64Type):
        return struct.unpack("<d", struct.pack("<Q", bits))[0]
    if isinstance(type_, Float32Type):
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    if isinstance(type_, Float16Type):
        return struct.unpack("<e", struct.pack("<H", bits))[0]
    if isinstance(type_, BFloat16Type):
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return None


def _exactly(value: float, type_: Attribute) -> bool:
    """Whether `value` converts to `type_` with no loss (APFloat::convert
    reporting opOK and no lost information)."""
    rounded = FloatAttr(value, type_).value.data  # type: ignore[arg-type]
    if math.isnan(value):
        return _f64_bits(rounded) == _f64_bits(value)
    return rounded == value
