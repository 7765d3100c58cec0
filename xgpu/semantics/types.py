"""Scalar types as the semantics tables see them.

Every supported MLIR scalar type becomes a `Scalar`: its kind (`"int"`,
`"index"` or `"float"`), its width, its OpenCL C type and its numpy dtype.
`index` is a 64-bit signed integer; `i1` is stored in OpenCL C as a `uchar`
holding 0 or 1. Integer widths other than 1, 8, 16, 32 and 64, and float types
other than f16, f32 and f64, are not supported (`SemanticsError`).

Python values: an integer of width w is a Python `int` in the signed range
[-2**(w-1), 2**(w-1)) (`index` and `i64`: the int64 range); an `i1` is 0 or 1.
Inputs are normalized first (any Python int is accepted and taken modulo 2**w;
`True`/`False` work for i1). A float is a Python `float` whose value is exactly
representable in its type (f32 results are rounded with numpy.float32, f16
with numpy.float16).
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute


class SemanticsError(Exception):
    """The op, type or attribute has no semantics here (unsupported)."""


class UndefinedBehavior(ArithmeticError):
    """Evaluating the op in Python hit MLIR's immediate undefined behaviour
    (integer division by zero, signed division overflow)."""


_INT_C = {1: "uchar", 8: "char", 16: "short", 32: "int", 64: "long"}
_UINT_C = {1: "uchar", 8: "uchar", 16: "ushort", 32: "uint", 64: "ulong"}
_INT_NP = {1: np.uint8, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_FLOAT_C = {16: "half", 32: "float", 64: "double"}
_FLOAT_NP = {16: np.float16, 32: np.float32, 64: np.float64}


@dataclass(frozen=True)
class Scalar:
    """A supported scalar type: `kind` is "int", "index" or "float"."""

    kind: str
    width: int

    # ------------------------------------------------------------ properties
    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        """Integers and index."""
        return self.kind != "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "int" and self.width == 1

    @property
    def c(self) -> str:
        """The OpenCL C type of values and of memory elements."""
        return _FLOAT_C[self.width] if self.is_float else _INT_C[self.width]

    @property
    def cu(self) -> str:
        """The unsigned OpenCL C type of the same width (integers only)."""
        return _UINT_C[self.width]

    @property
    def compute_unsigned(self) -> str:
        """The unsigned C type wrapping arithmetic is done in: `uint` up to 32
        bits (C's integer promotion would otherwise compute small types in a
        signed `int`, where overflow is undefined), `ulong` for 64."""
        return "ulong" if self.width == 64 else "uint"

    @property
    def promoted_width(self) -> int:
        """The width C computes in after integer promotion (32 or 64)."""
        return 64 if self.width == 64 else 32

    @property
    def dtype(self) -> np.dtype:
        """The numpy dtype of a kernel argument or memory element (i1: uint8)."""
        return np.dtype(_FLOAT_NP[self.width] if self.is_float else _INT_NP[self.width])

    @property
    def nbytes(self) -> int:
        return self.dtype.itemsize

    @property
    def min(self) -> int:
        return 0 if self.is_bool else -(1 << (self.width - 1))

    @property
    def max(self) -> int:
        return 1 if self.is_bool else (1 << (self.width - 1)) - 1

    @property
    def mask(self) -> int:
        return (1 << self.width) - 1

    def __str__(self) -> str:
        if self.kind == "index":
            return "index"
        return f"{'f' if self.is_float else 'i'}{self.width}"

    # ---------------------------------------------------------------- values
    def norm(self, value: Any) -> int | float:
        """`value` as the canonical Python value of this type."""
        if self.is_float:
            return round_float(float(value), self.width)
        v = int(value) & self.mask
        if self.width > 1 and v >> (self.width - 1):
            v -= 1 << self.width
        return v

    @property
    def normalizer(self) -> Any:
        """A function equal to `norm` on the values compiled code passes (Python
        ints and floats), specialized to this type: what generated code calls
        after each op."""
        return _normalizer(self)

    def signed(self, value: Any) -> int:
        """The two's-complement (signed) reading of an integer (i1: 0 or -1)."""
        v = int(value) & self.mask
        return v - (1 << self.width) if v >> (self.width - 1) else v

    def unsigned(self, value: Any) -> int:
        """The unsigned reading of an integer."""
        return int(value) & self.mask


INDEX = Scalar("index", 64)
I1 = Scalar("int", 1)
I8 = Scalar("int", 8)
I16 = Scalar("int", 16)
I32 = Scalar("int", 32)
I64 = Scalar("int", 64)
F16 = Scalar("float", 16)
F32 = Scalar("float", 32)
F64 = Scalar("float", 64)

_BY_NAME = {
    "index": INDEX,
    "i1": I1,
    "i8": I8,
    "i16": I16,
    "i32": I32,
    "i64": I64,
    "f16": F16,
    "f32": F32,
    "f64": F64,
}


def scalar(t: Attribute | Scalar | str) -> Scalar:
    """The `Scalar` of an xDSL type attribute (or of a name: "i32", "index", ...).

    Raises `SemanticsError` for anything else (vectors, memrefs, i7, bf16, ...)."""
    if isinstance(t, Scalar):
        return t
    if isinstance(t, str):
        if t in _BY_NAME:
            return _BY_NAME[t]
        raise SemanticsError(f"unsupported type '{t}'")
    if isinstance(t, IndexType):
        return INDEX
    if isinstance(t, IntegerType):
        width = t.width.data
        if t.signedness.data != Signedness.SIGNLESS:
            raise SemanticsError(f"unsupported type '{t}': only signless integers are supported")
        if width not in _INT_C:
            raise SemanticsError(f"unsupported type '{t}': integer widths 1, 8, 16, 32, 64 only")
        return Scalar("int", width)
    if isinstance(t, Float16Type):
        return F16
    if isinstance(t, Float32Type):
        return F32
    if isinstance(t, Float64Type):
        return F64
    if isinstance(t, BFloat16Type):
        raise SemanticsError("unsupported type 'bf16'")
    raise SemanticsError(f"unsupported type '{t}'")


# --------------------------------------------------------------------------- #
# Float rounding                                                              #
# --------------------------------------------------------------------------- #


_F32 = struct.Struct("f")


@functools.cache
def _normalizer(t: Scalar) -> Any:
    if t.is_float:
        if t.width == 64:
            return float
        if t.width == 32:
            pack, unpack = _F32.pack, _F32.unpack

            def norm_f32(x: Any) -> float:
                try:
                    return unpack(pack(x))[0]
                except OverflowError:
                    return round_float(float(x), 32)

            return norm_f32
        return t.norm
    if t.width == 1:
        return lambda v: int(v) & 1
    half, mask = 1 << (t.width - 1), (1 << t.width) - 1
    return lambda v: ((int(v) + half) & mask) - half


def round_float(x: float, width: int) -> float:
    """`x` (a double) rounded to nearest-even in a float of `width` bits."""
    if width == 64:
        return float(x)
    if width == 32:
        # struct's C cast rounds to nearest-even; it refuses (OverflowError)
        # finite values beyond the f32 range, which numpy makes +-inf.
        try:
            return _F32.unpack(_F32.pack(x))[0]
        except OverflowError:
            pass
    with np.errstate(all="ignore"):
        return float(_FLOAT_NP[width](x))


def round_exact(value: Fraction, width: int) -> float:
    """An exact rational rounded once (nearest, ties to even) to a float of
    `width` bits: no double rounding through f64."""
    try:
        as_double = float(value)  # correctly rounded to f64
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")
    if width == 64:
        return as_double
    np_type = _FLOAT_NP[width]
    with np.errstate(all="ignore"):
        candidate = np_type(as_double)
        if not np.isfinite(candidate):
            return float(candidate)
        below = np.nextafter(candidate, np_type(-np.inf))
        above = np.nextafter(candidate, np_type(np.inf))
    best, best_err = candidate, abs(Fraction(float(candidate)) - value)
    for other in (below, above):
        if not np.isfinite(other):
            continue
        err = abs(Fraction(float(other)) - value)
        if err < best_err or (err == best_err and _is_even(other) and not _is_even(best)):
            best, best_err = other, err
    return float(best)


def _is_even(x: np.floating) -> bool:
    bits = int(np.array(x).view(np.uint16 if x.dtype == np.float16 else np.uint32))
    return bits & 1 == 0


def float_bits(value: float, width: int) -> int:
    """The IEEE bits of a float of `width` bits, as an unsigned int."""
    if width == 64:
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if width == 32:
        return struct.unpack("<I", struct.pack("<f", value))[0]
    return int(np.array(value, dtype=np.float16).view(np.uint16))


def bits_float(bits: int, width: int) -> float:
    """The float of `width` bits whose IEEE bits are `bits` (unsigned)."""
    if width == 64:
        return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
    if width == 32:
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    return float(np.array(bits & 0xFFFF, dtype=np.uint16).view(np.float16))
