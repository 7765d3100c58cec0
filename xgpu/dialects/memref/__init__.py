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

import functools
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xdsl.ir import Dialect, Operation

#: xgpu's memref ops, by the module of this package that defines them (and
#: the name of its list of them); the dialect's other ops are xDSL's
PARTS: dict[str, tuple[str, tuple[str, ...]]] = {
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


def part_ops(module: str) -> list[type[Operation]]:
    """The ops that `xgpu.dialects.memref.<module>` (a key of `PARTS`) defines."""
    lst, _ = PARTS[module]
    return list(getattr(importlib.import_module(f"{__name__}.{module}"), lst))


@functools.cache
def _where() -> dict[str, str]:
    return {name: module for module, (_, names) in PARTS.items() for name in names}


@functools.cache
def _xdsl_ops() -> dict[str, type[Operation]]:
    from xgpu.dialects import xdsl_dialect

    base = xdsl_dialect("memref")
    return {op.name: op for op in (base.operations if base is not None else ())}


def ops_for(name: str) -> list[type[Operation]]:
    """What to load for the op `name`: the ops of xgpu's module that defines
    it, or xDSL's op of that name, or nothing (no such op)."""
    module = _where().get(name)
    if module is not None:
        return part_ops(module)
    op = _xdsl_ops().get(name)
    return [op] if op is not None else []


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect
    from xgpu.dialects.derive import derived_dialect

    ops = [
        op
        for module in ("alloc", "access", "dma", "metadata", "reshapes", "views")
        for op in part_ops(module)
    ]
    return derived_dialect(xdsl_dialect("memref"), "memref", ops=ops)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [*sorted(_EXPORTS), "PARTS", "dialect", "ops_for", "part_ops"]
