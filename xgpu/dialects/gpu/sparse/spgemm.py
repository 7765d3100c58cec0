"""The SpGEMM ops (`gpu.spgemm_create_descr`, `gpu.spgemm_destroy_descr`,
`gpu.spgemm_work_estimation_or_compute`, `gpu.spgemm_copy`) and the ops on a
sparse matrix's storage they go with (`gpu.spmat_get_size`,
`gpu.set_csr_pointers`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)

from xgpu.dialects.gpu.async_interface import async_token_types
from xgpu.dialects.gpu.sparse.common import _ASYNC, _MODE_A, _MODE_B, _mode_prop, _SparseOp
from xgpu.dialects.gpu.sparse.enums import (
    NON_TRANSPOSE,
    SpGEMMWorkEstimationOrComputeKind,
    SpGEMMWorkEstimationOrComputeKindAttr,
    TransposeMode,
    TransposeModeAttr,
    _mode_props,
)
from xgpu.dialects.gpu.types import AsyncTokenType, SparseSpGEMMOpHandleType, SparseSpMatHandleType
from xgpu.dialects.gpu.utils import MLIRResultNames

# ---------------------------------------------------------------------------
# SpGEMM
# ---------------------------------------------------------------------------


@irdl_op_definition
class SpGEMMCreateDescrOp(MLIRResultNames, _SparseOp):
    """`gpu.spgemm_create_descr`: a descriptor holding SpGEMM state."""

    name = "gpu.spgemm_create_descr"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("desc", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    desc = result_def(SparseSpGEMMOpHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = f"{_ASYNC} attr-dict"

    def __init__(self, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(
            operands=[deps],
            result_types=[SparseSpGEMMOpHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class SpGEMMDestroyDescrOp(_SparseOp):
    """`gpu.spgemm_destroy_descr`: release an SpGEMM descriptor."""

    name = "gpu.spgemm_destroy_descr"

    async_dependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = f"{_ASYNC} $desc attr-dict"

    def __init__(self, desc: SSAValue, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(operands=[deps, desc], result_types=[async_token_types(is_async)])


@irdl_op_definition
class SpGEMMWorkEstimationOrComputeOp(MLIRResultNames, _SparseOp):
    """`gpu.spgemm_work_estimation_or_compute`: one of the two SpGEMM phases
    (`kind`), C" = op(A) * op(B); returns the buffer size the phase needs."""

    name = "gpu.spgemm_work_estimation_or_compute"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("bufferSzNew", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    spmat_a = operand_def(SparseSpMatHandleType)
    spmat_b = operand_def(SparseSpMatHandleType)
    spmat_c = operand_def(SparseSpMatHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer_sz = operand_def(IndexType)
    buffer = operand_def(MemRefType)
    kind = prop_def(SpGEMMWorkEstimationOrComputeKindAttr)
    buffer_sz_new = result_def(IndexType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} `{{` custom<SpacedEnum>($kind) `}}` $spmat_a {_MODE_A} `,`"
        f" $spmat_b {_MODE_B} `,` $spmat_c `,` $desc `,` $buffer_sz `,` $buffer"
        " attr-dict `:` $computeType `into` type($buffer)"
    )

    def __init__(
        self,
        kind: SpGEMMWorkEstimationOrComputeKind | SpGEMMWorkEstimationOrComputeKindAttr,
        spmat_a: SSAValue,
        spmat_b: SSAValue,
        spmat_c: SSAValue,
        desc: SSAValue,
        buffer_sz: SSAValue,
        buffer: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        if not isinstance(kind, SpGEMMWorkEstimationOrComputeKindAttr):
            kind = SpGEMMWorkEstimationOrComputeKindAttr(kind)
        super().__init__(
            operands=[deps, desc, spmat_a, spmat_b, spmat_c, buffer_sz, buffer],
            result_types=[IndexType(), async_token_types(is_async)],
            properties={**_mode_props(compute_type, mode_a, mode_b), "kind": kind},
        )


@irdl_op_definition
class SpGEMMCopyOp(_SparseOp):
    """`gpu.spgemm_copy`: copy the SpGEMM result into the matrix C."""

    name = "gpu.spgemm_copy"

    async_dependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    spmat_a = operand_def(SparseSpMatHandleType)
    spmat_b = operand_def(SparseSpMatHandleType)
    spmat_c = operand_def(SparseSpMatHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $spmat_a {_MODE_A} `,` $spmat_b {_MODE_B} `,` $spmat_c `,` $desc"
        " attr-dict `:` $computeType"
    )

    def __init__(
        self,
        spmat_a: SSAValue,
        spmat_b: SSAValue,
        spmat_c: SSAValue,
        desc: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, desc, spmat_a, spmat_b, spmat_c],
            result_types=[async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a, mode_b),
        )


@irdl_op_definition
class SpMatGetSizeOp(MLIRResultNames, _SparseOp):
    """`gpu.spmat_get_size`: the rows, columns and non-zeros of a sparse matrix."""

    name = "gpu.spmat_get_size"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("rows", "cols", "nnz", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    rows = result_def(IndexType)
    cols = result_def(IndexType)
    nnz = result_def(IndexType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = f"{_ASYNC} $spmat attr-dict"

    def __init__(self, spmat: SSAValue, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(
            operands=[deps, spmat],
            result_types=[IndexType(), IndexType(), IndexType(), async_token_types(is_async)],
        )


@irdl_op_definition
class SetCsrPointersOp(_SparseOp):
    """`gpu.set_csr_pointers`: point a CSR matrix handle at new device buffers."""

    name = "gpu.set_csr_pointers"

    async_dependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    positions = operand_def(MemRefType)
    coordinates = operand_def(MemRefType)
    values = operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $spmat `,` $positions `,` $coordinates `,` $values attr-dict"
        " `:` type($positions) `,` type($coordinates) `,` type($values)"
    )

    def __init__(
        self,
        spmat: SSAValue,
        positions: SSAValue,
        coordinates: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, spmat, positions, coordinates, values],
            result_types=[async_token_types(is_async)],
        )
