"""The enums of the sparse ops: `#gpu<mat_transpose_mode ...>`,
`#gpu<prune_2to4_spmat_flag ...>` and
`#gpu<spgemm_work_estimation_or_compute_kind ...>`, their defaults, and the
`modeA` / `modeB` / `computeType` properties built from them."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------


class TransposeMode(StrEnum):
    NON_TRANSPOSE = "NON_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    CONJUGATE_TRANSPOSE = "CONJUGATE_TRANSPOSE"


@irdl_attr_definition
class TransposeModeAttr(EnumAttribute[TransposeMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<mat_transpose_mode NON_TRANSPOSE|TRANSPOSE|CONJUGATE_TRANSPOSE>`."""

    name = "gpu.mat_transpose_mode"
    cpp_enum_name: ClassVar[str] = "::mlir::gpu::TransposeMode"


class Prune2To4SpMatFlag(StrEnum):
    NONE = "NONE"
    PRUNE_ONLY = "PRUNE_ONLY"
    PRUNE_AND_CHECK = "PRUNE_AND_CHECK"


@irdl_attr_definition
class Prune2To4SpMatFlagAttr(EnumAttribute[Prune2To4SpMatFlag], SpacedOpaqueSyntaxAttribute):
    """`#gpu<prune_2to4_spmat_flag NONE|PRUNE_ONLY|PRUNE_AND_CHECK>`."""

    name = "gpu.prune_2to4_spmat_flag"
    cpp_enum_name: ClassVar[str] = "::mlir::gpu::Prune2To4SpMatFlag"


class SpGEMMWorkEstimationOrComputeKind(StrEnum):
    WORK_ESTIMATION = "WORK_ESTIMATION"
    COMPUTE = "COMPUTE"


@irdl_attr_definition
class SpGEMMWorkEstimationOrComputeKindAttr(
    EnumAttribute[SpGEMMWorkEstimationOrComputeKind], SpacedOpaqueSyntaxAttribute
):
    """`#gpu<spgemm_work_estimation_or_compute_kind WORK_ESTIMATION|COMPUTE>`."""

    name = "gpu.spgemm_work_estimation_or_compute_kind"
    cpp_enum_name: ClassVar[str] = "::mlir::gpu::SpGEMMWorkEstimationOrComputeKind"


NON_TRANSPOSE = TransposeModeAttr(TransposeMode.NON_TRANSPOSE)
PRUNE_AND_CHECK = Prune2To4SpMatFlagAttr(Prune2To4SpMatFlag.PRUNE_AND_CHECK)


def _mode(mode: TransposeMode | TransposeModeAttr) -> TransposeModeAttr:
    return mode if isinstance(mode, TransposeModeAttr) else TransposeModeAttr(mode)


def _mode_props(
    compute_type: Attribute,
    mode_a: TransposeMode | TransposeModeAttr,
    mode_b: TransposeMode | TransposeModeAttr | None = None,
) -> dict[str, Attribute]:
    """The `modeA` (`modeB`) and `computeType` properties of the SpMV/SpMM/SDDMM/SpGEMM ops."""
    props: dict[str, Attribute] = {"modeA": _mode(mode_a)}
    if mode_b is not None:
        props["modeB"] = _mode(mode_b)
    props["computeType"] = compute_type
    return props
