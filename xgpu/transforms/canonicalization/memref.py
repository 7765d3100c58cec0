"""MLIR 22's folders and canonicalization patterns for the memref ops.

xDSL folds no memref op, erases an alloc only when a single dealloc uses it,
and composes `memref.subview` of `memref.subview`, which MLIR's canonicalize
does not do. Here (`register` at the end) the memref ops GPU programs use get
MLIR 22's behaviour, from `MemRefOps.cpp`:

* `memref.cast` feeding `memref.load`, `memref.store` (as the memref, not as
  the stored value), `memref.dealloc`, `memref.atomic_rmw`, `memref.dim` or
  another `memref.cast` is bypassed in place (`foldMemRefCast`: any cast whose
  source is ranked); `memref.copy` bypasses only casts that merely make the
  type more dynamic (`CastOp::canFoldIntoConsumerOp`), then drops copies of an
  empty memref or of a memref onto itself. A cast to its own type is its
  operand (CastOpInterface).
* `memref.dim` with a constant in-range index: a static size is a constant,
  a dynamic one the size operand of the `memref.alloc`, `memref.alloca`,
  `memref.view` or (non rank-reducing) `memref.subview` that defines the memref;
  then gpu's `SimplifyDimOfAllocOp` (`gpu_memory`) for a `gpu.alloc`.
* `memref.alloc`/`memref.alloca`: constant non-negative dynamic sizes move
  into the type (followed by a `memref.cast` back to the old type), and an
  allocation only stored into and deallocated is erased with those users.
* `memref.rank` of a ranked memref, `memref.assume_alignment` of an
  `assume_alignment` with the same alignment, and
  `memory_space_cast(memory_space_cast(x))` fold as in MLIR.

`memref.subview`, `memref.view`, `memref.reinterpret_cast`, reshapes and
`extract_strided_metadata` get no canonicalization (MLIR's patterns for them
are not ported): such ops stay as written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects import memref as xgpu_memref
from xgpu.transforms.canonicalization.arith import (
    Folded,
    const_attr,
    defining_op,
    int_bits,
    to_signed,
)

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable


# ---------------------------------------------------------------------------
# memref.cast folding into users (MLIR's foldMemRefCast)
# ---------------------------------------------------------------------------


def _foldable_cast_source(value: SSAValue) -> SSAValue | None:
    """The source of the `memref.cast` defining `value`, unless unranked."""
    cast = defining_op(value)
    if isinstance(cast, memref.CastOp) and not isinstance(cast.source.type, UnrankedMemRefType):
        return cast.source
    return None


def _cast_operands(op: Operation, inner: SSAValue | None = None) -> list[tuple[int, SSAValue]]:
    """(index, cast source) for each operand of `op` that `foldMemRefCast(op,
    inner)` replaces."""
    found = []
    for index, operand in enumerate(op.operands):
        if inner is not None and operand == inner:
            continue
        source = _foldable_cast_source(operand)
        if source is not None:
            found.append((index, source))
    return found


class FoldMemRefCast(RewritePattern):
    """MLIR's in-place `foldMemRefCast`: operands produced by a `memref.cast`
    of a ranked memref use the cast's source (for a store or an atomic_rmw,
    not the value operand)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        inner = op.operands[0] if isinstance(op, memref.StoreOp | memref.AtomicRMWOp) else None
        found = _cast_operands(op, inner)
        if not found:
            return
        for index, source in found:
            op.operands[index] = source
        rewriter.notify_op_modified(op)


def fold_cast(op: memref.CastOp) -> Folded:
    """cast(cast(x)) is modified in place (FoldMemRefCast); a cast to its own
    type (after that, if it applies) is its operand."""
    source = _foldable_cast_source(op.source)
    if source is not None:
        return [source] if source.type == op.dest.type else None
    if op.source.type == op.dest.type:
        return [op.source]
    return None


def _strides_and_offset(type_: Attribute) -> tuple[list[int | None], int | None] | None:
    """MLIR's `getStridesAndOffset` (None: not a strided layout; a None
    stride or offset: dynamic)."""
    if not isinstance(type_, MemRefType):
        return None
    layout = type_.layout
    shape = type_.get_shape()
    identity = isinstance(layout, NoneAttr) or (
        isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(len(shape))
    )
    if identity:
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(shape):
            strides.append(running)
            running = None if running is None or size == DYNAMIC_INDEX else running * size
        return list(reversed(strides)), 0
    if isinstance(layout, StridedLayoutAttr):
        strides = [None if isinstance(s, NoneAttr) else s.data for s in layout.strides.data]
        offset = None if isinstance(layout.offset, NoneAttr) else layout.offset.data
        return strides, offset
    return None


def _more_static_to_dynamic(source: int | None, result: int | None) -> bool:
    """Whether a cast goes from a dynamic value to a static one."""
    return source != result and source is None and result is not None


def can_fold_into_consumer(cast: memref.CastOp) -> bool:
    """MLIR's `CastOp::canFoldIntoConsumerOp`: the cast only makes sizes,
    offset or strides more dynamic."""
    source, result = cast.source.type, cast.dest.type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType):
        return False
    if source.element_type != result.element_type:
        return False
    if source.get_num_dims() != result.get_num_dims():
        return False
    source_layout, result_layout = _strides_and_offset(source), _strides_and_offset(result)
    if source_layout is None or result_layout is None:
        return False

    def dyn(v: int) -> int | None:
        return None if v == DYNAMIC_INDEX else v

    for s, r in zip(source.get_shape(), result.get_shape(), strict=True):
        if _more_static_to_dynamic(dyn(s), dyn(r)):
            return False
    if _more_static_to_dynamic(source_layout[1], result_layout[1]):
        return False
    for s, r in zip(source_layout[0], result_layout[0]):
        if _more_static_to_dynamic(s, r):
            return False
    return True


class FoldCopyOfCast(RewritePattern):
    """memref.copy's in-place fold: an operand produced by a cast that only
    makes the type more dynamic uses the cast's source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter, /) -> None:
        changed = False
        for index, operand in enumerate(op.operands):
            cast = defining_op(operand)
            if isinstance(cast, memref.CastOp) and can_fold_into_consumer(cast):
                op.operands[index] = cast.source
                changed = True
        if changed:
            rewriter.notify_op_modified(op)


class FoldEmptyCopy(RewritePattern):
    """A copy from or to a memref with a zero-sized dimension is erased."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter, /) -> None:
        for operand in (op.source, op.destination):
            type_ = operand.type
            if isinstance(type_, MemRefType) and 0 in type_.get_shape():
                rewriter.erase(op)
                return


class FoldSelfCopy(RewritePattern):
    """memref.copy(%x, %x) is erased."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter, /) -> None:
        if op.source == op.destination:
            rewriter.erase(op)


# ---------------------------------------------------------------------------
# memref.dim, memref.rank
# ---------------------------------------------------------------------------


def _dim_index(op: memref.DimOp) -> int | None:
    """The constant, in-range index of a memref.dim on a ranked memref."""
    attr = const_attr(op.index)
    if not isinstance(attr, IntegerAttr):
        return None
    type_ = op.source.type
    if not isinstance(type_, MemRefType):
        return None
    bits = int_bits(attr)
    if bits is None:
        return None
    index = to_signed(bits, 64)
    if index < 0 or index >= type_.get_num_dims():
        return None
    return index


def _dynamic_position(type_: MemRefType, index: int) -> int:
    return sum(1 for d in type_.get_shape()[:index] if d == DYNAMIC_INDEX)


def _dim_of_defining_op(op: memref.DimOp, index: int) -> SSAValue | None:
    """The size operand giving dynamic dimension `index` of the memref, for an
    alloc, alloca, view or non rank-reducing subview."""
    type_ = op.source.type
    assert isinstance(type_, MemRefType)
    source = defining_op(op.source)
    position = _dynamic_position(type_, index)
    if isinstance(source, memref.AllocOp | memref.AllocaOp):
        return source.dynamic_sizes[position]
    if isinstance(source, memref.ViewOp):
        return source.sizes[position]
    if isinstance(source, memref.SubviewOp):
        source_type = source.source.type
        if (
            not isinstance(source_type, MemRefType)
            or source_type.get_num_dims() != type_.get_num_dims()
        ):
            return None
        sizes = source.static_sizes.get_values()
        if sizes[index] != DYNAMIC_INDEX:
            return None
        return source.sizes[sum(1 for s in sizes[:index] if s == DYNAMIC_INDEX)]
    return None


def fold_dim(op: memref.DimOp) -> Folded:
    index = _dim_index(op)
    if index is None:
        return None
    type_ = op.source.type
    assert isinstance(type_, MemRefType)
    size = type_.get_shape()[index]
    if size != DYNAMIC_INDEX:
        return [IntegerAttr(size, IndexType())]
    source = defining_op(op.source)
    if isinstance(source, memref.AllocOp | memref.AllocaOp | memref.ViewOp | memref.SubviewOp):
        value = _dim_of_defining_op(op, index)
        return None if value is None else [value]
    return None  # a cast source is folded in place (DimOfMemRefCast)


class DimOfMemRefCast(RewritePattern):
    """memref.dim's in-place fold: dim(cast(x)) -> dim(x), where nothing else
    folds the dim."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter, /) -> None:
        index = _dim_index(op)
        if index is None:
            return
        type_ = op.source.type
        assert isinstance(type_, MemRefType)
        if type_.get_shape()[index] != DYNAMIC_INDEX:
            return
        if isinstance(
            defining_op(op.source),
            memref.AllocOp | memref.AllocaOp | memref.ViewOp | memref.SubviewOp,
        ):
            return
        source = _foldable_cast_source(op.source)
        if source is None:
            return
        op.operands[0] = source
        rewriter.notify_op_modified(op)


def fold_rank(op: memref.RankOp) -> Folded:
    type_ = op.source.type
    if isinstance(type_, MemRefType):
        return [IntegerAttr(type_.get_num_dims(), IndexType())]
    return None


# ---------------------------------------------------------------------------
# memref.alloc, memref.alloca
# ---------------------------------------------------------------------------


class SimplifyAllocConst(RewritePattern):
    """Constant non-negative dynamic sizes of an alloc/alloca move into its
    type; a memref.cast gives back the old type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter, /
    ) -> None:
        def constant_size(value: SSAValue) -> int | None:
            bits = int_bits(const_attr(value))
            if bits is None:
                return None
            size = to_signed(bits, 64)
            return size if size >= 0 else None

        if all(constant_size(v) is None for v in op.dynamic_sizes):
            return
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        shape: list[int] = []
        dynamic: list[SSAValue] = []
        position = 0
        for size in type_.get_shape():
            if size != DYNAMIC_INDEX:
                shape.append(size)
                continue
            value = op.dynamic_sizes[position]
            position += 1
            constant = constant_size(value)
            if constant is None:
                shape.append(DYNAMIC_INDEX)
                dynamic.append(value)
            else:
                shape.append(constant)
        new_type = MemRefType(type_.element_type, shape, type_.layout, type_.memory_space)
        new_alloc = type(op).build(
            operands=[dynamic, list(op.symbol_operands)],
            result_types=[new_type],
            properties={"alignment": op.alignment},
        )
        rewriter.replace(
            op,
            [
                new_alloc,
                xgpu_memref.CastOp.build(operands=[new_alloc.memref], result_types=[type_]),
            ],
        )


class SimplifyDeadAlloc(RewritePattern):
    """An alloc/alloca whose users are only stores into it and deallocs is
    erased with them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter, /
    ) -> None:
        result = op.memref
        for use in result.uses:
            user = use.operation
            if isinstance(user, memref.StoreOp):
                if user.value == result:
                    return
            elif not isinstance(user, memref.DeallocOp):
                return
        for user in [use.operation for use in result.uses]:
            if user.parent is not None:
                rewriter.erase(user)
        rewriter.erase(op)


# ---------------------------------------------------------------------------
# memref.assume_alignment, memref.memory_space_cast
# ---------------------------------------------------------------------------


def fold_assume_alignment(op: memref.AssumeAlignmentOp) -> Folded:
    source = defining_op(op.memref)
    if isinstance(source, memref.AssumeAlignmentOp) and source.alignment == op.alignment:
        return [op.memref]
    return None


class MemorySpaceCastOfMemorySpaceCast(RewritePattern):
    """memory_space_cast(memory_space_cast(x)) -> memory_space_cast(x), in
    place."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.MemorySpaceCastOp, rewriter: PatternRewriter, /) -> None:
        inner = defining_op(op.source)
        if isinstance(inner, memref.MemorySpaceCastOp):
            op.operands[0] = inner.source
            rewriter.notify_op_modified(op)


def _gpu_dim_patterns() -> tuple[RewritePattern, ...]:
    """gpu's `SimplifyDimOfAllocOp`, rooted at memref.dim (absent until the
    gpu memory canonicalization module exists)."""
    try:
        from xgpu.transforms.canonicalization.gpu_memory import SimplifyDimOfAllocOp
    except ImportError:
        return ()
    return (SimplifyDimOfAllocOp(),)


def register(table: CanonicalizationTable) -> None:
    # For xgpu's memref classes (what the parser builds) and xDSL's (what xDSL's
    # own passes may still build).
    for module in (memref, xgpu_memref):
        _register_for(table, module)


def _register_for(table: CanonicalizationTable, memref) -> None:  # type: ignore[no-untyped-def]
    fold_cast_in_place = FoldMemRefCast()
    for op_type in (memref.LoadOp, memref.StoreOp, memref.DeallocOp, memref.AtomicRMWOp):
        table.set_folder(op_type, None)
        table.set_patterns(op_type, fold_cast_in_place)
    table.set_folder(memref.CastOp, fold_cast)
    table.set_patterns(memref.CastOp, fold_cast_in_place)
    table.set_folder(memref.CopyOp, None)
    table.set_patterns(memref.CopyOp, FoldCopyOfCast(), FoldEmptyCopy(), FoldSelfCopy())
    table.set_folder(memref.DimOp, fold_dim)
    table.set_patterns(memref.DimOp, DimOfMemRefCast(), *_gpu_dim_patterns())
    table.set_folder(memref.RankOp, fold_rank)
    for op_type in (memref.AllocOp, memref.AllocaOp):
        table.set_folder(op_type, None)
        table.set_patterns(op_type, SimplifyAllocConst(), SimplifyDeadAlloc())
    table.set_folder(memref.AssumeAlignmentOp, fold_assume_alignment)
    table.set_patterns(memref.AssumeAlignmentOp)
    table.set_patterns(memref.MemorySpaceCastOp, MemorySpaceCastOfMemorySpaceCast())
    # MLIR's canonicalize does not compose subviews (xDSL's
    # MemRefSubviewOfSubviewFolding); its own subview patterns are not ported.
    table.set_patterns(memref.SubviewOp)


__all__ = ["register"]
