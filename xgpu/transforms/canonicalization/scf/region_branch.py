"""The RegionBranchOpInterface patterns MLIR 22 registers for scf.for, scf.if,
scf.while, scf.execute_region and scf.index_switch after their own:
`MakeRegionBranchOpSuccessorInputsDead`, `RemoveDuplicateSuccessorInputUses`
and `RemoveDeadRegionBranchOpSuccessorInputs`, with the successor edges they
work on (`successor_edges`) and `erase_op_results`."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xgpu.dialects import scf
from xgpu.transforms.canonicalization.scf.common import _move_region, _parent_region, _terminator

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
