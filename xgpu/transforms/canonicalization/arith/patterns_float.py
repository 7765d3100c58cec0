"""MLIR 22's canonicalization patterns of the arith float ops.

mulf/divf of two negf, and cmpf of an int-to-float cast against a constant
(`CmpFIntToFPConst`).
"""

from __future__ import annotations

import math

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.transforms.canonicalization.arith.floats import (
    _MAX_EXPONENT,
    _PRECISION,
    float_to_int,
    float_value,
    int_to_float,
)
from xgpu.transforms.canonicalization.arith.fold_int import _s
from xgpu.transforms.canonicalization.arith.values import const_attr, defining_op, int_attr


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
