"""Region simplification at MLIR's aggressive level, as the greedy driver of
`gpu-eliminate-barriers` does it after each round: xgpu's normal
simplification, then identical blocks merged (`merge_identical_blocks`) and
block arguments that every predecessor gives the same value dropped
(`drop_redundant_arguments`); `simplify_regions_aggressively` runs them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import cf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import Rewriter

from xgpu.transforms.region_simplify import simplify_regions

# --------------------------------------------------------------------------- #
# Region simplification at MLIR's aggressive level: merging identical blocks  #
# and dropping block arguments every predecessor gives the same value         #
# --------------------------------------------------------------------------- #


def _successor_operands(term: Operation, index: int) -> Sequence[SSAValue] | None:
    """The operands `term` (a `cf` branch) passes to its successor `index`,
    or None when it is not a branch xgpu can update."""
    if isinstance(term, cf.BranchOp):
        return term.arguments
    if isinstance(term, cf.ConditionalBranchOp):
        return term.then_arguments if index == 0 else term.else_arguments
    return None


def _set_successor_operands(
    term: Operation, operands: dict[int, Sequence[SSAValue]], listener: PatternRewriterListener
) -> None:
    """Rebuild the branch `term` with new operands for some successors."""
    if isinstance(term, cf.BranchOp):
        new: Operation = cf.BranchOp(term.successor, *operands.get(0, term.arguments))
    else:
        assert isinstance(term, cf.ConditionalBranchOp)
        new = cf.ConditionalBranchOp(
            term.cond,
            term.then_block,
            operands.get(0, term.then_arguments),
            term.else_block,
            operands.get(1, term.else_arguments),
        )
        for key, value in term.properties.items():
            if key != "operandSegmentSizes":
                new.properties[key] = value
    new.attributes.update(term.attributes)
    listener.handle_operation_removal(term)
    Rewriter.replace_op(term, new)
    listener.handle_operation_insertion(new)


def _predecessor_edges(block: Block) -> list[tuple[Operation, int]]:
    return [(use.operation, use.index) for use in block.uses]


def _is_branch(op: Operation) -> bool:
    return isinstance(op, cf.BranchOp | cf.ConditionalBranchOp)


def _ops_equivalent(lhs: Operation, rhs: Operation) -> bool:
    """MLIR's `OperationEquivalence::isEquivalentTo` ignoring operand values
    and locations (ops without regions)."""
    return (
        lhs.name == rhs.name
        and (not isinstance(lhs, UnregisteredOp) or lhs.op_name == rhs.op_name)  # type: ignore[attr-defined]
        and len(lhs.operands) == len(rhs.operands)
        and len(lhs.successors) == len(rhs.successors)
        and len(lhs.regions) == len(rhs.regions)
        and [r.type for r in lhs.results] == [r.type for r in rhs.results]
        and lhs.properties == rhs.properties
        and lhs.attributes == rhs.attributes
    )


def _value_order(block: Block, value: SSAValue) -> int:
    """MLIR's `BlockEquivalenceData::getOrderOf`."""
    if isinstance(value, BlockArgument):
        return value.index
    order = len(block.args)
    for op in block.ops:
        if op is value.owner:
            return order + value.index  # type: ignore[attr-defined]
        order += len(op.results)
    raise AssertionError("value not defined in block")


def _used_outside(value: SSAValue, block: Block) -> bool:
    """MLIR's `Value::isUsedOutsideOfBlock` (a user nested in an op of the
    block counts as outside)."""
    return any(use.operation.parent_block() is not block for use in value.uses)


def _block_of(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.owner.parent_block()  # type: ignore[union-attr]


def _mismatches(leader: Block, other: Block) -> list[tuple[int, int]] | None:
    """The (op, operand) positions where `other` differs from `leader` by an
    outside value, or None when the blocks cannot be merged."""
    if leader.arg_types != other.arg_types:
        return None
    lhs_ops, rhs_ops = list(leader.ops), list(other.ops)
    if len(lhs_ops) != len(rhs_ops):
        return None
    mismatched: list[tuple[int, int]] = []
    for index, (lhs, rhs) in enumerate(zip(lhs_ops, rhs_ops)):
        if not _ops_equivalent(lhs, rhs):
            return None
        for position, (a, b) in enumerate(zip(lhs.operands, rhs.operands)):
            if a is b:
                continue
            if a.type != b.type:
                return None
            a_inside, b_inside = _block_of(a) is leader, _block_of(b) is other
            if a_inside != b_inside:
                return None
            if not a_inside:
                for block, value in ((leader, a), (other, b)):
                    owner_block = _block_of(value)
                    if (
                        isinstance(value, OpResult)
                        and owner_block is not None
                        and value.owner is owner_block.last_op
                        and owner_block in block.predecessors()
                    ):
                        return None
                mismatched.append((index, position))
                continue
            if _value_order(leader, a) != _value_order(other, b):
                return None
        if any(_used_outside(r, other) for r in rhs.results) or any(
            _used_outside(r, leader) for r in lhs.results
        ):
            return None
    return mismatched


def _merge_cluster(
    leader: Block,
    members: list[Block],
    operands: set[tuple[int, int]],
    listener: PatternRewriterListener,
) -> bool:
    if not members:
        return False
    if operands:
        for block in (leader, *members):
            if not all(_is_branch(op) for op, _ in _predecessor_edges(block)):
                return False
        blocks = [leader, *members]
        op_lists = [list(b.ops) for b in blocks]
        num_old = len(leader.args)
        new_arguments: list[list[SSAValue]] = [[] for _ in blocks]
        for op_index, position in sorted(operands):
            for i, ops in enumerate(op_lists):
                op = ops[op_index]
                value = op.operands[position]
                new_arguments[i].append(value)
                if i == 0:
                    arg = leader.insert_arg(value.type, len(leader.args))
                    op.operands = [*op.operands[:position], arg, *op.operands[position + 1 :]]
        new_arguments = _prune_redundant_arguments(new_arguments, num_old, leader)
        for i, block in enumerate(blocks):
            for term, succ_index in _predecessor_edges(block):
                current = _successor_operands(term, succ_index)
                assert current is not None
                _set_successor_operands(term, {succ_index: [*current, *new_arguments[i]]}, listener)
    for block in members:
        for term, succ_index in _predecessor_edges(block):
            successors = list(term.successors)
            successors[succ_index] = leader
            term.successors = successors
        for op in reversed(list(block.ops)):
            listener.handle_operation_removal(op)
        region = block.parent
        assert region is not None
        region.detach_block(block)
        block.erase(safe_erase=False)
    return True


def _prune_redundant_arguments(
    new_arguments: list[list[SSAValue]], num_old: int, leader: Block
) -> list[list[SSAValue]]:
    """Drop new arguments that repeat an earlier one in every list."""
    if not new_arguments or not new_arguments[0]:
        return new_arguments
    count = len(new_arguments[0])
    first_index: dict[SSAValue, int] = {}
    for j, value in enumerate(new_arguments[0]):
        first_index.setdefault(value, j)
    replacement: dict[int, int] = {}
    for j in range(count):
        k = first_index[new_arguments[0][j]]
        if k == j:
            continue
        if all(lst[k] is lst[j] for lst in new_arguments[1:]):
            replacement[j] = k
    pruned = [[lst[j] for j in range(count) if j not in replacement] for lst in new_arguments]
    args = leader.args
    for j, k in replacement.items():
        args[num_old + j].replace_all_uses_with(args[num_old + k])
    for j in sorted(replacement, reverse=True):
        leader.erase_arg(leader.args[num_old + j])
    return pruned


def merge_identical_blocks(region: Region, listener: PatternRewriterListener) -> bool:
    """MLIR's `mergeIdenticalBlocks` on one region."""
    blocks = list(region.blocks)
    if len(blocks) < 2:
        return False
    groups: dict[tuple[int, ...], list[Block]] = {}
    for block in blocks[1:]:
        term = block.last_op
        key = tuple(id(b) for b in term.successors) if term is not None else ()
        groups.setdefault(key, []).append(block)
    merged = False
    for group in groups.values():
        if len(group) == 1:
            continue
        clusters: list[tuple[Block, list[Block], set[tuple[int, int]]]] = []
        for block in group:
            if any(r.blocks for op in block.ops for r in op.regions):
                continue
            if any(_used_outside(arg, block) for arg in block.args):
                continue
            for leader, members, operands in clusters:
                found = _mismatches(leader, block)
                if found is not None:
                    members.append(block)
                    operands.update(found)
                    break
            else:
                clusters.append((block, [], set()))
        for leader, members, operands in clusters:
            merged |= _merge_cluster(leader, members, operands, listener)
    return merged


def drop_redundant_arguments(block: Block, listener: PatternRewriterListener) -> bool:
    """MLIR's `dropRedundantArguments`: an argument every predecessor gives the
    same value is replaced by that value."""
    edges = _predecessor_edges(block)
    to_erase: list[int] = []
    for index, arg in enumerate(block.args):
        common: SSAValue | None = None
        same = True
        for term, succ_index in edges:
            operands = _successor_operands(term, succ_index)
            if operands is None:
                same = False
                break
            value = operands[index]
            if common is None:
                common = value
            elif value is not common:
                same = False
                break
        if common is not None and same:
            to_erase.append(index)
            arg.replace_all_uses_with(common)
    for index in reversed(to_erase):
        block.erase_arg(block.args[index])
        for term, succ_index in _predecessor_edges(block):
            operands = list(_successor_operands(term, succ_index) or ())
            del operands[index]
            _set_successor_operands(term, {succ_index: operands}, listener)
    return bool(to_erase)


def _all_regions(region: Region) -> list[Region]:
    found = [region]
    for block in region.blocks:
        for op in block.ops:
            for nested in op.regions:
                found.extend(_all_regions(nested))
    return found


def simplify_regions_aggressively(region: Region, listener: PatternRewriterListener) -> bool:
    """MLIR's `simplifyRegions` at the aggressive level (what
    `applyPatternsGreedily` does by default): xgpu's normal simplification,
    then identical blocks merged, then redundant block arguments dropped."""
    changed = simplify_regions(region, listener)
    worklist = [region]
    while worklist:
        current = worklist.pop()
        if merge_identical_blocks(current, listener):
            worklist.append(current)
            changed = True
        for block in current.blocks:
            for op in block.ops:
                worklist.extend(op.regions)
    for current in _all_regions(region):
        for block in list(current.blocks):
            changed |= drop_redundant_arguments(block, listener)
    return changed
