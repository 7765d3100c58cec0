"""The SpMV, SpMM and SDDMM ops and their buffer-size queries
(`gpu.spmv_buffer_size`, `gpu.spmv`, `gpu.spmm_buffer_size`, `gpu.spmm`,
`gpu.sddmm_buffer_size`, `gpu.sddmm`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    irdl_op_definition,
    operand_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)

from xgpu.dialects.gpu.async_interface import async_token_types
from xgpu.dialects.gpu.sparse.common import _ASYNC, _MODE_A, _MODE_B, _mode_prop, _SparseOp
from xgpu.dialects.gpu.sparse.enums import (
    NON_TRANSPOSE,
    TransposeMode,
    TransposeModeAttr,
    _mode_props,
)
from xgpu.dialects.gpu.types import AsyncTokenType, SparseDnTensorHandleType, SparseSpMatHandleType
from xgpu.dialects.gpu.utils import MLIRResultNames

# ---------------------------------------------------------------------------
# SpMV / SpMM / SDDMM
# ---------------------------------------------------------------------------


@irdl_op_definition
class SpMVBufferSizeOp(MLIRResultNames, _SparseOp):
    """`gpu.spmv_buffer_size`: the workspace size that `gpu.spmv` needs."""

    name = "gpu.spmv_buffer_size"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("bufferSz", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    spmat_a = operand_def(SparseSpMatHandleType)
    dn_x = operand_def(SparseDnTensorHandleType)
    dn_y = operand_def(SparseDnTensorHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer_sz = result_def(IndexType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $spmat_a {_MODE_A} `,` $dn_x `,` $dn_y attr-dict `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: SSAValue,
        dn_x: SSAValue,
        dn_y: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, spmat_a, dn_x, dn_y],
            result_types=[IndexType(), async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a),
        )


@irdl_op_definition
class SpMVOp(_SparseOp):
    """`gpu.spmv`: y = op(A) * x with a sparse A and dense vectors x, y."""

    name = "gpu.spmv"

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    spmat_a = operand_def(SparseSpMatHandleType)
    dn_x = operand_def(SparseDnTensorHandleType)
    dn_y = operand_def(SparseDnTensorHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer = operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $spmat_a {_MODE_A} `,` $dn_x `,` $dn_y `,` $buffer attr-dict"
        " `:` type($buffer) `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: SSAValue,
        dn_x: SSAValue,
        dn_y: SSAValue,
        buffer: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, spmat_a, dn_x, dn_y, buffer],
            result_types=[async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a),
        )


@irdl_op_definition
class SpMMBufferSizeOp(MLIRResultNames, _SparseOp):
    """`gpu.spmm_buffer_size`: the workspace sizes that `gpu.spmm` needs."""

    name = "gpu.spmm_buffer_size"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("bufferSzs", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    spmat_a = operand_def(SparseSpMatHandleType)
    dnmat_b = operand_def(SparseDnTensorHandleType)
    dnmat_c = operand_def(SparseDnTensorHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer_szs = var_result_def(IndexType)
    async_token = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedResultSegments(as_property=True),)
    assembly_format = (
        f"{_ASYNC} $spmat_a {_MODE_A} `,` $dnmat_b {_MODE_B} `,` $dnmat_c attr-dict"
        " `:` type($buffer_szs) `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: SSAValue,
        dnmat_b: SSAValue,
        dnmat_c: SSAValue,
        compute_type: Attribute,
        num_buffers: int = 1,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, spmat_a, dnmat_b, dnmat_c],
            result_types=[[IndexType()] * num_buffers, async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a, mode_b),
        )


@irdl_op_definition
class SpMMOp(_SparseOp):
    """`gpu.spmm`: C = op(A) * op(B) with a sparse A and dense B, C."""

    name = "gpu.spmm"

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    spmat_a = operand_def(SparseSpMatHandleType)
    dnmat_b = operand_def(SparseDnTensorHandleType)
    dnmat_c = operand_def(SparseDnTensorHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffers = var_operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = (
        f"{_ASYNC} $spmat_a {_MODE_A} `,` $dnmat_b {_MODE_B} `,` $dnmat_c `,` $buffers"
        " attr-dict `:` type($buffers) `into` $computeType"
    )

    def __init__(
        self,
        spmat_a: SSAValue,
        dnmat_b: SSAValue,
        dnmat_c: SSAValue,
        buffers: Sequence[SSAValue],
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, spmat_a, dnmat_b, dnmat_c, buffers],
            result_types=[async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a, mode_b),
        )


@irdl_op_definition
class SDDMMBufferSizeOp(MLIRResultNames, _SparseOp):
    """`gpu.sddmm_buffer_size`: the workspace size that `gpu.sddmm` needs."""

    name = "gpu.sddmm_buffer_size"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("bufferSz", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    dnmat_a = operand_def(SparseDnTensorHandleType)
    dnmat_b = operand_def(SparseDnTensorHandleType)
    spmat_c = operand_def(SparseSpMatHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer_sz = result_def(IndexType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $dnmat_a {_MODE_A} `,` $dnmat_b {_MODE_B} `,` $spmat_c attr-dict"
        " `into` $computeType"
    )

    def __init__(
        self,
        dnmat_a: SSAValue,
        dnmat_b: SSAValue,
        spmat_c: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, dnmat_a, dnmat_b, spmat_c],
            result_types=[IndexType(), async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a, mode_b),
        )


@irdl_op_definition
class SDDMMOp(_SparseOp):
    """`gpu.sddmm`: C = (op(A) * op(B)) sampled at the sparsity pattern of C."""

    name = "gpu.sddmm"

    async_dependencies = var_operand_def(AsyncTokenType)
    mode_a = _mode_prop("modeA")
    mode_b = _mode_prop("modeB")
    dnmat_a = operand_def(SparseDnTensorHandleType)
    dnmat_b = operand_def(SparseDnTensorHandleType)
    spmat_c = operand_def(SparseSpMatHandleType)
    compute_type = prop_def(TypeAttribute, prop_name="computeType")
    buffer = operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $dnmat_a {_MODE_A} `,` $dnmat_b {_MODE_B} `,` $spmat_c `,` $buffer"
        " attr-dict `:` type($buffer) `into` $computeType"
    )

    def __init__(
        self,
        dnmat_a: SSAValue,
        dnmat_b: SSAValue,
        spmat_c: SSAValue,
        buffer: SSAValue,
        compute_type: Attribute,
        mode_a: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        mode_b: TransposeMode | TransposeModeAttr = NON_TRANSPOSE,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, dnmat_a, dnmat_b, spmat_c, buffer],
            result_types=[async_token_types(is_async)],
            properties=_mode_props(compute_type, mode_a, mode_b),
        )
