"""MLIR 22's canonicalization of the kernel-side gpu ops.

* `gpu.barrier` directly followed by another `gpu.barrier` is erased: the
  threads are already synchronized (`EraseRedundantBarrier`).
* `gpu.all_reduce` and `gpu.subgroup_reduce` directly in the entry block of a
  `gpu.launch` body are executed by every thread of the launch, so their
  `uniform` flag is set (`MakeGroupOpUniform`; MLIR does it in the ops'
  folders, in place, so it is a pattern here, run after the folder).
* `gpu.subgroup_reduce ... cluster(size = 1)` folds to its operand, and a
  `gpu.subgroup_broadcast` of a `gpu.subgroup_broadcast` result folds to that
  result: these are the ops' `fold` methods (`fold_subgroup_reduce`,
  `fold_subgroup_broadcast`, called from `xgpu.dialects.gpu.subgroup`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects.gpu.kernel import BarrierOp
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.dialects.gpu.subgroup import AllReduceOp, SubgroupBroadcastOp, SubgroupReduceOp


class EraseRedundantBarrier(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BarrierOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.next_op, BarrierOp):
            rewriter.erase(op)


def can_make_group_op_uniform(op: Operation) -> bool:
    """Whether `op` is directly in the entry block of a `gpu.launch` body."""
    launch = op.parent_op()
    if not isinstance(launch, LaunchOp):
        return False
    block = op.parent_block()
    return block is not None and block is launch.body.blocks.first


class MakeGroupOpUniform(RewritePattern):
    """Set `uniform` on an all_reduce / subgroup_reduce in a launch's entry block."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AllReduceOp | SubgroupReduceOp):
            return
        if op.uniform is not None or not can_make_group_op_uniform(op):
            return
        properties = dict(op.properties)
        properties["uniform"] = UnitAttr()
        op.properties = dict(sorted(properties.items()))
        rewriter.notify_op_modified(op)


def fold_subgroup_reduce(op: SubgroupReduceOp) -> Sequence[SSAValue | Attribute] | None:
    size = op.cluster_size
    if size is not None and size.value.data == 1:
        return (op.value,)
    return None


def fold_subgroup_broadcast(op: SubgroupBroadcastOp) -> Sequence[SSAValue | Attribute] | None:
    if isinstance(op.src.owner, SubgroupBroadcastOp):
        return (op.src,)
    return None


def barrier_patterns() -> tuple[RewritePattern, ...]:
    return (EraseRedundantBarrier(),)


def group_op_patterns() -> tuple[RewritePattern, ...]:
    return (MakeGroupOpUniform(),)
