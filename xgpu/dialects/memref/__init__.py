"""MLIR 22's memref dialect: xDSL 0.75's, with xgpu's classes for the ops
xDSL reads, prints or verifies otherwise than mlir-opt 22 (each subclasses
xDSL's op of the same name, so `isinstance` checks against xDSL's classes
hold), and the ops xDSL lacks (realloc, generic_atomic_rmw, atomic_yield,
prefetch, reshape, transpose, distinct_objects), and MLIR's dma_start
(whose operands xDSL lays out otherwise)."""

from __future__ import annotations

from xdsl.ir import Dialect

from xgpu.dialects import xdsl_dialect
from xgpu.dialects.derive import derived_dialect
from xgpu.dialects.memref.access import (
    ACCESS_OPS,
    AtomicRMWOp,
    AtomicYieldOp,
    CopyOp,
    DimOp,
    GenericAtomicRMWOp,
    LoadOp,
    PrefetchOp,
    RankOp,
    StoreOp,
)
from xgpu.dialects.memref.alloc import (
    ALLOC_OPS,
    AllocaOp,
    AllocaScopeOp,
    AllocaScopeReturnOp,
    AllocOp,
    DeallocOp,
    GetGlobalOp,
    GlobalOp,
    ReallocOp,
)
from xgpu.dialects.memref.dma import DMA_OPS, DmaStartOp, DmaWaitOp
from xgpu.dialects.memref.metadata import (
    METADATA_OPS,
    AssumeAlignmentOp,
    DistinctObjectsOp,
    ExtractAlignedPointerAsIndexOp,
    ExtractStridedMetaDataOp,
)
from xgpu.dialects.memref.reshapes import (
    RESHAPE_OPS,
    CollapseShapeOp,
    ExpandShapeOp,
    ReshapeOp,
)
from xgpu.dialects.memref.views import (
    VIEW_OPS,
    CastOp,
    MemorySpaceCastOp,
    ReinterpretCastOp,
    SubviewOp,
    TransposeOp,
    ViewOp,
)


def dialect() -> Dialect:
    return derived_dialect(
        xdsl_dialect("memref"),
        "memref",
        ops=[*ALLOC_OPS, *ACCESS_OPS, *DMA_OPS, *METADATA_OPS, *RESHAPE_OPS, *VIEW_OPS],
    )


__all__ = [
    "AllocOp",
    "AllocaOp",
    "AllocaScopeOp",
    "AllocaScopeReturnOp",
    "AssumeAlignmentOp",
    "AtomicRMWOp",
    "AtomicYieldOp",
    "CastOp",
    "CollapseShapeOp",
    "CopyOp",
    "DeallocOp",
    "DimOp",
    "DistinctObjectsOp",
    "DmaStartOp",
    "DmaWaitOp",
    "ExpandShapeOp",
    "ExtractAlignedPointerAsIndexOp",
    "ExtractStridedMetaDataOp",
    "GenericAtomicRMWOp",
    "GetGlobalOp",
    "GlobalOp",
    "LoadOp",
    "MemorySpaceCastOp",
    "PrefetchOp",
    "RankOp",
    "ReallocOp",
    "ReinterpretCastOp",
    "ReshapeOp",
    "StoreOp",
    "SubviewOp",
    "TransposeOp",
    "ViewOp",
    "dialect",
]
