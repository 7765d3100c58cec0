"""MLIR 22's canonicalization patterns of arith select and the cast ops.

select of a negated condition, redundant selects, i1 selects; index_cast,
bitcast, extsi, trunci and truncf of other casts.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.transforms.canonicalization.arith.patterns_int import _is_i1_constant
from xgpu.transforms.canonicalization.arith.values import (
    const_attr,
    defining_op,
    element_type,
    int_or_splat_bits,
    int_width,
    is_all_ones,
    is_one,
    is_zero,
)


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
