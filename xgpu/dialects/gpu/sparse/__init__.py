"""The sparse (cuSPARSE-style) host ops and their enums.

Host-side ops that create and destroy dense-tensor / sparse-matrix / SpGEMM
handles and run SpMV, SpMM, SDDMM and SpGEMM on them. Every op implements the
async-op interface: `async` makes it return a `!gpu.async.token`, `[%deps]`
lists the tokens it waits for.

Enums: `#gpu<mat_transpose_mode ...>` (printed `{TRANSPOSE}` after a matrix
operand and elided when it is the default NON_TRANSPOSE),
`#gpu<prune_2to4_spmat_flag ...>` and
`#gpu<spgemm_work_estimation_or_compute_kind ...>` (both printed `{FLAG}`).

One module per concern: `enums` (the enums, their defaults, the mode
properties), `common` (the `SpacedEnum` directive and the ops' base class),
`handles` (create/destroy dense tensors and sparse matrices), `compute`
(SpMV, SpMM, SDDMM and their buffer sizes), `spgemm` (SpGEMM, spmat_get_size,
set_csr_pointers). This package is the catalog's `sparse` module: it exposes
`OPS` and `ATTRS` and is imported only when the input names one of its ops or
attributes.
"""

from __future__ import annotations

from xgpu.dialects.gpu.sparse.common import SpacedEnum
from xgpu.dialects.gpu.sparse.compute import (
    SDDMMBufferSizeOp,
    SDDMMOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SpMVBufferSizeOp,
    SpMVOp,
)
from xgpu.dialects.gpu.sparse.enums import (
    NON_TRANSPOSE,
    PRUNE_AND_CHECK,
    Prune2To4SpMatFlag,
    Prune2To4SpMatFlagAttr,
    SpGEMMWorkEstimationOrComputeKind,
    SpGEMMWorkEstimationOrComputeKindAttr,
    TransposeMode,
    TransposeModeAttr,
)
from xgpu.dialects.gpu.sparse.handles import (
    Create2To4SpMatOp,
    CreateBsrOp,
    CreateCooAoSOp,
    CreateCooOp,
    CreateCscOp,
    CreateCsrOp,
    CreateDnTensorOp,
    DestroyDnTensorOp,
    DestroySpMatOp,
)
from xgpu.dialects.gpu.sparse.spgemm import (
    SetCsrPointersOp,
    SpGEMMCopyOp,
    SpGEMMCreateDescrOp,
    SpGEMMDestroyDescrOp,
    SpGEMMWorkEstimationOrComputeOp,
    SpMatGetSizeOp,
)

OPS: list[type] = [
    CreateDnTensorOp,
    DestroyDnTensorOp,
    CreateCooOp,
    CreateCooAoSOp,
    CreateCsrOp,
    CreateCscOp,
    CreateBsrOp,
    Create2To4SpMatOp,
    DestroySpMatOp,
    SpMVBufferSizeOp,
    SpMVOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SDDMMBufferSizeOp,
    SDDMMOp,
    SpGEMMCreateDescrOp,
    SpGEMMDestroyDescrOp,
    SpGEMMWorkEstimationOrComputeOp,
    SpGEMMCopyOp,
    SpMatGetSizeOp,
    SetCsrPointersOp,
]
ATTRS: list[type] = [
    TransposeModeAttr,
    Prune2To4SpMatFlagAttr,
    SpGEMMWorkEstimationOrComputeKindAttr,
]

__all__ = [
    "ATTRS",
    "OPS",
    "TransposeMode",
    "TransposeModeAttr",
    "Prune2To4SpMatFlag",
    "Prune2To4SpMatFlagAttr",
    "SpGEMMWorkEstimationOrComputeKind",
    "SpGEMMWorkEstimationOrComputeKindAttr",
    "NON_TRANSPOSE",
    "PRUNE_AND_CHECK",
    "SpacedEnum",
    "CreateDnTensorOp",
    "DestroyDnTensorOp",
    "CreateCooOp",
    "CreateCooAoSOp",
    "CreateCsrOp",
    "CreateCscOp",
    "CreateBsrOp",
    "Create2To4SpMatOp",
    "DestroySpMatOp",
    "SpMVBufferSizeOp",
    "SpMVOp",
    "SpMMBufferSizeOp",
    "SpMMOp",
    "SDDMMBufferSizeOp",
    "SDDMMOp",
    "SpGEMMCreateDescrOp",
    "SpGEMMDestroyDescrOp",
    "SpGEMMWorkEstimationOrComputeOp",
    "SpGEMMCopyOp",
    "SpMatGetSizeOp",
    "SetCsrPointersOp",
]
