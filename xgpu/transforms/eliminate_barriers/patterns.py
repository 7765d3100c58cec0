"""The rewrite patterns of `gpu-eliminate-barriers` (`BarrierElimination`,
`EraseTriviallyDead`) and the pattern source the greedy driver uses: those,
and MLIR's fold hooks (xgpu's canonicalization folders and in-place folds)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xgpu.dialects.gpu.kernel import BarrierOp
from xgpu.transforms.eliminate_barriers.aliasing import barrier_is_needed
from xgpu.transforms.eliminate_barriers.memory_effects import would_be_trivially_dead
from xgpu.transforms.greedy import Fold, PatternSource

# --------------------------------------------------------------------------- #
# The patterns                                                                #
# --------------------------------------------------------------------------- #


class BarrierElimination(RewritePattern):
    """Erase a barrier that orders no conflicting pair of effects."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, BarrierOp) and not barrier_is_needed(op):
            rewriter.erase_op(op)


# MLIR fold hooks that modify their op in place, which xgpu's canonicalization
# writes as patterns (by class name, in `xgpu.transforms.canonicalization`).
_IN_PLACE_FOLDS = frozenset(
    {
        "MoveConstantOperandRight",
        "CmpiSwapConstantLeft",
        "ExtOfSameExt",
        "TruncIOfExtOrTrunc",
        "TruncFOfExtF",
        "MakeGroupOpUniform",
        "FoldMemRefCastOperands",
        "IfNotConditionSwap",
        "FoldMemRefCast",
        "FoldCopyOfCast",
        "DimOfMemRefCast",
        "MemorySpaceCastOfMemorySpaceCast",
    }
)


class EraseTriviallyDead(RewritePattern):
    """Erase an unused op that MLIR's greedy driver finds trivially dead (xgpu's
    driver decides with xDSL's effect traits, which miss some of MLIR's)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if all(not r.uses for r in op.results) and would_be_trivially_dead(op):
            rewriter.erase_op(op)


class _BarrierPatterns(PatternSource):
    """The barrier pattern, and MLIR's fold hooks (the greedy driver folds every
    op): the folders of xgpu's canonicalization and its in-place folds."""

    def __init__(self) -> None:
        from xgpu.transforms.canonicalization import CANONICALIZATION

        self._canonicalization = CANONICALIZATION
        self._pattern = (BarrierElimination(),)
        self._erase_dead = EraseTriviallyDead()

    def patterns(self, op_type: type[Operation]) -> Sequence[RewritePattern]:
        if op_type is BarrierOp:
            return self._pattern
        return (
            self._erase_dead,
            *(
                p
                for p in self._canonicalization.patterns(op_type)
                if type(p).__name__ in _IN_PLACE_FOLDS
            ),
        )

    def folder(self, op_type: type[Operation]) -> Fold | None:
        return self._canonicalization.folder(op_type)
