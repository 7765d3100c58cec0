"""MLIR 22's folders and canonicalization patterns for the scf ops.

xDSL's scf patterns differ from MLIR's on loops and conditionals GPU host and
kernel code contains: its `RehoistConstInLoops` moves constants itself (MLIR's
driver hoists them, `xgpu.transforms.constants`), its `SimplifyTrivialLoops`
computes trip counts without the width, signedness and overflow rules of MLIR
22, it keeps loop-invariant or unused `iter_args`, and its `scf.if` pattern
is the only one of MLIR's eight. Here every scf op xDSL defines gets MLIR 22's
behaviour (`register` at the end), from `SCF.cpp`:

* `scf.for`: `ForOpIterArgsFolder` (drop iter_args that are yielded
  unchanged, whose init is yielded, or unused), `SimplifyTrivialLoops` (zero-trip loops replaced by
  their inits, one-trip loops inlined, empty loops of known trip count > 1
  replaced by what they yield). The trip count is MLIR 22's
  `constantTripCount`: step 0 or negative: 0; bounds compared signed (the
  `unsignedCmp` attribute: unsigned), `ub - lb` wrapping at the bound's
  width; with non-constant bounds only `ub = addi(lb, c)` carrying
  `nsw` (`nuw` when unsigned).
* `scf.if`: the in-place fold swapping the regions of `if (xori c, 1)`,
  then MLIR's patterns in MLIR's order: CombineIfs, CombineNestedIfs,
  ConditionPropagation, ConvertTrivialIfToSelect, RemoveEmptyElseBranch,
  RemoveStaticCondition, RemoveUnusedResults,
  ReplaceIfYieldWithConditionOrValue.
* `scf.execute_region`: a single-block region is inlined (unless
  `no_inline`); `scf.index_switch` with a constant operand is replaced by the
  matching case.
* the RegionBranchOpInterface patterns MLIR 22 registers for scf.for, scf.if,
  scf.while, scf.execute_region and scf.index_switch, after their own:
  a loop-carried value or result that can only hold one value defined before
  it is that value (`MakeRegionBranchOpSuccessorInputsDead`), two that get the
  same values from every predecessor are merged
  (`RemoveDuplicateSuccessorInputUses`), and dead ones are erased with their
  tied inputs and operands (`RemoveDeadRegionBranchOpSuccessorInputs`).

Not ported (xgpu leaves such ops as they are): patterns on tensors
(`ForOpTensorCastFolder`), scf.while's own patterns (WhileConditionTruth,
WhileMoveIfDown, loop-invariant arguments, ...), scf.parallel's, and the
inlining of multi-block `scf.execute_region` regions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from xgpu.dialects import arith as xgpu_arith
from xgpu.dialects import scf
from xgpu.transforms.canonicalization.arith import (
    const_attr,
    defining_op,
    inline_block,
    inline_block_before,
    int_bits,
    int_or_splat_bits,
    int_width,
    is_one,
    to_signed,
)

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable


def _terminator(block: Block) -> Operation:
    last = block.last_op
    assert last is not None
    return last


def _parent_region(value: SSAValue) -> Region | None:
    """MLIR's `Value::getParentRegion`."""
    owner = value.owner
    block = owner.parent_block() if isinstance(owner, Operation) else owner
    return None if block is None else block.parent


def _defined_outside(value: SSAValue, op: Operation) -> bool:
    """MLIR's `isDefinedOutsideOfLoop`: `value` is not defined in `op`."""
    region = _parent_region(value)
    return region is None or not op.is_ancestor(region)


def replace_op_with_region(
    rewriter: PatternRewriter,
    op: Operation,
    region: Region,
    args: Sequence[SSAValue] = (),
) -> None:
    """SCF.cpp's `replaceOpWithRegion`: inline the single block of `region`
    before `op`, replace `op` by what its terminator yields, erase the
    terminator."""
    block = region.block
    terminator = _terminator(block)
    results = list(terminator.operands)
    inline_block_before(rewriter, block, op, args)
    rewriter.replace(op, [], results)
    rewriter.erase(terminator)


# ---------------------------------------------------------------------------
# scf.for
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# scf.if
# ---------------------------------------------------------------------------


def _then_block(op: scf.IfOp) -> Block:
    return op.true_region.block


def _else_block(op: scf.IfOp) -> Block | None:
    return op.false_region.blocks.first


def _is_not(value: SSAValue) -> SSAValue | None:
    """If `value` is `xori(x, 1)` (m_One), x."""
    xor = defining_op(value)
    if isinstance(xor, arith.XOrIOp) and is_one(const_attr(xor.rhs)):
        return xor.lhs
    return None


class IfNotConditionSwap(RewritePattern):
    """scf.if's fold: `if (xori c, 1) A else B` -> `if c B else A`, in place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        if not op.false_region.blocks:
            return
        cond = _is_not(op.cond)
        if cond is None:
            return
        op.operands = [cond]
        then_block = op.true_region.block
        else_block = op.false_region.block
        op.true_region.detach_block(then_block)
        op.false_region.detach_block(else_block)
        op.true_region.add_block(else_block)
        op.false_region.add_block(then_block)
        rewriter.notify_op_modified(op)


def _new_if(cond: SSAValue, types: Sequence, with_else: bool) -> scf.IfOp:
    """`scf::IfOp::build(types, cond, withElse)`: an empty then block (and
    else block), each with a yield when there are no results."""
    then_block = Block()
    if not types:
        then_block.add_op(scf.YieldOp())
    else_region = None
    if with_else:
        else_block = Block()
        if not types:
            else_block.add_op(scf.YieldOp())
        else_region = Region(else_block)
    return scf.IfOp(cond, list(types), Region(then_block), else_region)


class CombineIfs(RewritePattern):
    """Two adjacent scf.if on the same condition (or on c and `xori c, 1`)
    become one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, next_if: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        prev_if = next_if.prev_op
        if not isinstance(prev_if, scf.IfOp):
            return
        next_then: Block | None = None
        next_else: Block | None = None
        if next_if.cond == prev_if.cond:
            next_then = _then_block(next_if)
            next_else = _else_block(next_if)
        if _is_not(next_if.cond) == prev_if.cond:
            next_else = _then_block(next_if)
            next_then = _else_block(next_if)
        if _is_not(prev_if.cond) == next_if.cond:
            next_else = _then_block(next_if)
            next_then = _else_block(next_if)
        if next_then is None and next_else is None:
            return

        prev_else_block = _else_block(prev_if)
        prev_then_yield = list(_terminator(_then_block(prev_if)).operands)
        prev_else_yield = (
            list(_terminator(prev_else_block).operands) if prev_else_block is not None else []
        )
        for result, then_value, else_value in zip(
            prev_if.results, prev_then_yield, prev_else_yield
        ):
            for use in list(result.uses):
                user = use.operation
                region = user.parent_region()
                if next_then is not None and next_then.parent.is_ancestor(region):  # type: ignore[union-attr]
                    user.operands[use.index] = then_value
                    rewriter.notify_op_modified(user)
                elif next_else is not None and next_else.parent.is_ancestor(region):  # type: ignore[union-attr]
                    user.operands[use.index] = else_value
                    rewriter.notify_op_modified(user)

        merged_types = [*prev_if.result_types, *next_if.result_types]
        combined = _new_if(prev_if.cond, merged_types, with_else=False)
        rewriter.insert(combined, InsertPoint.before(next_if))
        # Move prev's then region into the combined op (replacing its block).
        combined.true_region.detach_block(combined.true_region.block).erase()
        _move_region(prev_if.true_region, combined.true_region)

        if next_then is not None:
            then_yield = _terminator(_then_block(combined))
            then_yield2 = _terminator(next_then)
            inline_block(rewriter, next_then, _then_block(combined), None)
            merged = [*then_yield.operands, *then_yield2.operands]
            rewriter.insert(scf.YieldOp(*merged), InsertPoint.at_end(_then_block(combined)))
            rewriter.erase(then_yield)
            rewriter.erase(then_yield2)

        _move_region(prev_if.false_region, combined.false_region)

        if next_else is not None:
            if not combined.false_region.blocks:
                _move_region(next_else.parent, combined.false_region)  # type: ignore[arg-type]
            else:
                else_block = _else_block(combined)
                assert else_block is not None
                else_yield = _terminator(else_block)
                else_yield2 = _terminator(next_else)
                inline_block(rewriter, next_else, else_block, None)
                merged = [*else_yield.operands, *else_yield2.operands]
                rewriter.insert(scf.YieldOp(*merged), InsertPoint.at_end(else_block))
                rewriter.erase(else_yield)
                rewriter.erase(else_yield2)

        count = len(prev_if.results)
        rewriter.replace(prev_if, [], list(combined.results[:count]))
        rewriter.replace(next_if, [], list(combined.results[count:]))


def _move_region(source: Region, dest: Region) -> None:
    """`inlineRegionBefore(source, dest, dest.begin())`."""
    blocks = list(source.blocks)
    for block in blocks:
        source.detach_block(block)
    first = dest.blocks.first
    for block in blocks:
        if first is None:
            dest.add_block(block)
        else:
            dest.insert_block_before(block, first)


class CombineNestedIfs(RewritePattern):
    """`if a { if b { ... } }` -> `if (andi a, b) { ... }`, where the outer
    else (if any) and the inner else only yield."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        then_block = _then_block(op)
        nested = then_block.first_op
        if nested is None or nested.next_op is not _terminator(then_block):
            return
        else_block = _else_block(op)
        if else_block is not None and else_block.first_op is not _terminator(else_block):
            return
        if not isinstance(nested, scf.IfOp):
            return
        nested_else = _else_block(nested)
        if nested_else is not None and nested_else.first_op is not _terminator(nested_else):
            return

        then_yield = list(_terminator(then_block).operands)
        else_yield = list(_terminator(else_block).operands) if else_block is not None else []
        to_select: list[int] = []
        for index, value in enumerate(then_yield):
            if value.owner is nested:
                nested_index = value.index  # type: ignore[attr-defined]
                assert nested_else is not None
                if _terminator(nested_else).operands[nested_index] != else_yield[index]:
                    return
                then_yield[index] = _terminator(_then_block(nested)).operands[nested_index]
                continue
            if _parent_region(value) is op.true_region:
                return
            to_select.append(index)

        cond = arith.AndIOp(op.cond, nested.cond)
        rewriter.insert(cond, InsertPoint.before(op))
        new_if = scf.IfOp(cond.result, list(op.result_types), Region(), None)
        rewriter.insert(new_if, InsertPoint.before(op))
        new_block = Block()
        new_if.true_region.add_block(new_block)

        results: list[SSAValue] = list(new_if.results)
        for index in to_select:
            select = xgpu_arith.SelectOp(op.cond, then_yield[index], else_yield[index])
            rewriter.insert(select, InsertPoint.before(new_if))
            results[index] = select.result

        inline_block(rewriter, _then_block(nested), new_block, None)
        old_yield = _terminator(new_block)
        rewriter.replace(old_yield, scf.YieldOp(*then_yield))
        if else_yield:
            else_new = Block()
            new_if.false_region.add_block(else_new)
            rewriter.insert(scf.YieldOp(*else_yield), InsertPoint.at_end(else_new))
        rewriter.replace(op, [], results)


class ConditionPropagation(RewritePattern):
    """Uses of the condition inside the then (else) region become `true`
    (`false`) constants."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        if const_attr(op.cond) is not None:
            return
        true_value: SSAValue | None = None
        false_value: SSAValue | None = None
        i1 = IntegerType(1)
        for use in list(op.cond.uses):
            user = use.operation
            region = user.parent_region()
            if region is not None and op.true_region.is_ancestor(region):
                if true_value is None:
                    const = arith.ConstantOp(IntegerAttr(1, i1))
                    rewriter.insert(const, InsertPoint.before(op))
                    true_value = const.result
                replacement = true_value
            elif region is not None and op.false_region.is_ancestor(region):
                if false_value is None:
                    const = arith.ConstantOp(IntegerAttr(0, i1))
                    rewriter.insert(const, InsertPoint.before(op))
                    false_value = const.result
                replacement = false_value
            else:
                continue
            user.operands[use.index] = replacement
            rewriter.notify_op_modified(user)


class ConvertTrivialIfToSelect(RewritePattern):
    """Results of an scf.if whose yielded values are both defined outside
    become `arith.select`s (or the value, when both branches yield it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        if not op.results:
            return
        else_block = _else_block(op)
        assert else_block is not None
        then_yield = list(_terminator(_then_block(op)).operands)
        else_yield = list(_terminator(else_block).operands)
        non_hoistable = [
            t.type
            for t, f in zip(then_yield, else_yield, strict=True)
            if _parent_region(t) is op.true_region or _parent_region(f) is op.false_region
        ]
        if len(non_hoistable) == len(op.results):
            return
        replacement = scf.IfOp(op.cond, non_hoistable, Region(), Region())
        rewriter.insert(replacement, InsertPoint.before(op))
        _move_region(op.true_region, replacement.true_region)
        _move_region(op.false_region, replacement.false_region)

        results: list[SSAValue] = []
        true_yields: list[SSAValue] = []
        false_yields: list[SSAValue] = []
        for t, f in zip(then_yield, else_yield, strict=True):
            if (
                _parent_region(t) is replacement.true_region
                or _parent_region(f) is replacement.false_region
            ):
                results.append(replacement.results[len(true_yields)])
                true_yields.append(t)
                false_yields.append(f)
            elif t == f:
                results.append(t)
            else:
                select = xgpu_arith.SelectOp(op.cond, t, f)
                rewriter.insert(select, InsertPoint.before(replacement))
                results.append(select.result)
        new_then = _terminator(_then_block(replacement))
        rewriter.replace(new_then, scf.YieldOp(*true_yields))
        new_else_block = _else_block(replacement)
        assert new_else_block is not None
        rewriter.replace(_terminator(new_else_block), scf.YieldOp(*false_yields))
        rewriter.replace(op, [], results)


class RemoveEmptyElseBranch(RewritePattern):
    """An scf.if without results whose else block only yields loses it."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        if op.results:
            return
        else_block = _else_block(op)
        if else_block is None or else_block.first_op is not _terminator(else_block):
            return
        new_if = op.clone_without_regions()
        rewriter.insert(new_if, InsertPoint.before(op))
        _move_region(op.true_region, new_if.true_region)
        rewriter.erase(op)


class RemoveStaticCondition(RewritePattern):
    """scf.if on a constant: the taken region inlined (or the op erased when
    that region is missing)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        found = int_or_splat_bits(const_attr(op.cond))
        if found is None:
            return
        if found[0]:
            replace_op_with_region(rewriter, op, op.true_region)
        elif op.false_region.blocks:
            replace_op_with_region(rewriter, op, op.false_region)
        else:
            rewriter.erase(op)


class RemoveUnusedResults(RewritePattern):
    """Results of an scf.if that have no use are dropped."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        used = [r for r in op.results if r.uses]
        if len(used) == len(op.results):
            return
        then_block, else_block = Block(), Block()
        new_if = scf.IfOp(op.cond, [r.type for r in used], Region(then_block), Region(else_block))
        rewriter.insert(new_if, InsertPoint.before(op))
        indices = [r.index for r in used]
        for source, dest in ((_then_block(op), then_block), (_else_block(op), else_block)):
            inline_block(rewriter, source, dest, None)  # type: ignore[arg-type]
            yield_op = _terminator(dest)
            yield_op.operands = [yield_op.operands[i] for i in indices]
            rewriter.notify_op_modified(yield_op)
        replacements: list[SSAValue | None] = [None] * len(op.results)
        for new_result, index in zip(new_if.results, indices, strict=True):
            replacements[index] = new_result
        rewriter.replace(op, [], replacements)


class ReplaceIfYieldWithConditionOrValue(RewritePattern):
    """A result yielding the same value in both branches is that value; one
    yielding true/false is the condition, false/true its negation."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter, /) -> None:
        if not op.results:
            return
        else_block = _else_block(op)
        assert else_block is not None
        then_yield = list(_terminator(_then_block(op)).operands)
        else_yield = list(_terminator(else_block).operands)
        changed = False
        for t, f, result in zip(then_yield, else_yield, op.results, strict=True):
            if t == f:
                if result.uses:
                    rewriter.replace_all_uses_with(result, t)
                    changed = True
                continue
            t_attr, f_attr = const_attr(t), const_attr(f)
            if not _is_bool(t_attr) or not _is_bool(f_attr):
                continue
            t_value = bool(t_attr.value.data)  # type: ignore[union-attr]
            f_value = bool(f_attr.value.data)  # type: ignore[union-attr]
            if not t_value and f_value and result.uses:
                true = arith.ConstantOp(IntegerAttr(1, IntegerType(1)))
                rewriter.insert(true, InsertPoint.before(op))
                xor = arith.XOrIOp(op.cond, true.result)
                rewriter.insert(xor, InsertPoint.before(op))
                rewriter.replace_all_uses_with(result, xor.result)
                changed = True
            if t_value and not f_value and result.uses:
                rewriter.replace_all_uses_with(result, op.cond)
                changed = True
        if changed:
            rewriter.has_done_action = True


def _is_bool(attr: object) -> bool:
    return isinstance(attr, IntegerAttr) and attr.type == IntegerType(1)


# ---------------------------------------------------------------------------
# scf.execute_region, scf.index_switch
# ---------------------------------------------------------------------------


class SingleBlockExecuteInliner(RewritePattern):
    """An scf.execute_region of one block is replaced by its body."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /) -> None:
        no_inline = "no_inline" in op.properties or "no_inline" in op.attributes
        if len(op.region.blocks) != 1 or no_inline:
            return
        replace_op_with_region(rewriter, op, op.region)


class FoldConstantCase(RewritePattern):
    """scf.index_switch on a constant: the matching case (or the default)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter, /) -> None:
        value = int_bits(const_attr(op.arg))
        if value is None:
            return
        value = to_signed(value, 64)
        region = op.default_region
        for case, case_region in zip(op.cases.get_values(), op.case_regions, strict=True):
            if case == value:
                region = case_region
                break
        block = region.block
        terminator = _terminator(block)
        results = list(terminator.operands)
        inline_block_before(rewriter, block, op)
        rewriter.erase(terminator)
        rewriter.replace(op, [], results)


# ---------------------------------------------------------------------------
# RegionBranchOpInterface patterns (MLIR 22 registers them for scf.for,
# scf.if, scf.while, scf.execute_region and scf.index_switch)
# ---------------------------------------------------------------------------

# A successor edge: the op owning a successor operand, the operand's index,
# and the successor input (block argument or result) it is forwarded to.
Edge = tuple[Operation, int, SSAValue]


def _yields(region: Region) -> list[Operation]:
    """The scf.yield terminators of the blocks of `region`."""
    found = []
    for block in region.blocks:
        last = block.last_op
        if isinstance(last, scf.YieldOp):
            found.append(last)
    return found


def successor_edges(op: Operation) -> list[Edge]:
    """The successor operand to successor input mapping of a region branch
    op (MLIR's `getSuccessorOperandInputMapping` over all branch points)."""
    edges: list[Edge] = []
    if isinstance(op, scf.ForOp):
        block = op.body.block
        yield_op = _terminator(block)
        for i, (arg, result) in enumerate(zip(block.args[1:], op.results, strict=True)):
            edges += [(op, 3 + i, arg), (op, 3 + i, result)]
            edges += [(yield_op, i, arg), (yield_op, i, result)]
    elif isinstance(op, scf.WhileOp):
        before, after = op.before_region.block, op.after_region.block
        condition = _terminator(before)
        yield_op = _terminator(after)
        for i, arg in enumerate(before.args):
            edges += [(op, i, arg), (yield_op, i, arg)]
        for j, (arg, result) in enumerate(zip(after.args, op.results, strict=True)):
            edges += [(condition, 1 + j, arg), (condition, 1 + j, result)]
    elif isinstance(op, scf.IfOp | scf.ExecuteRegionOp | scf.IndexSwitchOp):
        for region in op.regions:
            for yield_op in _yields(region):
                edges += [(yield_op, i, r) for i, r in enumerate(op.results)]
    return edges


def _input_operands(edges: list[Edge]) -> dict[SSAValue, list[tuple[Operation, int]]]:
    mapping: dict[SSAValue, list[tuple[Operation, int]]] = {}
    for owner, index, value in edges:
        mapping.setdefault(value, []).append((owner, index))
    return mapping


def _reachable(
    value: SSAValue, inputs: dict[SSAValue, list[tuple[Operation, int]]]
) -> list[SSAValue]:
    """The non-input values that may flow into the successor input `value`."""
    reachable: list[SSAValue] = []
    visited: set[SSAValue] = set()
    worklist = [value]
    while worklist:
        current = worklist.pop()
        operands = inputs.get(current)
        if operands is None:
            if current not in reachable:
                reachable.append(current)
            continue
        for owner, index in operands:
            operand = owner.operands[index]
            if operand not in visited:
                visited.add(operand)
                worklist.append(operand)
    return reachable


def _defined_before(op: Operation, a: SSAValue, b: SSAValue) -> bool:
    """Whether `a` may replace the successor input `b` of `op`."""
    region = _parent_region(a)
    if region is not None and region.parent is op:
        if not isinstance(b.owner, Block):
            return False
        return isinstance(a.owner, Block) and a.owner is b.owner
    return True


class MakeRegionBranchOpSuccessorInputsDead(RewritePattern):
    """A successor input (loop-carried value, region result) that can only
    hold one value defined before it is replaced by that value."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inputs = _input_operands(successor_edges(op))
        for value in inputs:
            if not value.uses:
                continue
            reachable = _reachable(value, inputs)
            if len(reachable) != 1 or not _defined_before(op, reachable[0], value):
                continue
            rewriter.replace_all_uses_with(value, reachable[0])


def _owner_and_number(value: SSAValue) -> tuple[object, int]:
    owner = value.owner
    return owner, value.index  # type: ignore[attr-defined]


class RemoveDuplicateSuccessorInputUses(RewritePattern):
    """Of two successor inputs of the same block (or both results) that get
    the same value from every predecessor, the later one is replaced by the
    earlier one."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inputs = _input_operands(successor_edges(op))
        ordered = sorted(inputs, key=lambda v: _owner_and_number(v)[1])
        for i, first in enumerate(ordered):
            for second in ordered[i + 1 :]:
                if not second.uses:
                    continue
                if _owner_and_number(first)[0] is not _owner_and_number(second)[0]:
                    continue
                values1 = {owner: owner.operands[index] for owner, index in inputs[first]}
                values2 = {owner: owner.operands[index] for owner, index in inputs[second]}
                if values1 == values2:
                    rewriter.replace_all_uses_with(second, first)


class RemoveDeadRegionBranchOpSuccessorInputs(RewritePattern):
    """Successor inputs that are dead together with all the inputs tied to
    them (a loop's iter_arg and its result) are erased, with the operands
    that feed them."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        edges = successor_edges(op)
        # Tied inputs: those fed by a same operand (union-find).
        parent: dict[SSAValue, SSAValue] = {}

        def find(v: SSAValue) -> SSAValue:
            while parent[v] is not v:
                v = parent[v]
            return v

        by_operand: dict[tuple[int, int], list[SSAValue]] = {}
        for owner, index, value in edges:
            parent.setdefault(value, value)
            by_operand.setdefault((id(owner), index), []).append(value)
        for tied in by_operand.values():
            root = find(tied[0])
            for other in tied[1:]:
                other_root = find(other)
                if other_root is not root:
                    parent[other_root] = root
        classes: dict[SSAValue, list[SSAValue]] = {}
        for value in parent:
            classes.setdefault(find(value), []).append(value)
        dead = {
            v for members in classes.values() if all(not m.uses for m in members) for v in members
        }
        if not dead:
            return
        remove_operands: dict[Operation, set[int]] = {}
        for owner, index, value in edges:
            if value in dead:
                remove_operands.setdefault(owner, set()).add(index)
        for owner, indices in remove_operands.items():
            owner.operands = [v for i, v in enumerate(owner.operands) if i not in indices]
            rewriter.notify_op_modified(owner)
        for region in op.regions:
            for block in region.blocks:
                doomed = [a for a in block.args if a in dead]
                for arg in reversed(doomed):
                    block.erase_arg(arg)
                if doomed:
                    rewriter.notify_op_modified(op)
        keep = [r not in dead for r in op.results]
        if not all(keep):
            erase_op_results(rewriter, op, keep)


def erase_op_results(rewriter: PatternRewriter, op: Operation, keep: Sequence[bool]) -> Operation:
    """MLIR's `RewriterBase::eraseOpResults`: a copy of `op` without the
    results whose `keep` is False, taking over its regions; `op` is replaced
    by it."""
    new_op = type(op).create(
        operands=list(op.operands),
        result_types=[r.type for r, k in zip(op.results, keep, strict=True) if k],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[Region() for _ in op.regions],
    )
    rewriter.insert(new_op, InsertPoint.before(op))
    for old, new in zip(op.regions, new_op.regions, strict=True):
        _move_region(old, new)
    replacements: list[SSAValue | None] = []
    kept = iter(new_op.results)
    for k in keep:
        replacements.append(next(kept) if k else None)
    rewriter.replace(op, [], replacements)
    return new_op


def region_branch_patterns() -> tuple[RewritePattern, ...]:
    return (
        MakeRegionBranchOpSuccessorInputsDead(),
        RemoveDuplicateSuccessorInputUses(),
        RemoveDeadRegionBranchOpSuccessorInputs(),
    )


def register(table: CanonicalizationTable) -> None:
    generic = region_branch_patterns()
    table.set_folder(scf.ForOp, None)
    table.set_patterns(scf.ForOp, ForOpIterArgsFolder(), SimplifyTrivialLoops(), *generic)
    table.set_folder(scf.IfOp, None)
    table.set_patterns(
        scf.IfOp,
        IfNotConditionSwap(),
        CombineIfs(),
        CombineNestedIfs(),
        ConditionPropagation(),
        ConvertTrivialIfToSelect(),
        RemoveEmptyElseBranch(),
        RemoveStaticCondition(),
        RemoveUnusedResults(),
        ReplaceIfYieldWithConditionOrValue(),
        *generic,
    )
    table.set_patterns(scf.WhileOp, *generic)
    table.set_patterns(scf.ExecuteRegionOp, SingleBlockExecuteInliner(), *generic)
    table.set_patterns(scf.IndexSwitchOp, FoldConstantCase(), *generic)


__all__ = ["register", "replace_op_with_region", "static_trip_count"]
