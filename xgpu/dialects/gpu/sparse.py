"""The sparse (cuSPARSE-style) host ops and their enums.

Host-side ops that create and destroy dense-tensor / sparse-matrix / SpGEMM
handles and run SpMV, SpMM, SDDMM and SpGEMM on them. Every op implements the
async-op interface: `async` makes it return a `!gpu.async.token`, `[%deps]`
lists the tokens it waits for.

Enums: `#gpu<mat_transpose_mode ...>` (printed `{TRANSPOSE}` after a matrix
operand and elided when it is the default NON_TRANSPOSE),
`#gpu<prune_2to4_spmat_flag ...>` and
`#gpu<spgemm_work_estimation_or_compute_kind ...>` (both printed `{FLAG}`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, SpacedOpaqueSyntaxAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_result_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    UniqueBaseAttributeVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from xgpu.dialects.gpu.async_interface import (
    AsyncDependencies,
    AsyncOpInterface,
    async_token_types,
)
from xgpu.dialects.gpu.types import (
    AsyncTokenType,
    SparseDnTensorHandleType,
    SparseSpGEMMOpHandleType,
    SparseSpMatHandleType,
)
from xgpu.dialects.gpu.utils import MLIRResultNames, SortedPropertiesOp, parse_enum_keyword

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


# ---------------------------------------------------------------------------
# Custom directive: an enum as MLIR prints it inside an op (with its leading
# space), e.g. `{ TRANSPOSE}`.
# ---------------------------------------------------------------------------


@irdl_custom_directive
class SpacedEnum(CustomDirective):
    """An enum property printed as MLIR's EnumAttr parameter printer does: a space,
    then the keyword. As the anchor of an optional group it is present when the
    property differs from its default (MLIR's default-valued attribute elision)."""

    attr: AttributeVariable

    def _enum_attr_type(self) -> type[EnumAttribute[StrEnum]]:
        assert isinstance(self.attr, UniqueBaseAttributeVariable)
        return self.attr.unique_base  # pyright: ignore[reportReturnType]

    def parse(self, parser: Parser, state: ParsingState) -> None:
        attr_type = self._enum_attr_type()
        cpp_name = getattr(attr_type, "cpp_enum_name", attr_type.name)
        self.attr.set(state, attr_type(parse_enum_keyword(parser, attr_type.enum_type, cpp_name)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.attr.get(op)
        assert isinstance(attr, EnumAttribute)
        printer.print_string(f" {attr.data.value}")  # pyright: ignore
        state.should_emit_space = True
        state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return self.attr.is_present(op)

    def is_anchorable(self) -> bool:
        return True


_ASYNC = "custom<AsyncDependencies>(type($async_token), $async_dependencies)"
_MODE_A = "(`{` custom<SpacedEnum>($modeA)^ `}`)?"
_MODE_B = "(`{` custom<SpacedEnum>($modeB)^ `}`)?"


class _SparseOp(AsyncOpInterface, SortedPropertiesOp):
    """Shared pieces of the sparse ops."""

    custom_directives = (AsyncDependencies, SpacedEnum)


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


# ---------------------------------------------------------------------------
# SpMV / SpMM / SDDMM
# ---------------------------------------------------------------------------


def _mode_prop(name: str):
    return prop_def(TransposeModeAttr, prop_name=name, default_value=NON_TRANSPOSE)


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
