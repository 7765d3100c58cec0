"""MLIR 22's folders of cmpi, cmpf, select and the arith float arithmetic ops.

`cmpi_holds` / `cmpf_holds` (a predicate on two constants) and the folders of
cmpi, cmpf, select, addf, subf, mulf, divf, negf and the float min/max ops.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Attribute, Operation

from xgpu.transforms.canonicalization.arith.floats import (
    _fadd,
    _fdiv,
    _fmaximum,
    _fmaxnum,
    _fminimum,
    _fminnum,
    _fmul,
    _fsub,
    _is_neg,
    float_or_splat,
    float_value,
)
from xgpu.transforms.canonicalization.arith.fold_int import _fold_float_binary, _fold_int_binary, _s
from xgpu.transforms.canonicalization.arith.values import (
    Folded,
    const_attr,
    defining_op,
    element_type,
    is_one,
    is_zero,
    static_shaped,
)

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
