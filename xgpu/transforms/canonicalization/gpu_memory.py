"""MLIR 22's canonicalization of the gpu memory ops.

* `gpu.memcpy`, `gpu.memset`: MLIR's folder (`memref::foldMemRefCast`) makes an
  operand produced by a `memref.cast` use the cast's source instead, unless
  that source is an unranked memref. It folds in place, so it is written here
  as a pattern (`FoldMemRefCastOperands`) listed before the others.
* `gpu.memcpy`: `EraseTrivialCopyOp` drops a copy into a buffer that nothing
  reads: the destination is allocated by its defining op (whose only effect on
  it is the allocation) and every other user only frees it. The copy goes only
  when it has no dependency and no token (a blocking copy), or exactly one
  dependency and a token (the token then stands for that dependency).
* `memref.dim` of a `gpu.alloc` result, on a dynamic dimension given by a
  constant index: the matching dynamic size operand of the alloc
  (`SimplifyDimOfAllocOp`). MLIR registers it with `gpu.alloc` but roots it at
  `memref.dim`; xgpu lists it with memref.dim's patterns (see
  `xgpu.transforms.canonicalization.memref`).
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, MemRefType, UnrankedMemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.traits import MemoryEffect, MemoryEffectKind, RecursiveMemoryEffect

from xgpu.dialects.gpu.host import AllocOp, MemcpyOp, MemsetOp
from xgpu.transforms.constants import constant_value

# ---------------------------------------------------------------------------
# Memory effects on one value (MLIR's `hasSingleEffect<Effect>(op, value)`)
# ---------------------------------------------------------------------------


def _effect_kinds_on(op: Operation, value: SSAValue) -> list[MemoryEffectKind] | None:
    """The kinds of the memory effects `op` has on `value`, or None when `op`
    declares no (known) memory effects, as an op without MLIR's
    `MemoryEffectOpInterface`.

    xDSL's effect traits often name no value (`memref.alloc`, `memref.dealloc`,
    `memref.store`, ...) where MLIR attaches the effect to an operand or a
    result: a value-less allocation is taken to be on the op's results (as in
    `xgpu.transforms.effects`), any other value-less effect on every operand
    and result."""
    traits = [
        t for t in op.get_traits_of_type(MemoryEffect) if not isinstance(t, RecursiveMemoryEffect)
    ]
    if not traits:
        return None
    kinds: list[MemoryEffectKind] = []
    for trait in traits:
        effects = trait.get_effects(op)
        if effects is None:
            return None
        for effect in effects:
            target = effect.value
            if target is None:
                if effect.kind is MemoryEffectKind.ALLOC:
                    hit = any(value is r for r in op.results)
                else:
                    hit = any(value is v for v in op.operands) or any(
                        value is r for r in op.results
                    )
            else:
                hit = target is value
            if hit:
                kinds.append(effect.kind)
    return kinds


def has_single_effect(op: Operation, value: SSAValue, kind: MemoryEffectKind) -> bool:
    """Whether `op` has effects on `value`, all of them of `kind`."""
    kinds = _effect_kinds_on(op, value)
    return bool(kinds) and all(k is kind for k in kinds)


# ---------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------


class FoldMemRefCastOperands(RewritePattern):
    """MLIR's `memref::foldMemRefCast` folder of gpu.memcpy and gpu.memset:
    operands produced by `memref.cast` (of a ranked memref) use the cast's
    source. Modifies the op in place."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, MemcpyOp | MemsetOp):
            return
        folded = False
        for index, operand in enumerate(op.operands):
            cast = operand.owner
            if not isinstance(cast, memref.CastOp):
                continue
            source = cast.source
            if isinstance(source.type, UnrankedMemRefType):
                continue
            op.operands[index] = source
            folded = True
        if folded:
            rewriter.notify_op_modified(op)


class EraseTrivialCopyOp(RewritePattern):
    """Erase a gpu.memcpy whose destination is only allocated, copied to and
    freed."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MemcpyOp, rewriter: PatternRewriter) -> None:
        dest = op.dst
        dest_def = dest.owner
        if not isinstance(dest_def, Operation) or not has_single_effect(
            dest_def, dest, MemoryEffectKind.ALLOC
        ):
            return
        for use in dest.uses:
            user = use.operation
            if user is not op and not has_single_effect(user, dest, MemoryEffectKind.FREE):
                return
        dependencies = op.async_dependencies
        has_token = op.async_token is not None
        if len(dependencies) > 1 or (not dependencies) == has_token:
            return
        rewriter.replace(op, [], list(dependencies))


class SimplifyDimOfAllocOp(RewritePattern):
    """`memref.dim` of a `gpu.alloc` result on a dynamic dimension: the alloc's
    size operand for that dimension. Rooted at memref.dim."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        index_def = op.index.owner
        if not isinstance(index_def, Operation):
            return
        index_attr = constant_value(index_def)
        if not isinstance(index_attr, IntegerAttr):
            return
        index = index_attr.value.data
        memref_type = op.source.type
        if not isinstance(memref_type, MemRefType):
            return
        shape = memref_type.get_shape()
        if index < 0 or index >= len(shape) or shape[index] != DYNAMIC_INDEX:
            return
        alloc = op.source.owner
        if not isinstance(alloc, AllocOp):
            return
        dynamic_index = sum(1 for d in shape[:index] if d == DYNAMIC_INDEX)
        rewriter.replace(op, [], [alloc.dynamic_sizes[dynamic_index]])


def memcpy_patterns() -> tuple[RewritePattern, ...]:
    return (FoldMemRefCastOperands(), EraseTrivialCopyOp())


def memset_patterns() -> tuple[RewritePattern, ...]:
    return (FoldMemRefCastOperands(),)
