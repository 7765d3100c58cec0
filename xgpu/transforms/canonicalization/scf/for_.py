"""MLIR 22's canonicalization patterns for `scf.for`: `ForOpIterArgsFolder`
and `SimplifyTrivialLoops`, with the trip count they use
(`static_trip_count`, MLIR 22's `constantTripCount`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from xgpu.dialects import scf
from xgpu.transforms.canonicalization.arith import (
    const_attr,
    defining_op,
    inline_block,
    int_bits,
    int_or_splat_bits,
    int_width,
    to_signed,
)
from xgpu.transforms.canonicalization.scf.common import (
    _defined_outside,
    _terminator,
    replace_op_with_region,
)


def _new_for(op: scf.ForOp, inits: Sequence[SSAValue]) -> scf.ForOp:
    """`scf.ForOp::build` without a body builder: a block of the induction
    variable and the iter_args, and a terminator only when there are none."""
    block = Block(arg_types=[op.lb.type, *(v.type for v in inits)])
    if not inits:
        block.add_op(scf.YieldOp())
    new = scf.ForOp(op.lb, op.ub, op.step, inits, Region(block))
    new.properties.update(op.properties)
    new.attributes.update(op.attributes)
    return new


class ForOpIterArgsFolder(RewritePattern):
    """Drop the iter_args of an scf.for that the body yields unchanged, whose
    init value the body yields, or that are unused both in the body and after
    the loop; in the body and after it they are the init value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /) -> None:
        block = op.body.block
        yielded = list(_terminator(block).operands)
        keep: list[bool] = []
        transfer: list[SSAValue | None] = [None]
        new_inits: list[SSAValue] = []
        results: list[SSAValue | None] = []
        for init, arg, result, value in zip(
            op.iter_args, block.args[1:], op.results, yielded, strict=True
        ):
            forwarded = arg == value or init == value or (not arg.uses and not result.uses)
            keep.append(not forwarded)
            if forwarded:
                transfer.append(init)
                results.append(init)
            else:
                new_inits.append(init)
                transfer.append(None)
                results.append(None)
        if all(keep):
            return
        new_for = _new_for(op, new_inits)
        rewriter.insert(new_for, InsertPoint.before(op))
        new_block = new_for.body.block
        transfer[0] = new_block.args[0]
        kept = 0
        for index, value in enumerate(results):
            if value is None:
                transfer[index + 1] = new_block.args[1 + kept]
                results[index] = new_for.results[kept]
                kept += 1
        if not new_inits:
            new_yield = _terminator(new_block)
            inline_block(rewriter, block, new_block, new_yield, transfer)  # type: ignore[arg-type]
            old_yield = new_yield.prev_op
            assert old_yield is not None
            rewriter.erase(old_yield)
            rewriter.replace(op, [], results)
            return
        inline_block(rewriter, block, new_block, None, transfer)  # type: ignore[arg-type]
        merged = _terminator(new_block)
        filtered = [v for v, k in zip(merged.operands, keep, strict=True) if k]
        rewriter.insert(scf.YieldOp(*filtered), InsertPoint.before(merged))
        rewriter.erase(merged)
        rewriter.replace(op, [], results)


def _constant_int(value: SSAValue) -> int | None:
    """The bits of an integer or index constant (MLIR's getConstantAPIntValue)."""
    return int_bits(const_attr(value))


def _ub_minus_lb(lb: SSAValue, ub: SSAValue, signed: bool) -> int | None:
    """scf.for's `computeUbMinusLb`: `ub = addi(lb, c)` with the no-wrap flag
    of the comparison's signedness gives c."""
    add = defining_op(ub)
    if not isinstance(add, arith.AddiOp) or add.lhs != lb:
        return None
    flag = "nsw" if signed else "nuw"
    if flag not in {str(f) for f in add.overflow_flags.data}:
        return None
    found = int_or_splat_bits(const_attr(add.rhs))
    return None if found is None else found[0]


def static_trip_count(op: scf.ForOp) -> int | None:
    """MLIR 22's `ForOp::getStaticTripCount` (`constantTripCount`)."""
    width = int_width(op.lb.type)
    if width is None:
        return None
    signed = "unsignedCmp" not in op.properties and "unsignedCmp" not in op.attributes
    if op.lb == op.ub:
        return 0
    step = _constant_int(op.step)
    if step is not None:
        if step == 0 or step >> (width - 1):
            return 0
    lb, ub = _constant_int(op.lb), _constant_int(op.ub)
    mask = (1 << width) - 1
    if lb is not None:
        if ub is None:
            return None
        if signed:
            if to_signed(ub, width) <= to_signed(lb, width):
                return 0
        elif ub <= lb:
            return 0
        diff = (ub - lb) & mask
    else:
        if ub is not None:
            return None
        found = _ub_minus_lb(op.lb, op.ub, signed)
        if found is None:
            return None
        diff = found
    if signed and diff >> (width - 1):
        return 0
    if step is None:
        return None
    if signed:
        quotient, rest = divmod(to_signed(diff, width), to_signed(step, width))
    else:
        quotient, rest = divmod(diff, step)
    return quotient + (1 if rest else 0)


class SimplifyTrivialLoops(RewritePattern):
    """scf.for with a known trip count: 0 -> its inits; 1 -> its body (the
    induction variable is the lower bound); more, with an empty body that
    yields values defined outside -> those values."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter, /) -> None:
        trips = static_trip_count(op)
        if trips is None:
            return
        if trips == 0:
            rewriter.replace(op, [], list(op.iter_args))
            return
        if trips == 1:
            replace_op_with_region(rewriter, op, op.body, [op.lb, *op.iter_args])
            return
        block = op.body.block
        yield_op = _terminator(block)
        if block.first_op is not yield_op:
            return
        values = list(yield_op.operands)
        if any(not _defined_outside(v, op) for v in values):
            return
        rewriter.replace(op, [], values)
