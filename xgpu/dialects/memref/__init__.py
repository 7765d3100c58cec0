"""MLIR 22's memref dialect: xDSL 0.75's, with xgpu's classes for the ops
xDSL reads, prints or verifies otherwise than mlir-opt 22 (each subclasses
xDSL's op of the same name, so `isinstance` checks against xDSL's classes
hold), and the ops xDSL lacks (realloc, generic_atomic_rmw, atomic_yield,
prefetch, reshape, transpose, distinct_objects), and MLIR's dma_start
(whose operands xDSL lays out otherwise).

The package imports none of its modules: `dialect()` builds the whole
dialect, and xgpu's contexts (`xgpu.ir.context.XGpuContext`) load the ops
one part at a time through `ops_for` (a program that only loads and stores
imports `access`, not the views, reshapes, allocations, ...). `PARTS` says
which module defines which op.
"""

from __future__ import annotations

from typing import Any

from xgpu.dialects.derive import DialectParts

#: xgpu's memref ops, by the module of this package that defines them (and
#: the name of its list of them); the dialect's other ops are xDSL's
PARTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "alloc": (
        "ALLOC_OPS",
        (
            "memref.alloc",
            "memref.alloca",
            "memref.realloc",
            "memref.dealloc",
            "memref.alloca_scope",
            "memref.alloca_scope.return",
            "memref.global",
            "memref.get_global",
        ),
    ),
    "access": (
        "ACCESS_OPS",
        (
            "memref.load",
            "memref.store",
            "memref.atomic_rmw",
            "memref.generic_atomic_rmw",
            "memref.atomic_yield",
            "memref.prefetch",
            "memref.copy",
            "memref.dim",
            "memref.rank",
        ),
    ),
    "dma": (
        "DMA_OPS",
        (
            "memref.dma_start",
            "memref.dma_wait",
        ),
    ),
    "metadata": (
        "METADATA_OPS",
        (
            "memref.distinct_objects",
            "memref.extract_strided_metadata",
            "memref.extract_aligned_pointer_as_index",
            "memref.assume_alignment",
        ),
    ),
    "reshapes": (
        "RESHAPE_OPS",
        (
            "memref.expand_shape",
            "memref.collapse_shape",
            "memref.reshape",
        ),
    ),
    "views": (
        "VIEW_OPS",
        (
            "memref.cast",
            "memref.memory_space_cast",
            "memref.subview",
            "memref.reinterpret_cast",
            "memref.view",
            "memref.transpose",
        ),
    ),
}

#: the classes the package exports, by their module
_EXPORTS: dict[str, str] = {
    "AllocOp": "alloc",
    "AllocaOp": "alloc",
    "AllocaScopeOp": "alloc",
    "AllocaScopeReturnOp": "alloc",
    "AssumeAlignmentOp": "metadata",
    "AtomicRMWOp": "access",
    "AtomicYieldOp": "access",
    "CastOp": "views",
    "CollapseShapeOp": "reshapes",
    "CopyOp": "access",
    "DeallocOp": "alloc",
    "DimOp": "access",
    "DistinctObjectsOp": "metadata",
    "DmaStartOp": "dma",
    "DmaWaitOp": "dma",
    "ExpandShapeOp": "reshapes",
    "ExtractAlignedPointerAsIndexOp": "metadata",
    "ExtractStridedMetaDataOp": "metadata",
    "GenericAtomicRMWOp": "access",
    "GetGlobalOp": "alloc",
    "GlobalOp": "alloc",
    "LoadOp": "access",
    "MemorySpaceCastOp": "views",
    "PrefetchOp": "access",
    "RankOp": "access",
    "ReallocOp": "alloc",
    "ReinterpretCastOp": "views",
    "ReshapeOp": "reshapes",
    "StoreOp": "access",
    "SubviewOp": "views",
    "TransposeOp": "views",
    "ViewOp": "views",
}


_PARTS = DialectParts(__name__, "memref", PARTS, _EXPORTS)
part_ops = _PARTS.part_ops
ops_for = _PARTS.ops_for
dialect = _PARTS.dialect


def __getattr__(name: str) -> Any:
    return _PARTS.export(name)


__all__ = [*sorted(_EXPORTS), "PARTS", "dialect", "ops_for", "part_ops"]
