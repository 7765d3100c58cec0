"""MLIR 22's folders and canonicalization patterns for the arith ops.

xDSL's arith canonicalization differs from MLIR's in ways GPU programs meet
(`addf %x, 0.0` folded, `x ^ x` and `x - x` not folded, index arithmetic not
wrapped at 64 bits, `select` and `cmpi` rewritten differently, ...), so every
arith op xDSL defines gets MLIR 22's folder and MLIR 22's patterns here
(`register` at the end), written from the behaviour of `ArithOps.cpp` and
`ArithCanonicalization.td`:

* a folder computes what MLIR's `fold` hook returns; it never changes the IR.
  Integers are folded as APInt does: on the bits of the type's width (index is
  64 bits), signedness given by the op, no fold where MLIR refuses one
  (division by zero, signed overflow of `divsi`, shift amounts >= width, ...).
  Floats are folded for f16, bf16, f32 and f64, rounding to nearest even as
  APFloat does (a binary64 result rounded once more is exact for these
  formats); NaN results follow APFloat (a NaN operand is propagated, a new NaN
  is the positive quiet one).
* MLIR's folds that modify the op in place (`OpTrait::IsCommutative` moving a
  constant operand to the right, `cmpi` swapping a constant left operand,
  `extui(extui(x))`, `trunci(trunci(x))`, ...) are patterns listed first; the
  folder returns None where they apply so that the driver reaches them, as MLIR
  reaches them when `fold` returns the op itself.
* the declarative patterns keep MLIR's order, which is by benefit (the number
  of ops they match), then by registration.

Statically shaped vector and tensor constants are folded element by element by
the binary integer and float ops and by cmpi, as MLIR does; casts and selects
of such constants are not folded (left as they are, never folded wrongly), nor
are constants whose value a Python float cannot hold (signaling NaN payloads;
f80, f128 and the 8-bit float types).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects import arith as xgpu_arith
from xgpu.ir.splats import compact_splat, is_compact_splat, splat_value
from xgpu.transforms.constants import constant_value

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable

Folded = Sequence[SSAValue | Attribute] | None

# ---------------------------------------------------------------------------
# Values, constants and integer semantics (shared with the memref and scf
# modules)
# ---------------------------------------------------------------------------


def defining_op(value: SSAValue) -> Operation | None:
    """The op that defines `value` (None for a block argument)."""
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def const_attr(value: SSAValue) -> Attribute | None:
    """The attribute of the constant-like op defining `value` (MLIR's
    `m_Constant`), or None."""
    owner = value.owner
    if isinstance(owner, Operation):
        return constant_value(owner)
    return None


def element_type(type_: Attribute) -> Attribute:
    """MLIR's `getElementTypeOrSelf`."""
    if isinstance(type_, VectorType | TensorType):
        return type_.get_element_type()
    return type_


def int_width(type_: Attribute) -> int | None:
    """The bit width of an integer or index type (index is 64 bits, as
    `IndexType::kInternalStorageBitWidth`), else None."""
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType):
        return 64
    return None


def to_signed(bits: int, width: int) -> int:
    """The two's complement value of the low `width` bits of `bits`."""
    bits &= (1 << width) - 1
    return bits - (1 << width) if width and bits >> (width - 1) else bits


def int_attr(bits: int, type_: Attribute) -> IntegerAttr:
    """An IntegerAttr of `type_` holding the low bits of `bits`, as APInt."""
    width = int_width(type_)
    assert width is not None
    return IntegerAttr(to_signed(bits, width), type_)  # type: ignore[arg-type]


def int_bits(attr: Attribute | None) -> int | None:
    """The bits of a scalar IntegerAttr (MLIR's `APIntAttr`), unsigned."""
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        if width is not None:
            return attr.value.data & ((1 << width) - 1)
    return None


def int_or_splat_bits(attr: Attribute | None) -> tuple[int, int] | None:
    """(bits, width) of an integer or an integer splat (MLIR's
    `m_ConstantInt`), else None."""
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        if width is not None:
            return attr.value.data & ((1 << width) - 1), width
        return None
    if isinstance(attr, DenseIntOrFPElementsAttr):
        width = int_width(element_type(attr.type))
        if width is None:
            return None
        value = splat_value(attr)
        if value is not None:
            return int(value) & ((1 << width) - 1), width
    return None


def is_zero(attr: Attribute | None) -> bool:
    """MLIR's `m_Zero` on an attribute (integer or integer splat 0)."""
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == 0


def is_one(attr: Attribute | None) -> bool:
    """MLIR's `m_One` on an attribute (integer or integer splat 1)."""
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == 1


def is_all_ones(attr: Attribute | None) -> bool:
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == (1 << found[1]) - 1


def value_is_zero(value: SSAValue) -> bool:
    return is_zero(const_attr(value))


def value_is_one(value: SSAValue) -> bool:
    return is_one(const_attr(value))


def static_shaped(type_: Attribute) -> bool:
    """A vector or tensor type of static shape (not scalable)."""
    if isinstance(type_, VectorType):
        return not any(type_.get_scalable_dims()) and all(d >= 0 for d in type_.get_shape())
    if isinstance(type_, TensorType):
        return all(d >= 0 for d in type_.get_shape())
    return False


def zero_attr(type_: Attribute) -> Attribute | None:
    """MLIR's `Builder::getZeroAttr` (None for a type with no such constant,
    as a dynamically shaped tensor)."""
    if int_width(type_) is not None:
        return int_attr(0, type_)
    if isinstance(type_, BFloat16Type | Float16Type | Float32Type | Float64Type):
        return FloatAttr(0.0, type_)
    if static_shaped(type_):
        elem = element_type(type_)
        if int_width(elem) is not None:
            return DenseIntOrFPElementsAttr.from_list(type_, [0])  # type: ignore[arg-type]
        if isinstance(elem, BFloat16Type | Float16Type | Float32Type | Float64Type):
            return DenseIntOrFPElementsAttr.from_list(type_, [0.0])  # type: ignore[arg-type]
    return None


def inline_block(
    rewriter: PatternRewriter,
    block: Block,
    dest: Block,
    before: Operation | None,
    args: Sequence[SSAValue] = (),
) -> None:
    """MLIR's `RewriterBase::inlineBlockBefore` (`mergeBlocks` when `before`
    is None): replace the block arguments by `args` (notifying their users as
    modified), move the ops of `block` into `dest` before `before` (at its end
    when None) one by one, notifying each as inserted, and erase `block`."""
    for arg, value in zip(block.args, args, strict=True):
        rewriter.replace_all_uses_with(arg, value)
    for moved in list(block.ops):
        moved.detach()
        if before is None:
            dest.add_op(moved)
        else:
            dest.insert_op_before(moved, before)
        rewriter.handle_operation_insertion(moved)
    rewriter.has_done_action = True
    region = block.parent
    if region is not None:
        region.detach_block(block)
    block.erase(safe_erase=False)


def inline_block_before(
    rewriter: PatternRewriter,
    block: Block,
    op: Operation,
    args: Sequence[SSAValue] = (),
) -> None:
    """`inline_block` before `op`."""
    inline_block(rewriter, block, op.parent_block(), op, args)  # type: ignore[arg-type]


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


# ---------------------------------------------------------------------------
# Folders
# ---------------------------------------------------------------------------

IntFn = Callable[[int, int, int], int | None]


def _dense_elements(attr: Attribute | None) -> DenseIntOrFPElementsAttr | None:
    if isinstance(attr, DenseIntOrFPElementsAttr) and static_shaped(attr.type):
        return attr
    return None


def _fold_int_binary(op: Operation, fn: IntFn) -> Folded:
    """MLIR's `constFoldBinaryOp<IntegerAttr>`: both operands constants of the
    same type (scalars, or elements folded one by one); `fn(a, b, width)` gets
    the unsigned bits and returns the result bits, or None (no fold at all).
    The result has the type of the op's result."""
    lhs = const_attr(op.operands[0])
    rhs = const_attr(op.operands[1])
    result_type = op.results[0].type
    if isinstance(lhs, IntegerAttr) and isinstance(rhs, IntegerAttr):
        width = int_width(lhs.type)
        if lhs.type != rhs.type or width is None or int_width(result_type) is None:
            return None
        mask = (1 << width) - 1
        result = fn(lhs.value.data & mask, rhs.value.data & mask, width)
        return None if result is None else [int_attr(result, result_type)]
    lhs, rhs = _dense_elements(lhs), _dense_elements(rhs)
    if lhs is None or rhs is None or lhs.type != rhs.type:
        return None
    width = int_width(element_type(lhs.type))
    result_width = int_width(element_type(result_type))
    if width is None or result_width is None:
        return None
    mask = (1 << width) - 1
    if is_compact_splat(lhs) and is_compact_splat(rhs):
        # MLIR folds a splat once (and keeps a splat).
        result = fn(lhs.get_values()[0] & mask, rhs.get_values()[0] & mask, width)  # type: ignore[operator]
        if result is None:
            return None
        return [compact_splat(result_type, to_signed(result, result_width))]
    values = []
    for a, b in zip(lhs.get_values(), rhs.get_values(), strict=True):
        result = fn(a & mask, b & mask, width)  # type: ignore[operator]
        if result is None:
            return None
        values.append(to_signed(result, result_width))
    return [DenseIntOrFPElementsAttr.from_list(result_type, values)]  # type: ignore[arg-type]


def _fold_float_binary(op: Operation, fn: Callable[[float, float], float]) -> Folded:
    """MLIR's `constFoldBinaryOp<FloatAttr>` (see `_fold_int_binary`)."""
    lhs = const_attr(op.operands[0])
    rhs = const_attr(op.operands[1])
    a, b = float_value(lhs), float_value(rhs)
    if a is not None and b is not None:
        if lhs.type != rhs.type:  # type: ignore[union-attr]
            return None
        return [FloatAttr(fn(a, b), lhs.type)]  # type: ignore[union-attr, arg-type]
    lhs, rhs = _dense_elements(lhs), _dense_elements(rhs)
    if lhs is None or rhs is None or lhs.type != rhs.type:
        return None
    elem = element_type(lhs.type)
    if not isinstance(elem, _FOLDABLE_FLOATS):
        return None
    if is_compact_splat(lhs) and is_compact_splat(rhs):
        folded = FloatAttr(fn(lhs.get_values()[0], rhs.get_values()[0]), elem)  # type: ignore[arg-type]
        return [compact_splat(lhs.type, folded.value.data)]
    values = [
        FloatAttr(fn(x, y), elem).value.data  # type: ignore[arg-type]
        for x, y in zip(lhs.get_values(), rhs.get_values(), strict=True)
    ]
    return [DenseIntOrFPElementsAttr.from_list(lhs.type, values)]  # type: ignore[arg-type]


def _s(bits: int, width: int) -> int:
    return to_signed(bits, width)


def fold_addi(op: arith.AddiOp) -> Folded:
    if value_is_zero(op.rhs):
        return [op.lhs]
    sub = defining_op(op.lhs)
    if isinstance(sub, arith.SubiOp) and op.rhs == sub.rhs:
        return [sub.lhs]
    sub = defining_op(op.rhs)
    if isinstance(sub, arith.SubiOp) and op.lhs == sub.rhs:
        return [sub.lhs]
    return _fold_int_binary(op, lambda a, b, w: a + b)


def fold_subi(op: arith.SubiOp) -> Folded:
    if op.lhs == op.rhs:
        zero = zero_attr(op.result.type)
        if zero is not None:
            return [zero]
    if value_is_zero(op.rhs):
        return [op.lhs]
    add = defining_op(op.lhs)
    if isinstance(add, arith.AddiOp):
        if op.rhs == add.rhs:
            return [add.lhs]
        if op.rhs == add.lhs:
            return [add.rhs]
    return _fold_int_binary(op, lambda a, b, w: a - b)


def fold_muli(op: arith.MuliOp) -> Folded:
    if value_is_zero(op.rhs):
        return [op.rhs]
    if value_is_one(op.rhs):
        return [op.lhs]
    return _fold_int_binary(op, lambda a, b, w: a * b)


def _div_of_mul(op: arith.DivUIOp | arith.DivSIOp, flag: str) -> SSAValue | None:
    """`(a * b) / b -> a` when the muli carries the overflow flag `flag`."""
    mul = defining_op(op.lhs)
    if not isinstance(mul, arith.MuliOp):
        return None
    if flag not in {str(f) for f in mul.overflow_flags.data}:
        return None
    if mul.lhs == op.rhs:
        return mul.rhs
    if mul.rhs == op.rhs:
        return mul.lhs
    return None


def _udiv(a: int, b: int, w: int) -> int | None:
    return None if b == 0 else a // b


def _sdiv(a: int, b: int, w: int) -> int | None:
    if b == 0:
        return None
    x, y = _s(a, w), _s(b, w)
    quotient = abs(x) // abs(y)
    if (x < 0) != (y < 0):
        quotient = -quotient
    if quotient > (1 << (w - 1)) - 1:
        return None  # INT_MIN / -1 overflows: MLIR does not fold
    return quotient


def fold_divui(op: arith.DivUIOp) -> Folded:
    if value_is_one(op.rhs):
        return [op.lhs]
    if (value := _div_of_mul(op, "nuw")) is not None:
        return [value]
    return _fold_int_binary(op, _udiv)


def fold_divsi(op: arith.DivSIOp) -> Folded:
    if value_is_one(op.rhs):
        return [op.lhs]
    if (value := _div_of_mul(op, "nsw")) is not None:
        return [value]
    return _fold_int_binary(op, _sdiv)


def _ceildivui(a: int, b: int, w: int) -> int | None:
    if b == 0:
        return None
    quotient = a // b
    if a % b == 0:
        return quotient
    if quotient + 1 > (1 << w) - 1:
        return None
    return quotient + 1


def _ceildivsi(a: int, b: int, w: int) -> int | None:
    """MLIR's CeilDivSIOp folder, which refuses any intermediate overflow
    (in particular any dividend INT_MIN unless the divisor is positive...)."""
    if b == 0:
        return None
    x, y = _s(a, w), _s(b, w)
    if x == 0:
        return 0
    smin, smax = -(1 << (w - 1)), (1 << (w - 1)) - 1

    def neg(v: int) -> int | None:
        return None if v == smin else -v

    def sdiv(p: int, q: int) -> int | None:
        if p == smin and q == -1:
            return None
        r = abs(p) // abs(q)
        return -r if (p < 0) != (q < 0) else r

    def ceil_nonneg(p: int, q: int) -> int | None:
        # (p - 1) / q + 1, each step checked for signed overflow
        t = p - 1
        if t < smin:
            return None
        d = sdiv(t, q)
        if d is None or d + 1 > smax:
            return None
        return d + 1

    if x > 0 and y > 0:
        return ceil_nonneg(x, y)
    if x < 0 and y < 0:
        pa, pb = neg(x), neg(y)
        if pa is None or pb is None:
            return None
        return ceil_nonneg(pa, pb)
    if x < 0 < y:
        pa = neg(x)
        if pa is None:
            return None
        d = sdiv(pa, y)
        return None if d is None else neg(d)
    pb = neg(y)
    if pb is None:
        return None
    d = sdiv(x, pb)
    return None if d is None else neg(d)


def _floordivsi(a: int, b: int, w: int) -> int | None:
    if b == 0:
        return None
    x, y = _s(a, w), _s(b, w)
    if x == -(1 << (w - 1)) and y == -1:
        return None
    return x // y


def fold_ceildivui(op: arith.CeilDivUIOp) -> Folded:
    if value_is_one(op.rhs):
        return [op.lhs]
    return _fold_int_binary(op, _ceildivui)


def fold_ceildivsi(op: arith.CeilDivSIOp) -> Folded:
    if value_is_one(op.rhs):
        return [op.lhs]
    return _fold_int_binary(op, _ceildivsi)


def fold_floordivsi(op: arith.FloorDivSIOp) -> Folded:
    if value_is_one(op.rhs):
        return [op.lhs]
    return _fold_int_binary(op, _floordivsi)


def _srem(a: int, b: int, w: int) -> int | None:
    if b == 0:
        return None
    x, y = _s(a, w), _s(b, w)
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def fold_remui(op: arith.RemUIOp) -> Folded:
    if value_is_one(op.rhs):
        zero = zero_attr(op.result.type)
        return None if zero is None else [zero]
    return _fold_int_binary(op, lambda a, b, w: None if b == 0 else a % b)


def fold_remsi(op: arith.RemSIOp) -> Folded:
    if value_is_one(op.rhs):
        zero = zero_attr(op.result.type)
        return None if zero is None else [zero]
    return _fold_int_binary(op, _srem)


def _is_not_of(value: SSAValue, other: SSAValue) -> SSAValue | None:
    """If `value` is `xori(other, all-ones)`, the all-ones operand."""
    xor = defining_op(value)
    if isinstance(xor, arith.XOrIOp) and xor.lhs == other and is_all_ones(const_attr(xor.rhs)):
        return xor.rhs
    return None


def fold_andi(op: arith.AndIOp) -> Folded:
    rhs = const_attr(op.rhs)
    if is_zero(rhs):
        return [op.rhs]
    if is_all_ones(rhs):
        return [op.lhs]
    if _is_not_of(op.rhs, op.lhs) is not None or _is_not_of(op.lhs, op.rhs) is not None:
        zero = zero_attr(op.result.type)
        if zero is not None:
            return [zero]
    for prev_value, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        prev = defining_op(prev_value)
        if isinstance(prev, arith.AndIOp) and other in (prev.lhs, prev.rhs):
            return [prev.result]
    folded = _fold_int_binary(op, lambda a, b, w: a & b)
    if folded is None and op.lhs == op.rhs:
        return [op.lhs]  # OpTrait::IsIdempotent
    return folded


def fold_ori(op: arith.OrIOp) -> Folded:
    rhs = const_attr(op.rhs)
    if is_zero(rhs):
        return [op.lhs]
    if is_all_ones(rhs):
        return [rhs]  # type: ignore[list-item]
    if (ones := _is_not_of(op.rhs, op.lhs)) is not None:
        return [ones]
    if (ones := _is_not_of(op.lhs, op.rhs)) is not None:
        return [ones]
    folded = _fold_int_binary(op, lambda a, b, w: a | b)
    if folded is None and op.lhs == op.rhs:
        return [op.lhs]  # OpTrait::IsIdempotent
    return folded


def fold_xori(op: arith.XOrIOp) -> Folded:
    if value_is_zero(op.rhs):
        return [op.lhs]
    if op.lhs == op.rhs:
        zero = zero_attr(op.result.type)
        if zero is not None:
            return [zero]
    prev = defining_op(op.lhs)
    if isinstance(prev, arith.XOrIOp):
        if prev.rhs == op.rhs:
            return [prev.lhs]
        if prev.lhs == op.rhs:
            return [prev.rhs]
    prev = defining_op(op.rhs)
    if isinstance(prev, arith.XOrIOp):
        if prev.rhs == op.lhs:
            return [prev.lhs]
        if prev.lhs == op.lhs:
            return [prev.rhs]
    return _fold_int_binary(op, lambda a, b, w: a ^ b)


def _shift_fold(op: Operation, shift: IntFn) -> Folded:
    if value_is_zero(op.operands[1]):
        return [op.operands[0]]
    return _fold_int_binary(op, lambda a, b, w: shift(a, b, w) if b < w else None)


def fold_shli(op: arith.ShLIOp) -> Folded:
    return _shift_fold(op, lambda a, b, w: a << b)


def fold_shrui(op: arith.ShRUIOp) -> Folded:
    return _shift_fold(op, lambda a, b, w: a >> b)


def fold_shrsi(op: arith.ShRSIOp) -> Folded:
    return _shift_fold(op, lambda a, b, w: _s(a, w) >> b)


def _minmax_fold(
    op: Operation,
    absorbing: Callable[[int, int], bool],
    neutral: Callable[[int, int], bool],
    fn: IntFn,
) -> Folded:
    lhs, rhs = op.operands
    if lhs == rhs:
        return [rhs]
    found = int_or_splat_bits(const_attr(rhs))
    if found is not None:
        bits, width = found
        if absorbing(bits, width):
            return [rhs]
        if neutral(bits, width):
            return [lhs]
    return _fold_int_binary(op, fn)


def _smax_value(b: int, w: int) -> bool:
    return b == (1 << (w - 1)) - 1


def _smin_value(b: int, w: int) -> bool:
    return b == 1 << (w - 1)


def fold_maxsi(op: arith.MaxSIOp) -> Folded:
    return _minmax_fold(op, _smax_value, _smin_value, lambda a, b, w: max(_s(a, w), _s(b, w)))


def fold_minsi(op: arith.MinSIOp) -> Folded:
    return _minmax_fold(op, _smin_value, _smax_value, lambda a, b, w: min(_s(a, w), _s(b, w)))


def fold_maxui(op: arith.MaxUIOp) -> Folded:
    return _minmax_fold(
        op, lambda b, w: b == (1 << w) - 1, lambda b, w: b == 0, lambda a, b, w: max(a, b)
    )


def fold_minui(op: arith.MinUIOp) -> Folded:
    return _minmax_fold(
        op, lambda b, w: b == 0, lambda b, w: b == (1 << w) - 1, lambda a, b, w: min(a, b)
    )


def fold_addui_extended(op: arith.AddUIExtendedOp) -> Folded:
    overflow_type = op.results[1].type
    if value_is_zero(op.rhs):
        false = zero_attr(overflow_type)
        return None if false is None else [op.lhs, false]
    lhs, rhs = const_attr(op.lhs), const_attr(op.rhs)
    a, b = int_bits(lhs), int_bits(rhs)
    if a is None or b is None or lhs.type != rhs.type:  # type: ignore[union-attr]
        return None
    width = int_width(lhs.type)  # type: ignore[union-attr]
    total = (a + b) & ((1 << width) - 1)  # type: ignore[operator]
    return [int_attr(total, lhs.type), int_attr(1 if total < a else 0, overflow_type)]  # type: ignore[union-attr]


def _fold_mul_extended(op: arith.MulSIExtendedOp | arith.MulUIExtendedOp, signed: bool) -> Folded:
    if value_is_zero(op.rhs):
        zero = const_attr(op.rhs)
        return [zero, zero]  # type: ignore[list-item]
    if not signed and value_is_one(op.rhs):
        zero = zero_attr(op.lhs.type)
        if zero is not None:
            return [op.lhs, zero]
    lhs, rhs = const_attr(op.lhs), const_attr(op.rhs)
    a, b = int_bits(lhs), int_bits(rhs)
    if a is None or b is None or lhs.type != rhs.type:  # type: ignore[union-attr]
        return None
    width = int_width(lhs.type)  # type: ignore[union-attr]
    assert width is not None
    product = _s(a, width) * _s(b, width) if signed else a * b
    return [int_attr(product, lhs.type), int_attr(product >> width, lhs.type)]  # type: ignore[union-attr]


def fold_mulsi_extended(op: arith.MulSIExtendedOp) -> Folded:
    return _fold_mul_extended(op, signed=True)


def fold_mului_extended(op: arith.MulUIExtendedOp) -> Folded:
    return _fold_mul_extended(op, signed=False)


# cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge
_CMPI_EQUAL_OPERANDS = (True, False, False, True, False, True, False, True, False, True)
_CMPI_SWAPPED = (0, 1, 4, 5, 2, 3, 8, 9, 6, 7)
_CMPI_INVERTED = (1, 0, 5, 4, 3, 2, 9, 8, 7, 6)


def cmpi_holds(predicate: int, a: int, b: int, width: int) -> bool:
    """`a pred b` on `width`-bit unsigned bits."""
    if predicate in (2, 3, 4, 5):
        a, b = _s(a, width), _s(b, width)
    match predicate:
        case 0:
            return a == b
        case 1:
            return a != b
        case 2 | 6:
            return a < b
        case 3 | 7:
            return a <= b
        case 4 | 8:
            return a > b
        case _:
            return a >= b


def _bool_attr(value: bool, type_: Attribute) -> Attribute | None:
    """MLIR's `getBoolAttribute`: i1, or a splat of a static i1 shape."""
    if isinstance(type_, IntegerType) and type_.width.data == 1:
        return IntegerAttr(1 if value else 0, type_)
    if static_shaped(type_) and element_type(type_) == IntegerType(1):
        return DenseIntOrFPElementsAttr.from_list(type_, [1 if value else 0])  # type: ignore[arg-type]
    return None


def _cmpi_swaps_in_place(op: arith.CmpiOp) -> bool:
    return const_attr(op.lhs) is not None and const_attr(op.rhs) is None


def fold_cmpi(op: arith.CmpiOp) -> Folded:
    predicate = op.predicate.value.data
    if op.lhs == op.rhs:
        result = _bool_attr(_CMPI_EQUAL_OPERANDS[predicate], op.result.type)
        return None if result is None else [result]
    rhs = const_attr(op.rhs)
    if is_zero(rhs):
        ext = defining_op(op.lhs)
        if isinstance(ext, arith.ExtSIOp | arith.ExtUIOp):
            source = element_type(ext.input.type)
            if isinstance(source, IntegerType) and source.width.data == 1 and predicate == 1:
                return [ext.input]
        lhs_type = element_type(op.lhs.type)
        if isinstance(lhs_type, IntegerType) and lhs_type.width.data == 1 and predicate == 1:
            return [op.lhs]
    if is_one(rhs):
        lhs_type = element_type(op.lhs.type)
        if isinstance(lhs_type, IntegerType) and lhs_type.width.data == 1 and predicate == 0:
            return [op.lhs]
    if _cmpi_swaps_in_place(op):
        return None  # CmpiSwapConstantLeft modifies the op in place
    return _fold_int_binary(op, lambda a, b, w: int(cmpi_holds(predicate, a, b, w)))


def cmpf_holds(predicate: int, a: float, b: float) -> bool:
    unordered = math.isnan(a) or math.isnan(b)
    match predicate:
        case 0:
            return False
        case 15:
            return True
        case 7:
            return not unordered
        case 14:
            return unordered
    if unordered:
        return predicate >= 8
    ordered = {
        1: a == b,
        2: a > b,
        3: a >= b,
        4: a < b,
        5: a <= b,
        6: a != b,
        8: a == b,
        9: a > b,
        10: a >= b,
        11: a < b,
        12: a <= b,
        13: a != b,
    }
    return ordered[predicate]


def fold_cmpf(op: arith.CmpfOp) -> Folded:
    lhs = float_value(const_attr(op.lhs))
    rhs = float_value(const_attr(op.rhs))
    if lhs is not None and math.isnan(lhs):
        rhs = lhs
    if rhs is not None and math.isnan(rhs):
        lhs = rhs
    if lhs is None or rhs is None:
        return None
    result = _bool_attr(cmpf_holds(op.predicate.value.data, lhs, rhs), op.result.type)
    return None if result is None else [result]


def fold_select(op: arith.SelectOp) -> Folded:
    if op.lhs == op.rhs:
        return [op.lhs]
    cond = const_attr(op.cond)
    if is_one(cond):
        return [op.lhs]
    if is_zero(cond):
        return [op.rhs]
    result_type = op.result.type
    if (
        isinstance(result_type, IntegerType)
        and result_type.width.data == 1
        and is_one(const_attr(op.lhs))
        and is_zero(const_attr(op.rhs))
    ):
        return [op.cond]
    cmp = defining_op(op.cond)
    if isinstance(cmp, arith.CmpiOp) and cmp.predicate.value.data in (0, 1):
        if (cmp.lhs == op.lhs and cmp.rhs == op.rhs) or (cmp.rhs == op.lhs and cmp.lhs == op.rhs):
            return [op.lhs if cmp.predicate.value.data == 1 else op.rhs]
    return None


def fold_addf(op: arith.AddfOp) -> Folded:
    rhs = float_or_splat(const_attr(op.rhs))
    if rhs is not None and rhs == 0 and _is_neg(rhs):
        return [op.lhs]
    return _fold_float_binary(op, _fadd)


def fold_subf(op: arith.SubfOp) -> Folded:
    rhs = float_or_splat(const_attr(op.rhs))
    if rhs is not None and rhs == 0 and not _is_neg(rhs):
        return [op.lhs]
    return _fold_float_binary(op, _fsub)


def _fastmath(op: Operation) -> set[str]:
    flags = op.properties.get("fastmath")
    if flags is None:
        return set()
    return {str(f) for f in flags.data}  # type: ignore[attr-defined]


def fold_mulf(op: arith.MulfOp) -> Folded:
    rhs = float_or_splat(const_attr(op.rhs))
    if rhs is not None and rhs == 1.0:
        return [op.lhs]
    flags = _fastmath(op)
    if ("nnan" in flags and "nsz" in flags) or "fast" in flags:
        if rhs is not None and rhs == 0:
            return [op.rhs]
    return _fold_float_binary(op, _fmul)


def fold_divf(op: arith.DivfOp) -> Folded:
    rhs = float_or_splat(const_attr(op.rhs))
    if rhs is not None and rhs == 1.0:
        return [op.lhs]
    return _fold_float_binary(op, _fdiv)


def fold_negf(op: arith.NegfOp) -> Folded:
    inner = defining_op(op.operand)
    if isinstance(inner, arith.NegfOp):
        return [inner.operand]
    value = float_value(const_attr(op.operand))
    if value is None:
        return None
    return [FloatAttr(-value, op.result.type)]  # type: ignore[arg-type]


def _float_minmax_fold(
    op: Operation, identity: Callable[[float], bool], fn: Callable[[float, float], float]
) -> Folded:
    lhs, rhs = op.operands
    if lhs == rhs:
        return [rhs]
    value = float_or_splat(const_attr(rhs))
    if value is not None and identity(value):
        return [lhs]
    return _fold_float_binary(op, fn)


def fold_maximumf(op: arith.MaximumfOp) -> Folded:
    return _float_minmax_fold(op, lambda v: v == -math.inf, _fmaximum)


def fold_minimumf(op: arith.MinimumfOp) -> Folded:
    return _float_minmax_fold(op, lambda v: v == math.inf, _fminimum)


def fold_maxnumf(op: arith.MaxnumfOp) -> Folded:
    return _float_minmax_fold(op, math.isnan, _fmaxnum)


def fold_minnumf(op: arith.MinnumfOp) -> Folded:
    return _float_minmax_fold(op, math.isnan, _fminnum)


# --- casts -----------------------------------------------------------------


def _cast_identity(op: Operation) -> Folded:
    """CastOpInterface's trait fold: a cast to its own type is its operand."""
    if op.operands[0].type == op.results[0].type:
        return [op.operands[0]]
    return None


def _cast_input_bits(op: Operation) -> tuple[int, int] | None:
    attr = const_attr(op.operands[0])
    bits = int_bits(attr)
    if bits is None:
        return None
    return bits, int_width(attr.type)  # type: ignore[union-attr, return-value]


def fold_extui(op: arith.ExtUIOp) -> Folded:
    if isinstance(defining_op(op.input), arith.ExtUIOp):
        return None  # ExtUIOfExtUI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(found[0], op.result.type)]


def fold_extsi(op: arith.ExtSIOp) -> Folded:
    if isinstance(defining_op(op.input), arith.ExtSIOp):
        return None  # ExtSIOfExtSI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(_s(*found), op.result.type)]


def _trunci_in_place(op: arith.TruncIOp) -> bool:
    inner = defining_op(op.input)
    if isinstance(inner, arith.ExtUIOp | arith.ExtSIOp):
        source = int_width(element_type(inner.input.type))
        target = int_width(element_type(op.result.type))
        return source is not None and target is not None and source > target
    return isinstance(inner, arith.TruncIOp)


def fold_trunci(op: arith.TruncIOp) -> Folded:
    inner = defining_op(op.input)
    if isinstance(inner, arith.ExtUIOp | arith.ExtSIOp):
        if _trunci_in_place(op):
            return None  # TruncIOfExt modifies the op in place
        if element_type(inner.input.type) == element_type(op.result.type):
            return [inner.input]
    if isinstance(inner, arith.TruncIOp):
        return None  # TruncIOfTruncI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(found[0], op.result.type)]


def fold_index_cast(op: arith.IndexCastOp) -> Folded:
    found = _cast_input_bits(op)
    if found is not None and int_width(op.result.type) is not None:
        return [int_attr(_s(*found), op.result.type)]
    return None


def fold_bitcast(op: arith.BitcastOp) -> Folded:
    attr = const_attr(op.input)
    result_type = op.result.type
    bits: int | None = None
    if isinstance(attr, IntegerAttr):
        bits = int_bits(attr)
    elif isinstance(attr, FloatAttr) and isinstance(attr.type, _FOLDABLE_FLOATS):
        bits = _float_bits(attr.value.data, attr.type)
    if bits is not None:
        if int_width(result_type) is not None:
            return [int_attr(bits, result_type)]
        if isinstance(result_type, _FOLDABLE_FLOATS):
            value = _bits_float(bits, result_type)
            if value is None:
                return None
            result = FloatAttr(value, result_type)
            # A signaling NaN does not survive Python floats (it is quieted):
            # fold only what round-trips to the same bits.
            if _float_bits(result.value.data, result_type) == bits:
                return [result]
        return None
    if attr is not None:
        return None
    return _cast_identity(op)


def fold_extf(op: arith.ExtFOp) -> Folded:
    value = float_value(const_attr(op.input))
    if value is None or not isinstance(op.result.type, _FOLDABLE_FLOATS):
        return None
    if not _exactly(value, op.result.type):
        return None
    return [FloatAttr(value, op.result.type)]


def _truncf_in_place(op: arith.TruncFOp) -> bool:
    ext = defining_op(op.input)
    if not isinstance(ext, arith.ExtFOp):
        return False
    source, result = element_type(ext.input.type), element_type(op.result.type)
    return source.bitwidth > result.bitwidth  # type: ignore[attr-defined]


def fold_truncf(op: arith.TruncFOp) -> Folded:
    ext = defining_op(op.input)
    if isinstance(ext, arith.ExtFOp):
        if _truncf_in_place(op):
            return None  # TruncFOfExtF modifies the op in place
        if element_type(ext.input.type) == element_type(op.result.type):
            return [ext.input]
    value = float_value(const_attr(op.input))
    if value is None or not isinstance(op.result.type, _FOLDABLE_FLOATS):
        return None
    if not _exactly(value, op.result.type):
        return None
    return [FloatAttr(value, op.result.type)]


def _fold_int_to_float(op: Operation, signed: bool) -> Folded:
    found = _cast_input_bits(op)
    if found is None or not isinstance(op.results[0].type, _FOLDABLE_FLOATS):
        return None
    value = _s(*found) if signed else found[0]
    return [FloatAttr(int_to_float(value, op.results[0].type), op.results[0].type)]


def fold_sitofp(op: arith.SIToFPOp) -> Folded:
    return _fold_int_to_float(op, signed=True)


def fold_uitofp(op: arith.UIToFPOp) -> Folded:
    return _fold_int_to_float(op, signed=False)


def _fold_float_to_int(op: Operation, signed: bool) -> Folded:
    value = float_value(const_attr(op.operands[0]))
    width = int_width(op.results[0].type)
    if value is None or width is None:
        return None
    bits = float_to_int(value, width, signed)
    return None if bits is None else [int_attr(bits, op.results[0].type)]


def fold_fptosi(op: arith.FPToSIOp) -> Folded:
    return _fold_float_to_int(op, signed=True)


def fold_fptoui(op: arith.FPToUIOp) -> Folded:
    return _fold_float_to_int(op, signed=False)


# ---------------------------------------------------------------------------
# Patterns: MLIR's in-place folds
# ---------------------------------------------------------------------------


class MoveConstantOperandRight(RewritePattern):
    """`OpTrait::IsCommutative`'s fold: a constant left operand and a
    non-constant right one are swapped (in place)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        lhs, rhs = op.operands[0], op.operands[1]
        if const_attr(lhs) is None or const_attr(rhs) is not None:
            return
        op.operands[0] = rhs
        op.operands[1] = lhs
        rewriter.notify_op_modified(op)


class CmpiSwapConstantLeft(RewritePattern):
    """cmpi(pred, c, x) -> cmpi(swapped pred, x, c), in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter, /) -> None:
        if not _cmpi_swaps_in_place(op):
            return
        predicate = op.predicate.value.data
        op.predicate = IntegerAttr(_CMPI_SWAPPED[predicate], op.predicate.type)
        lhs, rhs = op.lhs, op.rhs
        op.operands[0] = rhs
        op.operands[1] = lhs
        rewriter.notify_op_modified(op)


class ExtOfSameExt(RewritePattern):
    """extui(extui(x)) -> extui(x), extsi(extsi(x)) -> extsi(x), in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.ExtUIOp | arith.ExtSIOp, rewriter: PatternRewriter, /
    ) -> None:
        inner = defining_op(op.input)
        if type(inner) is not type(op):
            return
        op.operands[0] = inner.operands[0]  # type: ignore[union-attr]
        rewriter.notify_op_modified(op)


class TruncIOfExtOrTrunc(RewritePattern):
    """trunci(ext(a)) -> trunci(a) when a is wider than the result, and
    trunci(trunci(a)) -> trunci(a), in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.TruncIOp, rewriter: PatternRewriter, /) -> None:
        if not _trunci_in_place(op):
            return
        op.operands[0] = defining_op(op.input).operands[0]  # type: ignore[union-attr]
        rewriter.notify_op_modified(op)


class TruncFOfExtF(RewritePattern):
    """truncf(extf(a)) -> truncf(a) when a is wider than the result, in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.TruncFOp, rewriter: PatternRewriter, /) -> None:
        if not _truncf_in_place(op):
            return
        op.operands[0] = defining_op(op.input).operands[0]  # type: ignore[union-attr]
        rewriter.notify_op_modified(op)


# ---------------------------------------------------------------------------
# Patterns: ArithCanonicalization.td and ArithOps.cpp
# ---------------------------------------------------------------------------


def _overflow(op: Operation) -> set[str]:
    flags = op.properties.get("overflowFlags")
    if flags is None:
        return set()
    return {str(f) for f in flags.data}  # type: ignore[attr-defined]


def _merge_overflow(a: Operation, b: Operation) -> arith.IntegerOverflowAttr:
    common = _overflow(a) & _overflow(b)
    flags = [f for f in arith.IntegerOverflowFlag if str(f) in common]
    return arith.IntegerOverflowAttr(flags if flags else "none")


_NO_OVERFLOW = arith.IntegerOverflowAttr("none")


def _def_with_const_rhs(value: SSAValue, op_type: type[Operation]) -> tuple[Operation, int] | None:
    """`value` defined by `op_type(x, c)` with c a scalar integer constant."""
    inner = defining_op(value)
    if not isinstance(inner, op_type):
        return None
    bits = int_bits(const_attr(inner.operands[1]))
    return None if bits is None else (inner, bits)


def _def_with_const_lhs(value: SSAValue, op_type: type[Operation]) -> tuple[Operation, int] | None:
    """`value` defined by `op_type(c, x)` with c a scalar integer constant."""
    inner = defining_op(value)
    if not isinstance(inner, op_type):
        return None
    bits = int_bits(const_attr(inner.operands[0]))
    return None if bits is None else (inner, bits)


def _replace_with_const_and(
    rewriter: PatternRewriter,
    op: Operation,
    bits: int,
    build: Callable[[SSAValue], Operation],
) -> None:
    const = arith.ConstantOp(int_attr(bits, op.results[0].type))
    rewriter.replace(op, [const, build(const.result)])


class AddIAddConstant(RewritePattern):
    """addi(addi(x, c0), c1) -> addi(x, c0 + c1)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_rhs(op.lhs, arith.AddiOp)
        if c1 is None or inner is None:
            return
        add, c0 = inner
        flags = _merge_overflow(add, op)
        _replace_with_const_and(
            rewriter, op, c0 + c1, lambda c: arith.AddiOp(add.operands[0], c, overflow=flags)
        )


class AddISubConstantRHS(RewritePattern):
    """addi(subi(x, c0), c1) -> addi(x, c1 - c0)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_rhs(op.lhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c1 - c0, lambda c: arith.AddiOp(sub.operands[0], c, overflow=flags)
        )


class AddISubConstantLHS(RewritePattern):
    """addi(subi(c0, x), c1) -> subi(c0 + c1, x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_lhs(op.lhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c0 + c1, lambda c: arith.SubiOp(c, sub.operands[1], overflow=flags)
        )


def _mul_by_minus_one(value: SSAValue) -> SSAValue | None:
    """If `value` is `muli(y, c)` with c -1 (or a splat of it), y."""
    mul = defining_op(value)
    if isinstance(mul, arith.MuliOp) and is_all_ones(const_attr(mul.rhs)):
        return mul.lhs
    return None


class AddIMulNegativeOneRhs(RewritePattern):
    """addi(x, muli(y, -1)) -> subi(x, y)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter, /) -> None:
        y = _mul_by_minus_one(op.rhs)
        if y is not None:
            rewriter.replace(op, arith.SubiOp(op.lhs, y, overflow=_NO_OVERFLOW))


class AddIMulNegativeOneLhs(RewritePattern):
    """addi(muli(x, -1), y) -> subi(y, x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddiOp, rewriter: PatternRewriter, /) -> None:
        x = _mul_by_minus_one(op.lhs)
        if x is not None:
            rewriter.replace(op, arith.SubiOp(op.rhs, x, overflow=_NO_OVERFLOW))


class MulIMulIConstant(RewritePattern):
    """muli(muli(x, c0), c1) -> muli(x, c0 * c1)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.MuliOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_rhs(op.lhs, arith.MuliOp)
        if c1 is None or inner is None:
            return
        mul, c0 = inner
        flags = _merge_overflow(mul, op)
        _replace_with_const_and(
            rewriter, op, c0 * c1, lambda c: arith.MuliOp(mul.operands[0], c, overflow=flags)
        )


class SubIRHSAddConstant(RewritePattern):
    """subi(addi(x, c0), c1) -> addi(x, c0 - c1)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_rhs(op.lhs, arith.AddiOp)
        if c1 is None or inner is None:
            return
        add, c0 = inner
        _replace_with_const_and(
            rewriter, op, c0 - c1, lambda c: arith.AddiOp(add.operands[0], c, overflow=_NO_OVERFLOW)
        )


class SubILHSAddConstant(RewritePattern):
    """subi(c1, addi(x, c0)) -> subi(c1 - c0, x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.lhs))
        inner = _def_with_const_rhs(op.rhs, arith.AddiOp)
        if c1 is None or inner is None:
            return
        add, c0 = inner
        flags = _merge_overflow(add, op)
        _replace_with_const_and(
            rewriter, op, c1 - c0, lambda c: arith.SubiOp(c, add.operands[0], overflow=flags)
        )


class SubIRHSSubConstantRHS(RewritePattern):
    """subi(subi(x, c0), c1) -> subi(x, c0 + c1)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_rhs(op.lhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c0 + c1, lambda c: arith.SubiOp(sub.operands[0], c, overflow=flags)
        )


class SubIRHSSubConstantLHS(RewritePattern):
    """subi(subi(c0, x), c1) -> subi(c0 - c1, x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.rhs))
        inner = _def_with_const_lhs(op.lhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c0 - c1, lambda c: arith.SubiOp(c, sub.operands[1], overflow=flags)
        )


class SubILHSSubConstantRHS(RewritePattern):
    """subi(c1, subi(x, c0)) -> subi(c0 + c1, x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.lhs))
        inner = _def_with_const_rhs(op.rhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c0 + c1, lambda c: arith.SubiOp(c, sub.operands[0], overflow=flags)
        )


class SubILHSSubConstantLHS(RewritePattern):
    """subi(c1, subi(c0, x)) -> addi(x, c1 - c0)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        c1 = int_bits(const_attr(op.lhs))
        inner = _def_with_const_lhs(op.rhs, arith.SubiOp)
        if c1 is None or inner is None:
            return
        sub, c0 = inner
        flags = _merge_overflow(sub, op)
        _replace_with_const_and(
            rewriter, op, c1 - c0, lambda c: arith.AddiOp(sub.operands[1], c, overflow=flags)
        )


class SubISubILHSRHSLHS(RewritePattern):
    """subi(subi(a, b), a) -> subi(0, b)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SubiOp, rewriter: PatternRewriter, /) -> None:
        sub = defining_op(op.lhs)
        if not isinstance(sub, arith.SubiOp) or sub.lhs != op.rhs:
            return
        zero = zero_attr(sub.rhs.type)
        if zero is None:
            return
        const = arith.ConstantOp(zero)  # type: ignore[arg-type]
        flags = _merge_overflow(sub, op)
        rewriter.replace(op, [const, arith.SubiOp(const.result, sub.rhs, overflow=flags)])


class AddUIExtendedToAddI(RewritePattern):
    """addui_extended(x, y) -> [addi(x, y), x] when the overflow is unused."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AddUIExtendedOp, rewriter: PatternRewriter, /) -> None:
        if op.results[1].uses:
            return
        add = arith.AddiOp(op.lhs, op.rhs, overflow=_NO_OVERFLOW)
        rewriter.replace(op, [add], [add.result, op.lhs])


class MulExtendedToMulI(RewritePattern):
    """mul{s,u}i_extended(x, y) -> [muli(x, y), x] when the high half is unused."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: arith.MulSIExtendedOp | arith.MulUIExtendedOp, rewriter: PatternRewriter, /
    ) -> None:
        if op.results[1].uses:
            return
        mul = arith.MuliOp(op.lhs, op.rhs, overflow=_NO_OVERFLOW)
        rewriter.replace(op, [mul], [mul.result, op.lhs])


class MulSIExtendedRHSOne(RewritePattern):
    """mulsi_extended(x, 1) -> [x, extsi(cmpi slt, x, 0)]"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.MulSIExtendedOp, rewriter: PatternRewriter, /) -> None:
        found = int_or_splat_bits(const_attr(op.rhs))
        if found is None or found[0] != 1 or found[1] == 1:
            return
        zero = zero_attr(op.lhs.type)
        if zero is None:
            return
        const = arith.ConstantOp(zero)  # type: ignore[arg-type]
        cmp = xgpu_arith.CmpiOp(op.lhs, const.result, "slt")
        ext = xgpu_arith.ExtSIOp(cmp.result, op.lhs.type)  # type: ignore[arg-type]
        rewriter.replace(op, [const, cmp, ext], [op.lhs, ext.result])


def _is_i1_constant(value: SSAValue, bit: int) -> bool:
    attr = const_attr(value)
    return (
        isinstance(attr, IntegerAttr) and attr.type == IntegerType(1) and attr.value.data & 1 == bit
    )


class XOrINotCmpI(RewritePattern):
    """xori(cmpi(pred, a, b), true) -> cmpi(inverted pred, a, b)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.XOrIOp, rewriter: PatternRewriter, /) -> None:
        cmp = defining_op(op.lhs)
        if not isinstance(cmp, arith.CmpiOp) or not _is_i1_constant(op.rhs, 1):
            return
        predicate = _CMPI_INVERTED[cmp.predicate.value.data]
        rewriter.replace(op, xgpu_arith.CmpiOp(cmp.lhs, cmp.rhs, predicate))


def _both_ext(op: Operation, ext_type: type[Operation]) -> tuple[SSAValue, SSAValue] | None:
    lhs, rhs = defining_op(op.operands[0]), defining_op(op.operands[1])
    if not isinstance(lhs, ext_type) or not isinstance(rhs, ext_type):
        return None
    x, y = lhs.operands[0], rhs.operands[0]
    if x.type != y.type:
        return None
    return x, y


def _bitwise_of_ext(
    op_type: type[Operation], ext_type: type[Operation], doc: str
) -> type[RewritePattern]:
    class BitwiseOfExt(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
            if not isinstance(op, op_type):
                return
            found = _both_ext(op, ext_type)
            if found is None:
                return
            inner = op_type(*found)
            rewriter.replace(op, [inner, ext_type(inner.results[0], op.results[0].type)])

    BitwiseOfExt.__doc__ = doc
    return BitwiseOfExt


XOrIOfExtUI = _bitwise_of_ext(
    arith.XOrIOp, arith.ExtUIOp, "xori(extui(x), extui(y)) -> extui(xori(x, y))"
)
XOrIOfExtSI = _bitwise_of_ext(
    arith.XOrIOp, arith.ExtSIOp, "xori(extsi(x), extsi(y)) -> extsi(xori(x, y))"
)
AndOfExtUI = _bitwise_of_ext(
    arith.AndIOp, arith.ExtUIOp, "andi(extui(x), extui(y)) -> extui(andi(x, y))"
)
AndOfExtSI = _bitwise_of_ext(
    arith.AndIOp, arith.ExtSIOp, "andi(extsi(x), extsi(y)) -> extsi(andi(x, y))"
)
OrOfExtUI = _bitwise_of_ext(
    arith.OrIOp, arith.ExtUIOp, "ori(extui(x), extui(y)) -> extui(ori(x, y))"
)
OrOfExtSI = _bitwise_of_ext(
    arith.OrIOp, arith.ExtSIOp, "ori(extsi(x), extsi(y)) -> extsi(ori(x, y))"
)


def _cmpi_of_ext(ext_type: type[Operation], doc: str) -> type[RewritePattern]:
    class CmpIOfExt(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter, /) -> None:
            if op.predicate.value.data not in (0, 1):
                return
            found = _both_ext(op, ext_type)
            if found is not None:
                rewriter.replace(op, arith.CmpiOp(*found, op.predicate.value.data))

    CmpIOfExt.__doc__ = doc
    return CmpIOfExt


CmpIExtSI = _cmpi_of_ext(arith.ExtSIOp, "cmpi(eq|ne, extsi(a), extsi(b)) -> cmpi(eq|ne, a, b)")
CmpIExtUI = _cmpi_of_ext(arith.ExtUIOp, "cmpi(eq|ne, extui(a), extui(b)) -> cmpi(eq|ne, a, b)")


class SelectNotCond(RewritePattern):
    """select(xori(pred, -1), a, b) -> select(pred, b, a)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        xor = defining_op(op.cond)
        if not isinstance(xor, arith.XOrIOp):
            return
        ones = const_attr(xor.rhs)
        if not isinstance(ones, IntegerAttr) or not is_all_ones(ones):
            return
        rewriter.replace(op, arith.SelectOp(xor.lhs, op.rhs, op.lhs))


class RedundantSelectTrue(RewritePattern):
    """select(pred, select(pred, a, b), c) -> select(pred, a, c)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.lhs)
        if isinstance(inner, arith.SelectOp) and inner.cond == op.cond:
            rewriter.replace(op, arith.SelectOp(op.cond, inner.lhs, op.rhs))


class RedundantSelectFalse(RewritePattern):
    """select(pred, a, select(pred, b, c)) -> select(pred, a, c)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.rhs)
        if isinstance(inner, arith.SelectOp) and inner.cond == op.cond:
            rewriter.replace(op, arith.SelectOp(op.cond, op.lhs, inner.rhs))


class SelectI1ToNot(RewritePattern):
    """select(pred, false, true) -> xori(pred, true)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        if not (_is_i1_constant(op.lhs, 0) and _is_i1_constant(op.rhs, 1)):
            return
        true = arith.ConstantOp(IntegerAttr(1, IntegerType(1)))
        rewriter.replace(op, [true, arith.XOrIOp(op.cond, true.result)])


class SelectToExtUI(RewritePattern):
    """select(c, 1, 0) -> extui(c); select(c, 0, 1) -> extui(xori(c, true))"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter, /) -> None:
        result_type = op.result.type
        if not isinstance(result_type, IntegerType) or result_type.width.data == 1:
            return
        lhs, rhs = const_attr(op.lhs), const_attr(op.rhs)
        if is_one(lhs) and is_zero(rhs):
            rewriter.replace(op, arith.ExtUIOp(op.cond, result_type))
        elif is_zero(lhs) and is_one(rhs):
            true = arith.ConstantOp(IntegerAttr(1, IntegerType(1)))
            xor = arith.XOrIOp(op.cond, true.result)
            rewriter.replace(op, [true, xor, arith.ExtUIOp(xor.result, result_type)])


class IndexCastOfIndexCast(RewritePattern):
    """index_cast(index_cast(x)) -> x when x has the result's type. MLIR 22
    does so even when the inner cast truncates (index -> i32 -> index), a
    lossy round trip that later MLIR versions no longer fold; xgpu follows
    MLIR 22."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.input)
        if isinstance(inner, arith.IndexCastOp) and inner.input.type == op.result.type:
            rewriter.replace(op, [], [inner.input])


class IndexCastOfExtSI(RewritePattern):
    """index_cast(extsi(x)) -> index_cast(x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter, /) -> None:
        ext = defining_op(op.input)
        if isinstance(ext, arith.ExtSIOp):
            rewriter.replace(op, arith.IndexCastOp(ext.input, op.result.type))


class BitcastOfBitcast(RewritePattern):
    """bitcast(bitcast(x)) -> bitcast(x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.BitcastOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.input)
        if isinstance(inner, arith.BitcastOp):
            rewriter.replace(op, arith.BitcastOp(inner.input, op.result.type))


class ExtSIOfExtUI(RewritePattern):
    """extsi(extui(x)) -> extui(x)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ExtSIOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.input)
        if isinstance(inner, arith.ExtUIOp):
            rewriter.replace(op, arith.ExtUIOp(inner.input, op.result.type))


def _trunci_of_ext(ext_type: type[Operation], doc: str) -> type[RewritePattern]:
    class TruncIOfExt(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.TruncIOp, rewriter: PatternRewriter, /) -> None:
            ext = defining_op(op.input)
            if not isinstance(ext, ext_type):
                return
            x = ext.operands[0]
            ext_width = int_width(element_type(ext.results[0].type))
            tr_width = int_width(element_type(op.result.type))
            x_width = int_width(element_type(x.type))
            if ext_width is None or tr_width is None or x_width is None:
                return
            if ext_width > tr_width > x_width > 0:
                rewriter.replace(op, ext_type(x, op.result.type))

    TruncIOfExt.__doc__ = doc
    return TruncIOfExt


TruncIExtSIToExtSI = _trunci_of_ext(
    arith.ExtSIOp, "trunci(extsi(x)) -> extsi(x) when only sign bits go"
)
TruncIExtUIToExtUI = _trunci_of_ext(
    arith.ExtUIOp, "trunci(extui(x)) -> extui(x) when only zero bits go"
)


class TruncIShrSIToTrunciShrUI(RewritePattern):
    """trunci(shrsi(x, c)) -> trunci(shrui(x, c)) when c is exactly the
    number of truncated bits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.TruncIOp, rewriter: PatternRewriter, /) -> None:
        shr = defining_op(op.input)
        if not isinstance(shr, arith.ShRSIOp):
            return
        c0 = const_attr(shr.rhs)
        found = int_or_splat_bits(c0)
        x_width = int_width(element_type(shr.lhs.type))
        tr_width = int_width(element_type(op.result.type))
        if found is None or x_width is None or tr_width is None:
            return
        if x_width - tr_width != found[0]:
            return
        const = arith.ConstantOp(c0)  # type: ignore[arg-type]
        shrui = arith.ShRUIOp(shr.lhs, const.result)
        rewriter.replace(op, [const, shrui, arith.TruncIOp(shrui.result, op.result.type)])  # type: ignore[arg-type]


def _truncf_of_int_to_fp(cast_type: type[Operation], doc: str) -> type[RewritePattern]:
    class TruncFOfIntToFP(RewritePattern):
        @op_type_rewrite_pattern
        def match_and_rewrite(self, op: arith.TruncFOp, rewriter: PatternRewriter, /) -> None:
            cast = defining_op(op.input)
            if isinstance(cast, cast_type):
                rewriter.replace(op, cast_type(cast.operands[0], op.result.type))

    TruncFOfIntToFP.__doc__ = doc
    return TruncFOfIntToFP


TruncFSIToFPToSIToFP = _truncf_of_int_to_fp(arith.SIToFPOp, "truncf(sitofp(x)) -> sitofp(x)")
TruncFUIToFPToUIToFP = _truncf_of_int_to_fp(arith.UIToFPOp, "truncf(uitofp(x)) -> uitofp(x)")


def _binary_of_negf(op_type: type[Operation], doc: str) -> type[RewritePattern]:
    class FOfNegF(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
            if not isinstance(op, op_type):
                return
            lhs, rhs = defining_op(op.operands[0]), defining_op(op.operands[1])
            if not isinstance(lhs, arith.NegfOp) or not isinstance(rhs, arith.NegfOp):
                return
            if lhs.operand.type != rhs.operand.type:
                return
            rewriter.replace(op, op_type(lhs.operand, rhs.operand, op.fastmath))  # type: ignore[attr-defined]

    FOfNegF.__doc__ = doc
    return FOfNegF


MulFOfNegF = _binary_of_negf(arith.MulfOp, "mulf(negf(x), negf(y)) -> mulf(x, y)")
DivFOfNegF = _binary_of_negf(arith.DivfOp, "divf(negf(x), negf(y)) -> divf(x, y)")


def _cmpf_to_cmpi(predicate: int, unsigned: bool) -> int:
    """CmpFIntToFPConst's mapping of an ordered/unordered float predicate."""
    base = {1: 0, 8: 0, 2: 4, 9: 4, 3: 5, 10: 5, 4: 2, 11: 2, 5: 3, 12: 3, 6: 1, 13: 1}[predicate]
    if unsigned and base >= 2:
        base += 4
    return base


class CmpFIntToFPConst(RewritePattern):
    """cmpf(pred, [su]itofp(x), c) -> cmpi or a constant, where the
    comparison can be done exactly on the integer (MLIR's CmpFIntToFPConst)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpfOp, rewriter: PatternRewriter, /) -> None:
        rhs = float_value(const_attr(op.rhs))
        float_type = op.rhs.type
        if rhs is None or math.isnan(rhs):
            return
        mantissa = _PRECISION[type(float_type)]  # type: ignore[index]
        cast = defining_op(op.lhs)
        if isinstance(cast, arith.SIToFPOp):
            unsigned = False
        elif isinstance(cast, arith.UIToFPOp):
            unsigned = True
        else:
            return
        int_value = cast.input
        int_type = int_value.type
        if not isinstance(int_type, IntegerType):
            return
        width = int_type.width.data
        value_bits = width if unsigned else width - 1
        if width > mantissa:
            if math.isinf(rhs):
                if _MAX_EXPONENT[type(float_type)] < value_bits:  # type: ignore[index]
                    return
            elif rhs != 0:
                exponent = math.frexp(rhs)[1] - 1
                if mantissa <= exponent <= value_bits:
                    return

        def constant(value: bool) -> None:
            rewriter.replace(op, arith.ConstantOp(IntegerAttr(1 if value else 0, IntegerType(1))))

        predicate = op.predicate.value.data
        if predicate == 7:  # ord
            return constant(True)
        if predicate == 14:  # uno
            return constant(False)
        if predicate in (0, 15):
            return  # MLIR asserts on these; leave them to the folder
        pred = _cmpf_to_cmpi(predicate, unsigned)
        if unsigned:
            high = int_to_float((1 << width) - 1, float_type)
            low = int_to_float(0, float_type)
        else:
            high = int_to_float((1 << (width - 1)) - 1, float_type)
            low = int_to_float(-(1 << (width - 1)), float_type)
        if high < rhs:
            return constant(pred in (1, 2, 3, 6, 7))
        if low > rhs:
            return constant(pred in (1, 4, 5, 8, 9))
        rhs_int = float_to_int(rhs, width, signed=not unsigned)
        if rhs_int is None:
            return
        if rhs != 0:
            back = int_to_float(rhs_int if unsigned else _s(rhs_int, width), float_type)
            if back != rhs:
                negative = rhs < 0
                match pred:
                    case 1:
                        return constant(True)
                    case 0:
                        return constant(False)
                    case 7:  # ule
                        if negative:
                            return constant(False)
                    case 3:  # sle
                        if negative:
                            pred = 2
                    case 6:  # ult
                        if negative:
                            return constant(False)
                        pred = 7
                    case 2:  # slt
                        if not negative:
                            pred = 3
                    case 8:  # ugt
                        if negative:
                            return constant(True)
                    case 4:  # sgt
                        if negative:
                            pred = 5
                    case 9:  # uge
                        if negative:
                            return constant(True)
                        pred = 8
                    case 5:  # sge
                        if not negative:
                            pred = 4
        const = arith.ConstantOp(int_attr(rhs_int, int_type))
        rewriter.replace(op, [const, arith.CmpiOp(int_value, const.result, pred)])


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def register(table: CanonicalizationTable) -> None:
    swap = MoveConstantOperandRight()
    rules: list[
        tuple[type[Operation], Callable[..., Folded] | None, tuple[RewritePattern, ...]]
    ] = [
        (arith.ConstantOp, None, ()),
        (
            arith.AddiOp,
            fold_addi,
            (
                swap,
                AddIAddConstant(),
                AddISubConstantRHS(),
                AddISubConstantLHS(),
                AddIMulNegativeOneRhs(),
                AddIMulNegativeOneLhs(),
            ),
        ),
        (
            arith.SubiOp,
            fold_subi,
            (
                SubIRHSAddConstant(),
                SubILHSAddConstant(),
                SubIRHSSubConstantRHS(),
                SubIRHSSubConstantLHS(),
                SubILHSSubConstantRHS(),
                SubILHSSubConstantLHS(),
                SubISubILHSRHSLHS(),
            ),
        ),
        (arith.MuliOp, fold_muli, (swap, MulIMulIConstant())),
        (arith.DivUIOp, fold_divui, ()),
        (arith.DivSIOp, fold_divsi, ()),
        (arith.CeilDivUIOp, fold_ceildivui, ()),
        (arith.CeilDivSIOp, fold_ceildivsi, ()),
        (arith.FloorDivSIOp, fold_floordivsi, ()),
        (arith.RemUIOp, fold_remui, ()),
        (arith.RemSIOp, fold_remsi, ()),
        (arith.AndIOp, fold_andi, (swap, AndOfExtUI(), AndOfExtSI())),
        (arith.OrIOp, fold_ori, (swap, OrOfExtUI(), OrOfExtSI())),
        (arith.XOrIOp, fold_xori, (swap, XOrIOfExtUI(), XOrIOfExtSI(), XOrINotCmpI())),
        (arith.ShLIOp, fold_shli, ()),
        (arith.ShRUIOp, fold_shrui, ()),
        (arith.ShRSIOp, fold_shrsi, ()),
        (arith.MaxSIOp, fold_maxsi, (swap,)),
        (arith.MaxUIOp, fold_maxui, (swap,)),
        (arith.MinSIOp, fold_minsi, (swap,)),
        (arith.MinUIOp, fold_minui, (swap,)),
        (arith.AddUIExtendedOp, fold_addui_extended, (swap, AddUIExtendedToAddI())),
        (
            arith.MulSIExtendedOp,
            fold_mulsi_extended,
            (swap, MulExtendedToMulI(), MulSIExtendedRHSOne()),
        ),
        (arith.MulUIExtendedOp, fold_mului_extended, (swap, MulExtendedToMulI())),
        (arith.CmpiOp, fold_cmpi, (CmpiSwapConstantLeft(), CmpIExtSI(), CmpIExtUI())),
        (arith.CmpfOp, fold_cmpf, (CmpFIntToFPConst(),)),
        (
            arith.SelectOp,
            fold_select,
            (
                RedundantSelectFalse(),
                RedundantSelectTrue(),
                SelectNotCond(),
                SelectI1ToNot(),
                SelectToExtUI(),
            ),
        ),
        (arith.AddfOp, fold_addf, (swap,)),
        (arith.SubfOp, fold_subf, ()),
        (arith.MulfOp, fold_mulf, (swap, MulFOfNegF())),
        (arith.DivfOp, fold_divf, (DivFOfNegF(),)),
        (arith.NegfOp, fold_negf, ()),
        (arith.MaximumfOp, fold_maximumf, (swap,)),
        (arith.MinimumfOp, fold_minimumf, (swap,)),
        (arith.MaxnumfOp, fold_maxnumf, (swap,)),
        (arith.MinnumfOp, fold_minnumf, (swap,)),
        (arith.ExtUIOp, fold_extui, (ExtOfSameExt(),)),
        (arith.ExtSIOp, fold_extsi, (ExtOfSameExt(), ExtSIOfExtUI())),
        (
            arith.TruncIOp,
            fold_trunci,
            (
                TruncIOfExtOrTrunc(),
                TruncIExtSIToExtSI(),
                TruncIExtUIToExtUI(),
                TruncIShrSIToTrunciShrUI(),
            ),
        ),
        (arith.ExtFOp, fold_extf, ()),
        (
            arith.TruncFOp,
            fold_truncf,
            (TruncFOfExtF(), TruncFSIToFPToSIToFP(), TruncFUIToFPToUIToFP()),
        ),
        (arith.IndexCastOp, fold_index_cast, (IndexCastOfIndexCast(), IndexCastOfExtSI())),
        (arith.BitcastOp, fold_bitcast, (BitcastOfBitcast(),)),
        (arith.SIToFPOp, fold_sitofp, ()),
        (arith.UIToFPOp, fold_uitofp, ()),
        (arith.FPToSIOp, fold_fptosi, ()),
        (arith.FPToUIOp, fold_fptoui, ()),
    ]
    # xgpu's arith classes (xgpu.dialects.arith) subclass xDSL's: same rules.
    rules += [
        (sub, folder, patterns)
        for sub in xgpu_arith.all_ops()
        for op_type, folder, patterns in list(rules)
        if sub is not op_type and issubclass(sub, op_type)
    ]
    for op_type, folder, patterns in rules:
        if folder is not None:
            table.set_folder(op_type, folder)
        table.set_patterns(op_type, *patterns)


__all__ = ["register"]
