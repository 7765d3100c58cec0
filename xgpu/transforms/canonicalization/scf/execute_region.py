"""MLIR 22's canonicalization pattern for `scf.execute_region`: a
single-block region is inlined (unless `no_inline`)."""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects import scf
from xgpu.transforms.canonicalization.scf.common import replace_op_with_region


class SingleBlockExecuteInliner(RewritePattern):
    """An scf.execute_region of one block is replaced by its body."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /) -> None:
        no_inline = "no_inline" in op.properties or "no_inline" in op.attributes
        if len(op.region.blocks) != 1 or no_inline:
            return
        replace_op_with_region(rewriter, op, op.region)
