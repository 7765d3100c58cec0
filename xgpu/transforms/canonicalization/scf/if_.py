"""MLIR 22's canonicalization patterns for `scf.if`: the in-place fold
swapping the regions of `if (xori c, 1)` (`IfNotConditionSwap`), then
CombineIfs, CombineNestedIfs, ConditionPropagation, ConvertTrivialIfToSelect,
RemoveEmptyElseBranch, RemoveStaticCondition, RemoveUnusedResults and
ReplaceIfYieldWithConditionOrValue."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from xgpu.dialects import arith as xgpu_arith
from xgpu.dialects import scf
from xgpu.transforms.canonicalization.arith import (
    const_attr,
    defining_op,
    inline_block,
    int_or_splat_bits,
    is_one,
)
from xgpu.transforms.canonicalization.scf.common import (
    _move_region,
    _parent_region,
    _terminator,
    replace_op_with_region,
)


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
