"""MLIR 22's canonicalization pattern for `scf.index_switch`: with a
constant operand it is replaced by the matching case (or the default)."""

from __future__ import annotations

from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects import scf
from xgpu.transforms.canonicalization.arith import (
    const_attr,
    inline_block_before,
    int_bits,
    to_signed,
)
from xgpu.transforms.canonicalization.scf.common import _terminator


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
