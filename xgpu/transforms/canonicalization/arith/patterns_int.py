"""MLIR 22's canonicalization patterns of the arith integer ops.

From `ArithCanonicalization.td` and `ArithOps.cpp`: addi, subi and muli of
constants, the extended add/mul ops, xori of cmpi, bitwise ops of extensions
and cmpi of extensions.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects import arith as xgpu_arith
from xgpu.transforms.canonicalization.arith.fold_cmp_float import _CMPI_INVERTED
from xgpu.transforms.canonicalization.arith.values import (
    const_attr,
    defining_op,
    int_attr,
    int_bits,
    int_or_splat_bits,
    is_all_ones,
    zero_attr,
)

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
