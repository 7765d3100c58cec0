"""Region simplification run after each greedy iteration (MLIR's
`simplifyRegions` at the "normal" level): erase unreachable blocks, then a
liveness-based dead code elimination that also removes ops kept alive only by
each other and unused arguments of non-entry blocks reached by `cf` branches.
Blocks are not merged (that is MLIR's "aggressive" level, not canonicalize's
default).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import cf
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator

from xgpu.transforms.effects import would_be_trivially_dead


def simplify_regions(region: Region, listener: PatternRewriterListener) -> bool:
    changed = erase_unreachable_blocks(region, listener)
    changed |= region_dce(region, listener)
    return changed


def _successor_args(term: Operation) -> list[tuple[Sequence[SSAValue], Block]] | None:
    if isinstance(term, cf.BranchOp):
        return [(term.arguments, term.successor)]
    if isinstance(term, cf.ConditionalBranchOp):
        return [(term.then_arguments, term.then_block), (term.else_arguments, term.else_block)]
    return None


def erase_unreachable_blocks(region: Region, listener: PatternRewriterListener) -> bool:
    changed = False
    pending = [region]
    while pending:
        current = pending.pop()
        blocks = list(current.blocks)
        if len(blocks) > 1:
            reachable = {id(blocks[0])}
            stack = [blocks[0]]
            while stack:
                block = stack.pop()
                term = block.last_op
                if term is None:
                    continue
                for succ in term.successors:
                    if id(succ) not in reachable:
                        reachable.add(id(succ))
                        stack.append(succ)
            dead = [b for b in blocks if id(b) not in reachable]
            for block in dead:
                for op in reversed(list(block.ops)):
                    listener.handle_operation_removal(op)
                    Rewriter.erase_op(op, safe_erase=False)
                current.detach_block(block)
                block.erase(safe_erase=False)
                changed = True
            blocks = [b for b in blocks if id(b) in reachable]
        for block in blocks:
            for op in block.ops:
                pending.extend(op.regions)
    return changed


class _Liveness:
    def __init__(self) -> None:
        self.live: set[int] = set()
        self.changed = False

    def mark(self, item: object) -> None:
        key = id(item)
        if key not in self.live:
            self.live.add(key)
            self.changed = True

    def __contains__(self, item: object) -> bool:
        return id(item) in self.live


def _use_known_dead(operation: Operation, index: int, live: _Liveness) -> bool:
    """A branch operand feeding a dead successor argument is not a use."""
    targets = _successor_args(operation)
    if targets is None:
        return False
    offset = 0
    if isinstance(operation, cf.ConditionalBranchOp):
        offset = 1  # the condition
        if index == 0:
            return False
    position = index - offset
    for args, block in targets:
        if position < len(args):
            return block.args[position] not in live
        position -= len(args)
    return False


def _value_live(value: SSAValue, live: _Liveness) -> bool:
    for use in value.uses:
        if _use_known_dead(use.operation, use.index, live):
            continue
        if use.operation in live:
            return True
    return False


def _propagate_region(region: Region, live: _Liveness) -> None:
    for block in reversed(list(region.blocks)):
        for op in reversed(list(block.ops)):
            for nested in op.regions:
                _propagate_region(nested, live)
            if op.has_trait(IsTerminator):
                live.mark(op)
                continue
            if op in live:
                continue
            if not would_be_trivially_dead(op):
                live.mark(op)
                continue
            for result in op.results:
                if _value_live(result, live):
                    live.mark(result)
                    live.mark(op)
        for arg in block.args:
            if arg not in live and _value_live(arg, live):
                live.mark(arg)


def _delete_dead(region: Region, live: _Liveness, listener: PatternRewriterListener) -> bool:
    changed = False
    blocks = list(region.blocks)
    for index, block in enumerate(blocks):
        for op in reversed(list(block.ops)):
            if op not in live:
                listener.handle_operation_removal(op)
                Rewriter.erase_op(op, safe_erase=False)
                changed = True
                continue
            for nested in op.regions:
                changed |= _delete_dead(nested, live, listener)
        if index == 0 or not block.args:
            continue
        preds = [
            pred for pred in blocks if pred.last_op is not None and block in pred.last_op.successors
        ]
        if not all(_successor_args(p.last_op) is not None for p in preds):  # type: ignore[arg-type]
            continue
        for arg in reversed(list(block.args)):
            if arg in live:
                continue
            position = arg.index
            for pred in preds:
                term = pred.last_op
                _drop_successor_operand(term, block, position)  # type: ignore[arg-type]
                listener.handle_operation_modification(term)  # type: ignore[arg-type]
            block.erase_arg(arg, safe_erase=False)
            changed = True
    return changed


def _drop_successor_operand(term: Operation, block: Block, position: int) -> None:
    if isinstance(term, cf.BranchOp):
        args = list(term.arguments)
        del args[position]
        term.operands = args
        return
    assert isinstance(term, cf.ConditionalBranchOp)
    then_args = list(term.then_arguments)
    else_args = list(term.else_arguments)
    if term.then_block is block:
        del then_args[position]
    if term.else_block is block:
        del else_args[position]
    term.operands = [term.cond, *then_args, *else_args]
    term.properties["operandSegmentSizes"] = type(term.properties["operandSegmentSizes"]).from_list(
        term.properties["operandSegmentSizes"].elt_type, [1, len(then_args), len(else_args)]
    )  # type: ignore[attr-defined]


def region_dce(region: Region, listener: PatternRewriterListener) -> bool:
    live = _Liveness()
    live.changed = True
    while live.changed:
        live.changed = False
        _propagate_region(region, live)
    return _delete_dead(region, live, listener)
