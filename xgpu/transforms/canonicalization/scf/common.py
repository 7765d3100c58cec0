"""Helpers the scf canonicalization patterns share: an op's terminator, a
value's parent region, SCF.cpp's `replaceOpWithRegion` and
`inlineRegionBefore` (`_move_region`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xgpu.transforms.canonicalization.arith import inline_block_before


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
