"""MLIR's arith folds that modify the op in place, written as patterns.

`OpTrait::IsCommutative` moving a constant operand to the right, `cmpi`
swapping a constant left operand, `ext(ext(x))`, `trunci(ext|trunci(x))` and
`truncf(extf(x))`; they are listed first among an op's patterns.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
)
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.transforms.canonicalization.arith.fold_cast import _truncf_in_place, _trunci_in_place
from xgpu.transforms.canonicalization.arith.fold_cmp_float import (
    _CMPI_SWAPPED,
    _cmpi_swaps_in_place,
)
from xgpu.transforms.canonicalization.arith.values import const_attr, defining_op

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
