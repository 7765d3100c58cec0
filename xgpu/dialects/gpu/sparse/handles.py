"""The sparse ops that create and destroy dense-tensor handles
(`gpu.create_dn_tensor`, `gpu.destroy_dn_tensor`) and sparse-matrix handles
(`gpu.create_coo`, `gpu.create_coo_aos`, `gpu.create_csr`, `gpu.create_csc`,
`gpu.create_bsr`, `gpu.create_2to4_spmat`, `gpu.destroy_sp_mat`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
)

from xgpu.dialects.gpu.async_interface import async_token_types
from xgpu.dialects.gpu.sparse.common import _ASYNC, _SparseOp
from xgpu.dialects.gpu.sparse.enums import (
    PRUNE_AND_CHECK,
    Prune2To4SpMatFlag,
    Prune2To4SpMatFlagAttr,
)
from xgpu.dialects.gpu.types import AsyncTokenType, SparseDnTensorHandleType, SparseSpMatHandleType
from xgpu.dialects.gpu.utils import MLIRResultNames

# ---------------------------------------------------------------------------
# Dense tensors
# ---------------------------------------------------------------------------


@irdl_op_definition
class CreateDnTensorOp(MLIRResultNames, _SparseOp):
    """`gpu.create_dn_tensor`: a dense-tensor handle over `memref` with sizes `dims`."""

    name = "gpu.create_dn_tensor"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("dnTensor", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    dims = var_operand_def(IndexType)
    dn_tensor = result_def(SparseDnTensorHandleType)
    async_token = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = f"{_ASYNC} $memref `,` $dims attr-dict `:` type($dims) `into` type($memref)"

    def __init__(
        self,
        memref: SSAValue,
        dims: Sequence[SSAValue],
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, memref, dims],
            result_types=[SparseDnTensorHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class DestroyDnTensorOp(_SparseOp):
    """`gpu.destroy_dn_tensor`: release a dense-tensor handle."""

    name = "gpu.destroy_dn_tensor"

    async_dependencies = var_operand_def(AsyncTokenType)
    dn_tensor = operand_def(SparseDnTensorHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = f"{_ASYNC} $dn_tensor attr-dict"

    def __init__(self, dn_tensor: SSAValue, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(operands=[deps, dn_tensor], result_types=[async_token_types(is_async)])


# ---------------------------------------------------------------------------
# Sparse matrices
# ---------------------------------------------------------------------------


@irdl_op_definition
class CreateCooOp(MLIRResultNames, _SparseOp):
    """`gpu.create_coo`: a sparse-matrix handle in COO (structure-of-arrays) format."""

    name = "gpu.create_coo"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spmat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    row_idxs = operand_def(MemRefType)
    col_idxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $row_idxs `,` $col_idxs `,` $values"
        " attr-dict `:` type($row_idxs) `,` type($col_idxs) `,` type($values)"
    )

    def __init__(
        self,
        rows: SSAValue,
        cols: SSAValue,
        nnz: SSAValue,
        row_idxs: SSAValue,
        col_idxs: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, rows, cols, nnz, row_idxs, col_idxs, values],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class CreateCooAoSOp(MLIRResultNames, _SparseOp):
    """`gpu.create_coo_aos`: a COO sparse matrix from one array-of-structures index buffer."""

    name = "gpu.create_coo_aos"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spmat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    idxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $idxs `,` $values"
        " attr-dict `:` type($idxs) `,` type($values)"
    )

    def __init__(
        self,
        rows: SSAValue,
        cols: SSAValue,
        nnz: SSAValue,
        idxs: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, rows, cols, nnz, idxs, values],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class CreateCsrOp(MLIRResultNames, _SparseOp):
    """`gpu.create_csr`: a sparse-matrix handle in CSR format."""

    name = "gpu.create_csr"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spmat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    row_pos = operand_def(MemRefType)
    col_idxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $row_pos `,` $col_idxs `,` $values"
        " attr-dict `:` type($row_pos) `,` type($col_idxs) `,` type($values)"
    )

    def __init__(
        self,
        rows: SSAValue,
        cols: SSAValue,
        nnz: SSAValue,
        row_pos: SSAValue,
        col_idxs: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, rows, cols, nnz, row_pos, col_idxs, values],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class CreateCscOp(MLIRResultNames, _SparseOp):
    """`gpu.create_csc`: a sparse-matrix handle in CSC format."""

    name = "gpu.create_csc"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spmat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    col_pos = operand_def(MemRefType)
    row_idxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $rows `,` $cols `,` $nnz `,` $col_pos `,` $row_idxs `,` $values"
        " attr-dict `:` type($col_pos) `,` type($row_idxs) `,` type($values)"
    )

    def __init__(
        self,
        rows: SSAValue,
        cols: SSAValue,
        nnz: SSAValue,
        col_pos: SSAValue,
        row_idxs: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[deps, rows, cols, nnz, col_pos, row_idxs, values],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class CreateBsrOp(MLIRResultNames, _SparseOp):
    """`gpu.create_bsr`: a sparse-matrix handle in block-sparse-row format."""

    name = "gpu.create_bsr"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spmat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    brows = operand_def(IndexType)
    bcols = operand_def(IndexType)
    bnnz = operand_def(IndexType)
    r_block_size = operand_def(IndexType)
    c_block_size = operand_def(IndexType)
    b_row_pos = operand_def(MemRefType)
    b_col_idxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} $brows `,` $bcols `,` $bnnz `,` $r_block_size `,` $c_block_size `,`"
        " $b_row_pos `,` $b_col_idxs `,` $values attr-dict"
        " `:` type($b_row_pos) `,` type($b_col_idxs) `,` type($values)"
    )

    def __init__(
        self,
        brows: SSAValue,
        bcols: SSAValue,
        bnnz: SSAValue,
        r_block_size: SSAValue,
        c_block_size: SSAValue,
        b_row_pos: SSAValue,
        b_col_idxs: SSAValue,
        values: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(
            operands=[
                deps,
                brows,
                bcols,
                bnnz,
                r_block_size,
                c_block_size,
                b_row_pos,
                b_col_idxs,
                values,
            ],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
        )


@irdl_op_definition
class Create2To4SpMatOp(MLIRResultNames, _SparseOp):
    """`gpu.create_2to4_spmat`: a 2:4-structured sparse matrix from a dense buffer."""

    name = "gpu.create_2to4_spmat"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("spMat", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    prune_flag = prop_def(
        Prune2To4SpMatFlagAttr, prop_name="pruneFlag", default_value=PRUNE_AND_CHECK
    )
    memref = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = (
        f"{_ASYNC} `{{` custom<SpacedEnum>($pruneFlag) `}}` $rows `,` $cols `,` $memref"
        " attr-dict `:` type($memref)"
    )

    def __init__(
        self,
        rows: SSAValue,
        cols: SSAValue,
        memref: SSAValue,
        prune_flag: Prune2To4SpMatFlag | Prune2To4SpMatFlagAttr = PRUNE_AND_CHECK,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        if not isinstance(prune_flag, Prune2To4SpMatFlagAttr):
            prune_flag = Prune2To4SpMatFlagAttr(prune_flag)
        super().__init__(
            operands=[deps, rows, cols, memref],
            result_types=[SparseSpMatHandleType(), async_token_types(is_async)],
            properties={"pruneFlag": prune_flag},
        )


@irdl_op_definition
class DestroySpMatOp(_SparseOp):
    """`gpu.destroy_sp_mat`: release a sparse-matrix handle."""

    name = "gpu.destroy_sp_mat"

    async_dependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    async_token = opt_result_def(AsyncTokenType)

    assembly_format = f"{_ASYNC} $spmat attr-dict"

    def __init__(self, spmat: SSAValue, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(operands=[deps, spmat], result_types=[async_token_types(is_async)])
