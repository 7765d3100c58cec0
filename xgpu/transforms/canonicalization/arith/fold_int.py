"""MLIR 22's folders of the arith integer arithmetic ops.

The element-wise constant folding of binary ops (`_fold_int_binary`,
`_fold_float_binary`, shared with the other folder modules) and the folders of
addi, subi, muli, the divisions and remainders, andi, ori, xori, the shifts,
the integer min/max ops and the extended add/mul ops.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from xgpu.ir.splats import compact_splat, is_compact_splat
from xgpu.transforms.canonicalization.arith.floats import _FOLDABLE_FLOATS, float_value
from xgpu.transforms.canonicalization.arith.values import (
    Folded,
    const_attr,
    defining_op,
    element_type,
    int_attr,
    int_bits,
    int_or_splat_bits,
    int_width,
    is_all_ones,
    is_zero,
    static_shaped,
    to_signed,
    value_is_one,
    value_is_zero,
    zero_attr,
)

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
