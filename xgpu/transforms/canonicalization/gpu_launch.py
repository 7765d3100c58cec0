"""MLIR 22's canonicalization pattern for `gpu.launch`.

`FoldLaunchArguments`: when a grid or block size operand is the constant 1, the
matching block or thread id can only be 0, so the uses of that id (a body
argument) are replaced by an `arith.constant 0 : index` created at the start of
the body (one constant for all the ids folded in one application). The size
arguments of the body are left alone. Ids without uses are skipped, so the
pattern does not fire again once the ids are replaced.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.transforms.constants import constant_value


def _is_constant_one(value: SSAValue) -> bool:
    """MLIR's `m_One()` on an index value."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    attr = constant_value(owner)
    return isinstance(attr, IntegerAttr) and attr.value.data == 1


class FoldLaunchArguments(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: LaunchOp, rewriter: PatternRewriter) -> None:
        entry = op.body.blocks.first
        if entry is None:
            return
        zero: SSAValue | None = None
        sizes = (
            op.grid_size_x,
            op.grid_size_y,
            op.grid_size_z,
            op.block_size_x,
            op.block_size_y,
            op.block_size_z,
        )
        ids = (*op.block_ids, *op.thread_ids)
        for id_arg, size in zip(ids, sizes, strict=True):
            if not _is_constant_one(size) or id_arg.first_use is None:
                continue
            if zero is None:
                constant = arith.ConstantOp(IntegerAttr(0, IndexType()))
                # MLIR's name for it; xDSL would give it the first id's name.
                constant.result.name_hint = "c0"
                rewriter.insert(constant, InsertPoint.at_start(entry))
                zero = constant.result
            rewriter.replace_all_uses_with(id_arg, zero)


def launch_patterns() -> tuple[RewritePattern, ...]:
    return (FoldLaunchArguments(),)
