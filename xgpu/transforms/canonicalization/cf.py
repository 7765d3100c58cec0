"""cf.br / cf.cond_br: xDSL's patterns, with MLIR 22's cycle check in
`collapseBranch`.

xDSL 0.75's `collapse_branch` only refuses a successor that branches to
itself; MLIR 22 also refuses one whose chain of unconditional branches comes
back to a block already on it. Without that check a cycle of pass-through
blocks (`^bb1: cf.br ^bb2`, `^bb2: cf.br ^bb1`) makes the pass-through
patterns rewrite the branch into it forever.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import cf
from xdsl.ir import Block, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.transforms.canonicalization_patterns import cf as xdsl_cf

from xgpu.transforms.canonicalization import CanonicalizationTable


def _in_branch_cycle(successor: Block) -> bool:
    """MLIR's "Don't try to collapse branches which participate in a cycle"."""
    branch = successor.last_op
    if not isinstance(branch, cf.BranchOp) or branch.successor is successor:
        return False
    visited = {successor, branch.successor}
    next_branch = branch.successor.last_op
    while isinstance(next_branch, cf.BranchOp):
        dest = next_branch.successor
        if dest in visited:
            return True
        visited.add(dest)
        next_branch = dest.last_op
    return False


def collapse_branch(
    successor: Block, operands: Sequence[SSAValue]
) -> tuple[Block, Sequence[SSAValue]] | None:
    if _in_branch_cycle(successor):
        return None
    return xdsl_cf.collapse_branch(successor, operands)


class SimplifyPassThroughBr(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter):
        parent = op.parent_block()
        if parent is None or op.successor == parent:
            return
        collapsed = collapse_branch(op.successor, op.arguments)
        if collapsed is not None:
            rewriter.replace(op, cf.BranchOp(collapsed[0], *collapsed[1]))


class SimplifyPassThroughCondBranch(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter):
        then = collapse_branch(op.then_block, op.then_arguments)
        else_ = collapse_branch(op.else_block, op.else_arguments)
        if then is None and else_ is None:
            return
        new_then, then_args = then or (op.then_block, op.then_arguments)
        new_else, else_args = else_ or (op.else_block, op.else_arguments)
        rewriter.replace(
            op, cf.ConditionalBranchOp(op.cond, new_then, then_args, new_else, else_args)
        )


def register(table: CanonicalizationTable) -> None:
    table.set_patterns(
        cf.BranchOp, xdsl_cf.SimplifyBrToBlockWithSinglePred(), SimplifyPassThroughBr()
    )
    table.set_patterns(
        cf.ConditionalBranchOp,
        xdsl_cf.SimplifyConstCondBranchPred(),
        SimplifyPassThroughCondBranch(),
        xdsl_cf.SimplifyCondBranchIdenticalSuccessors(),
        xdsl_cf.CondBranchTruthPropagation(),
    )
