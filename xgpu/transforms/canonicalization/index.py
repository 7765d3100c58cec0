"""MLIR 22's folders and canonicalization patterns of the index dialect.

`index` has no fixed width: a fold must give the same result whether index is
64 or 32 bits wide. The ops whose low 32 result bits depend only on the low 32
operand bits (add, sub, mul, and, or, xor, shl by less than 32) fold on 64
bits; the others fold only when the 64-bit result truncated to 32 bits equals
the 32-bit result (and never on a division by zero, nor a shift by 32 or more).
Besides: `add(x, 0)`, `sub(x, 0)`, `mul(x, 1)` fold to x, `mul(x, 0)` to 0;
casts of constants fold when the result does not depend on the width;
`cmp` folds constants, `cmp(x, x)`, and `cmp(min/max(x, cA), cB)` where the
range of the min/max decides the comparison at both widths. Patterns: the
commutative ops move a constant left operand to the right, and
`op(op(x, c1), c2)` becomes `op(x, op(c2, c1))` when that folds;
`cmp(sub(x, y), 0)` becomes `cmp(x, y)` and `cmp(0, sub(x, y))` `cmp(y, x)`
(the predicate kept, as MLIR keeps it). Folded values are materialized as
`index.constant`/`index.bool.constant` (`xgpu.transforms.constants`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xgpu.dialects import index
from xgpu.transforms.canonicalization.arith import (
    MoveConstantOperandRight,
    const_attr,
    defining_op,
    to_signed,
)

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable

Calc = Callable[[int, int, int], int | None]
"""(lhs bits, rhs bits, width) -> result bits (any int, taken modulo 2**width), or None."""

_INDEX = IndexType()


def _bits(attr: Attribute | None) -> int | None:
    """The 64 bits of an index (or integer) constant, unsigned."""
    if isinstance(attr, IntegerAttr):
        width = 64 if isinstance(attr.type, IndexType) else attr.type.width.data  # type: ignore[union-attr]
        return attr.value.data & ((1 << width) - 1)
    return None


def _s(bits: int, width: int) -> int:
    return to_signed(bits, width)


def _u(bits: int, width: int) -> int:
    return bits & ((1 << width) - 1)


def _index_attr(bits: int) -> IntegerAttr:
    return IntegerAttr(_s(bits, 64), _INDEX)


def _operand_bits(op: Operation) -> tuple[int, int] | None:
    lhs, rhs = (_bits(const_attr(v)) for v in op.operands[:2])
    return None if lhs is None or rhs is None else (lhs, rhs)


def fold_unchecked(a: int, b: int, calc: Calc) -> IntegerAttr | None:
    """A result whose low 32 bits do not depend on the high operand bits."""
    result = calc(a, b, 64)
    return None if result is None else _index_attr(result)


def fold_checked(a: int, b: int, calc: Calc) -> IntegerAttr | None:
    """A result that must agree with the 32-bit computation."""
    wide = calc(a, b, 64)
    if wide is None:
        return None
    narrow = calc(_u(a, 32), _u(b, 32), 32)
    if narrow is None or _u(wide, 32) != _u(narrow, 32):
        return None
    return _index_attr(wide)


def _sdiv(a: int, b: int, w: int) -> int | None:
    if _u(b, w) == 0:
        return None
    n, m = _s(a, w), _s(b, w)
    q = abs(n) // abs(m)
    return q if (n < 0) == (m < 0) else -q


def _ceildivs(a: int, b: int, w: int) -> int | None:
    n, m = _s(a, w), _s(b, w)
    if m == 0:
        return None
    if n == 0:
        return 0
    if (n > 0) != (m > 0):
        # Different signs: the truncated quotient is the ceiling.
        q = _sdiv(_u(-n, w), b, w)
        return None if q is None else -q
    x = -1 if m > 0 else 1
    q = _sdiv(_u(n + x, w), b, w)
    return None if q is None else q + 1


def _floordivs(a: int, b: int, w: int) -> int | None:
    n, m = _s(a, w), _s(b, w)
    if m == 0:
        return None
    if n == 0:
        return 0
    if (n < 0) == (m < 0):
        return _sdiv(a, b, w)
    x = 1 if m < 0 else -1
    q = _sdiv(_u(x - n, w), b, w)
    return None if q is None else -1 - q


def _ceildivu(a: int, b: int, w: int) -> int | None:
    n, m = _u(a, w), _u(b, w)
    if m == 0:
        return None
    return 0 if n == 0 else (n - 1) // m + 1


def _srem(a: int, b: int, w: int) -> int | None:
    n, m = _s(a, w), _s(b, w)
    if m == 0:
        return None
    r = abs(n) % abs(m)
    return -r if n < 0 else r


def _shift(kind: str) -> Calc:
    def calc(a: int, b: int, w: int) -> int | None:
        amount = _u(b, w)
        if amount >= 32:
            return None
        if kind == "shl":
            return a << amount
        if kind == "shrs":
            return _s(a, w) >> amount
        return _u(a, w) >> amount

    return calc


_UNCHECKED: dict[type[Operation], Calc] = {
    index.AddOp: lambda a, b, w: a + b,
    index.SubOp: lambda a, b, w: a - b,
    index.MulOp: lambda a, b, w: a * b,
    index.ShlOp: _shift("shl"),
    index.AndOp: lambda a, b, w: a & b,
    index.OrOp: lambda a, b, w: a | b,
    index.XOrOp: lambda a, b, w: a ^ b,
}
_CHECKED: dict[type[Operation], Calc] = {
    index.DivSOp: _sdiv,
    index.DivUOp: lambda a, b, w: None if _u(b, w) == 0 else _u(a, w) // _u(b, w),
    index.CeilDivSOp: _ceildivs,
    index.CeilDivUOp: _ceildivu,
    index.FloorDivSOp: _floordivs,
    index.RemSOp: _srem,
    index.RemUOp: lambda a, b, w: None if _u(b, w) == 0 else _u(a, w) % _u(b, w),
    index.MaxSOp: lambda a, b, w: a if _s(a, w) > _s(b, w) else b,
    index.MaxUOp: lambda a, b, w: a if _u(a, w) > _u(b, w) else b,
    index.MinSOp: lambda a, b, w: a if _s(a, w) < _s(b, w) else b,
    index.MinUOp: lambda a, b, w: a if _u(a, w) < _u(b, w) else b,
    index.ShrSOp: _shift("shrs"),
    index.ShrUOp: _shift("shru"),
}


def _fold_constants(op: Operation, a: int, b: int) -> IntegerAttr | None:
    op_type = type(op)
    if op_type in _UNCHECKED:
        return fold_unchecked(a, b, _UNCHECKED[op_type])
    return fold_checked(a, b, _CHECKED[op_type])


def fold_binary(op: Operation) -> list[SSAValue | Attribute] | None:
    operands = _operand_bits(op)
    if operands is not None and (value := _fold_constants(op, *operands)) is not None:
        return [value]
    rhs = _bits(const_attr(op.operands[1]))
    if rhs is None:
        return None
    if isinstance(op, (index.AddOp, index.SubOp)) and rhs == 0:
        return [op.operands[0]]
    if isinstance(op, index.MulOp):
        if rhs == 1:
            return [op.operands[0]]
        if rhs == 0:
            return [_index_attr(0)]
    return None


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------


def _ext(bits: int, from_width: int, to_width: int, signed: bool) -> int:
    bits = _u(bits, from_width)
    return _u(_s(bits, from_width), to_width) if signed else bits


def fold_cast(op: Operation) -> list[SSAValue | Attribute] | None:
    attr = const_attr(op.operands[0])
    if not isinstance(attr, IntegerAttr):
        return None
    signed = isinstance(op, index.CastSOp)
    source = attr.type
    source_width = 64 if isinstance(source, IndexType) else source.width.data  # type: ignore[union-attr]
    value = _u(attr.value.data, source_width)
    target = op.results[0].type
    if isinstance(target, IndexType):
        # cast32(cast64(v)) == cast32(v): cast on 64 bits.
        if source_width >= 64:
            return [_index_attr(value)]
        return [_index_attr(_ext(value, source_width, 64, signed))]
    if not isinstance(target, IntegerType):
        return None
    width = target.width.data
    if width <= 32:
        result = _u(value, width)
    elif width >= 64:
        if _ext(_u(value, 32), 32, 64, signed) != _u(value, 64):
            return None
        result = _ext(value, 64, width, signed)
    else:
        result = _u(value, width)
        if result != _ext(_u(value, 32), 32, width, signed):
            return None
    return [IntegerAttr(_s(result, width), target)]


# ---------------------------------------------------------------------------
# cmp
# ---------------------------------------------------------------------------

_SAME_ARGS = {"eq": True, "sge": True, "sle": True, "uge": True, "ule": True}
_INVERSE = {
    "eq": "ne",
    "ne": "eq",
    "slt": "sge",
    "sge": "slt",
    "sle": "sgt",
    "sgt": "sle",
    "ult": "uge",
    "uge": "ult",
    "ule": "ugt",
    "ugt": "ule",
}


def _compare(pred: str, a: int, b: int, w: int) -> bool:
    if pred in ("eq", "ne"):
        return (_u(a, w) == _u(b, w)) == (pred == "eq")
    x, y = (_s(a, w), _s(b, w)) if pred[0] == "s" else (_u(a, w), _u(b, w))
    return {"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[pred[1:]]


class _Range:
    """MLIR's ConstantIntRanges: signed and unsigned bounds of one value."""

    def __init__(self, width: int, smin: int, smax: int, umin: int, umax: int) -> None:
        self.width, self.smin, self.smax, self.umin, self.umax = width, smin, smax, umin, umax

    @classmethod
    def signed(cls, width: int, lo: int, hi: int) -> _Range:
        if (lo < 0) == (hi < 0):
            return cls(width, lo, hi, _u(lo, width), _u(hi, width))
        return cls(width, lo, hi, 0, (1 << width) - 1)

    @classmethod
    def unsigned(cls, width: int, lo: int, hi: int) -> _Range:
        top = 1 << (width - 1)
        if (lo >= top) == (hi >= top):
            return cls(width, _s(lo, width), _s(hi, width), lo, hi)
        return cls(width, -top, top - 1, lo, hi)


def _statically_true(pred: str, lhs: _Range, rhs: _Range) -> bool:
    if pred == "eq":
        return lhs.umin == lhs.umax == rhs.umin == rhs.umax
    if pred == "ne":
        return (
            lhs.umax < rhs.umin or lhs.umin > rhs.umax or lhs.smax < rhs.smin or lhs.smin > rhs.smax
        )
    if pred[0] == "s":
        lo_l, hi_l, lo_r, hi_r = lhs.smin, lhs.smax, rhs.smin, rhs.smax
    else:
        lo_l, hi_l, lo_r, hi_r = lhs.umin, lhs.umax, rhs.umin, rhs.umax
    return {"lt": hi_l < lo_r, "le": hi_l <= lo_r, "gt": lo_l > hi_r, "ge": lo_l >= hi_r}[pred[1:]]


def _evaluate(pred: str, lhs: _Range, rhs: _Range) -> bool | None:
    if _statically_true(pred, lhs, rhs):
        return True
    if _statically_true(_INVERSE[pred], lhs, rhs):
        return False
    return None


def _min_max_range(op: Operation, bound: int, w: int) -> _Range:
    top = 1 << (w - 1)
    if isinstance(op, index.MinSOp):
        return _Range.signed(w, -top, _s(bound, w))
    if isinstance(op, index.MinUOp):
        return _Range.unsigned(w, 0, _u(bound, w))
    if isinstance(op, index.MaxSOp):
        return _Range.signed(w, _s(bound, w), top - 1)
    return _Range.unsigned(w, _u(bound, w), (1 << w) - 1)


def _constant_range(value: int, w: int) -> _Range:
    return _Range(w, _s(value, w), _s(value, w), _u(value, w), _u(value, w))


def fold_cmp(op: Operation) -> list[SSAValue | Attribute] | None:
    assert isinstance(op, index.CmpOp)
    pred = op.pred.data.value  # type: ignore[union-attr]
    lhs, rhs = _bits(const_attr(op.lhs)), _bits(const_attr(op.rhs))
    if lhs is not None and rhs is not None:
        wide = _compare(pred, lhs, rhs, 64)
        if wide == _compare(pred, lhs, rhs, 32):
            return [IntegerAttr(int(wide), i1)]
    inner = defining_op(op.lhs)
    if (
        isinstance(inner, (index.MinSOp, index.MinUOp, index.MaxSOp, index.MaxUOp))
        and rhs is not None
    ):
        bound = _bits(const_attr(inner.operands[1]))
        if bound is not None:
            results = [
                _evaluate(pred, _min_max_range(inner, _u(bound, w), w), _constant_range(rhs, w))
                for w in (64, 32)
            ]
            if results[0] is not None and results[0] == results[1]:
                return [IntegerAttr(int(results[0]), i1)]
    if op.lhs is op.rhs:
        return [IntegerAttr(int(_SAME_ARGS.get(pred, False)), i1)]
    return None


# ---------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------


class ReassociateConstants(RewritePattern):
    """op(op(x, c1), c2) -> op(x, op(c2, c1)) when op(c2, c1) folds."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        c2 = _bits(const_attr(op.operands[1]))
        inner = defining_op(op.operands[0])
        if c2 is None or type(inner) is not type(op):
            return
        assert inner is not None
        c1 = _bits(const_attr(inner.operands[1]))
        if c1 is None:
            return
        folded = _fold_constants(op, c2, c1)
        if folded is None:
            return
        const = index.ConstantOp.create(result_types=[_INDEX], properties={"value": folded})
        new = type(op).create(operands=[inner.operands[0], const.results[0]], result_types=[_INDEX])
        rewriter.replace(op, [const, new])


class CmpOfSubAndZero(RewritePattern):
    """cmp(pred, sub(x, y), 0) -> cmp(pred, x, y); cmp(pred, 0, sub(x, y)) ->
    cmp(pred, y, x)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op, index.CmpOp)
        rhs_zero = _bits(const_attr(op.rhs)) == 0
        lhs_zero = _bits(const_attr(op.lhs)) == 0
        if not rhs_zero and not lhs_zero:
            return
        sub = defining_op(op.lhs if rhs_zero else op.rhs)
        if not isinstance(sub, index.SubOp):
            return
        x, y = sub.operands
        operands = [x, y] if rhs_zero else [y, x]
        new = index.CmpOp.create(operands=operands, result_types=[i1], properties={"pred": op.pred})
        rewriter.replace(op, [new])


_COMMUTATIVE = (
    index.AddOp,
    index.MulOp,
    index.MaxSOp,
    index.MaxUOp,
    index.MinSOp,
    index.MinUOp,
    index.AndOp,
    index.OrOp,
    index.XOrOp,
)


def register(table: CanonicalizationTable) -> None:
    swap = MoveConstantOperandRight()
    reassociate = ReassociateConstants()
    for op_type in index.BINARY_OPS:
        table.set_folder(op_type, fold_binary)
        if op_type in _COMMUTATIVE:
            table.set_patterns(op_type, swap, reassociate)
        else:
            table.set_patterns(op_type)
    for op_type in (index.CastSOp, index.CastUOp):
        table.set_folder(op_type, fold_cast)
        table.set_patterns(op_type)
    table.set_folder(index.CmpOp, fold_cmp)
    table.set_patterns(index.CmpOp, CmpOfSubAndZero())
