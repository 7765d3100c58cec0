"""!gpu.mma_matrix and the subgroup_mma_* ops.

The warp-synchronous matrix ops of MLIR 22's gpu dialect: a `!gpu.mma_matrix`
is an opaque 2-D fragment held collectively by the threads of a subgroup; the
ops load, store, multiply-accumulate, fill, combine element-wise, and access
the thread-local part of such fragments.

The module the catalog names for them (`xgpu.dialects.gpu.catalog`): it
defines the ops; the type and the element-wise attribute are defined in
`mma_types`, the operand checks the ops share in `mma_checks`, and the custom
directives of their syntax in `mma_format`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.mma_checks import (  # noqa: F401  (re-exported)
    _MEMREF_CONSTRAINT,
    _MEMREF_ELEMENT_KINDS,
    _linear_coefficients,
    _verify_element_type,
    _verify_mma_memref,
    _verify_mma_of,
    is_last_dim_unit_stride,
)
from xgpu.dialects.gpu.mma_format import (  # noqa: F401  (re-exported)
    ElementwiseHead,
    MatrixElementType,
    MatrixSameType,
    _parsed_matrix_type,
)
from xgpu.dialects.gpu.mma_types import (  # noqa: F401  (re-exported)
    _KINDS,
    MMA_OPERANDS,
    MMAElementwiseOp,
    MMAElementwiseOpAttr,
    MMAMatrixType,
    _describe,
    _is_f16,
    _is_f32,
    _is_f64,
    _is_i8,
    _is_i32,
    _is_int,
    _is_si8,
    _is_ui8,
    _matches,
    mma_matrix_type_error,
)
from xgpu.dialects.gpu.utils import SortedPropertiesOp

# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


def _index_attr(value: int | IntegerAttr) -> IntegerAttr:
    if isinstance(value, IntegerAttr):
        return value
    return IntegerAttr(value, IndexType())


@irdl_op_definition
class SubgroupMmaLoadMatrixOp(SortedPropertiesOp):
    """`gpu.subgroup_mma_load_matrix`: the subgroup loads a matrix fragment from
    `src_memref` at `indices`; `leadDimension` is the row pitch of the source."""

    name = "gpu.subgroup_mma_load_matrix"

    src_memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    lead_dimension = prop_def(IntegerAttr[IndexType], prop_name="leadDimension")
    transpose = opt_prop_def(UnitAttr)
    res = result_def(MMAMatrixType)

    traits = traits_def(MemoryReadEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$src_memref `[` $indices `]` attr-dict `:` type($src_memref) `->` type($res)"

    def __init__(
        self,
        src_memref: SSAValue,
        indices: Sequence[SSAValue],
        lead_dimension: int | IntegerAttr,
        result_type: MMAMatrixType,
        transpose: bool = False,
    ):
        props: dict[str, Attribute] = {"leadDimension": _index_attr(lead_dimension)}
        if transpose:
            props["transpose"] = UnitAttr()
        super().__init__(
            operands=[src_memref, indices], result_types=[result_type], properties=props
        )

    def verify_(self) -> None:
        memref_type = self.src_memref.type
        assert isinstance(memref_type, MemRefType)
        _verify_mma_memref(memref_type, "operand #0")
        if not is_last_dim_unit_stride(memref_type):
            raise OpDiagnostic(
                "expected source memref most minor dim must have unit stride",
                prefix=False,
            )


@irdl_op_definition
class SubgroupMmaStoreMatrixOp(SortedPropertiesOp):
    """`gpu.subgroup_mma_store_matrix`: the subgroup stores a `COp` fragment into
    `dst_memref` at `indices`."""

    name = "gpu.subgroup_mma_store_matrix"

    src = operand_def(MMAMatrixType)
    dst_memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    lead_dimension = prop_def(IntegerAttr[IndexType], prop_name="leadDimension")
    transpose = opt_prop_def(UnitAttr)

    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$src `,` $dst_memref `[` $indices `]` attr-dict `:` type($src) `,` type($dst_memref)"
    )

    def __init__(
        self,
        src: SSAValue,
        dst_memref: SSAValue,
        indices: Sequence[SSAValue],
        lead_dimension: int | IntegerAttr,
        transpose: bool = False,
    ):
        props: dict[str, Attribute] = {"leadDimension": _index_attr(lead_dimension)}
        if transpose:
            props["transpose"] = UnitAttr()
        super().__init__(operands=[src, dst_memref, indices], properties=props)

    def verify_(self) -> None:
        _verify_mma_of(self.src.type, "operand #0", ("SI8", "UI8", "I32", "F16", "F32", "F64"))
        memref_type = self.dst_memref.type
        assert isinstance(memref_type, MemRefType)
        _verify_mma_memref(memref_type, "operand #1")
        if not is_last_dim_unit_stride(memref_type):
            raise OpDiagnostic(
                "expected destination memref most minor dim must have unit stride",
                prefix=False,
            )
        src_type = self.src.type
        assert isinstance(src_type, MMAMatrixType)
        if src_type.operand.data != "COp":
            raise OpDiagnostic(
                "expected the operand matrix being stored to have 'COp' operand type",
                prefix=False,
            )


@irdl_op_definition
class SubgroupMmaComputeOp(SortedPropertiesOp):
    """`gpu.subgroup_mma_compute`: D = A * B + C over subgroup fragments.
    `a_transpose`/`b_transpose` record that A/B were loaded transposed."""

    name = "gpu.subgroup_mma_compute"

    op_a = operand_def(MMAMatrixType)
    op_b = operand_def(MMAMatrixType)
    op_c = operand_def(MMAMatrixType)
    a_transpose = opt_prop_def(UnitAttr)
    b_transpose = opt_prop_def(UnitAttr)
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    custom_directives = (MatrixSameType,)
    assembly_format = (
        "$op_a `,` $op_b `,` $op_c attr-dict `:` type($op_a) `,` type($op_b) `->` type($res)"
        " custom<MatrixSameType>(type($op_c), ref(type($res)))"
    )

    def __init__(
        self,
        op_a: SSAValue,
        op_b: SSAValue,
        op_c: SSAValue,
        a_transpose: bool = False,
        b_transpose: bool = False,
    ):
        props: dict[str, Attribute] = {}
        if a_transpose:
            props["a_transpose"] = UnitAttr()
        if b_transpose:
            props["b_transpose"] = UnitAttr()
        super().__init__(operands=[op_a, op_b, op_c], result_types=[op_c.type], properties=props)

    def verify_(self) -> None:
        ab_kinds = ("SI8", "UI8", "F16", "F32", "F64")
        _verify_mma_of(self.op_a.type, "operand #0", ab_kinds)
        _verify_mma_of(self.op_b.type, "operand #1", ab_kinds)
        _verify_mma_of(self.op_c.type, "operand #2", ("I32", "F16", "F32", "F64"))
        if self.op_c.type != self.res.type:
            raise VerifyException("failed to verify that all of {opC, res} have same type")
        a, b, c = self.op_a.type, self.op_b.type, self.op_c.type
        assert isinstance(a, MMAMatrixType)
        assert isinstance(b, MMAMatrixType)
        assert isinstance(c, MMAMatrixType)
        if (a.get_operand(), b.get_operand(), c.get_operand()) != MMA_OPERANDS:
            raise OpDiagnostic("operands must be in the order AOp, BOp, COp", prefix=False)
        a_shape, b_shape, c_shape = a.get_shape(), b.get_shape(), c.get_shape()
        if a_shape[1] != b_shape[0] or a_shape[0] != c_shape[0] or b_shape[1] != c_shape[1]:
            raise OpDiagnostic("operand shapes do not satisfy matmul constraints", prefix=False)


_CONSTANT_KINDS = ("SI8", "UI8", "I32", "F16", "F32")


@irdl_op_definition
class SubgroupMmaConstantMatrixOp(IRDLOperation):
    """`gpu.subgroup_mma_constant_matrix`: a fragment with every element `value`."""

    name = "gpu.subgroup_mma_constant_matrix"

    value = operand_def(AnyAttr())
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    custom_directives = (MatrixElementType,)
    assembly_format = (
        "$value attr-dict `:` type($res) custom<MatrixElementType>(type($value), ref(type($res)))"
    )

    def __init__(self, value: SSAValue, result_type: MMAMatrixType):
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        if not _matches(self.value.type, _CONSTANT_KINDS):
            raise VerifyException(
                f"operand #0 must be {_describe(_CONSTANT_KINDS)}, but got '{self.value.type}'"
            )
        _verify_element_type(self.value.type, self.res.type)


@irdl_op_definition
class SubgroupMmaElementwiseOp(IRDLOperation):
    """`gpu.subgroup_mma_elementwise`: apply `op_type` element by element."""

    name = "gpu.subgroup_mma_elementwise"

    args = var_operand_def(MMAMatrixType)
    op_type = prop_def(MMAElementwiseOpAttr, prop_name="opType")
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    custom_directives = (ElementwiseHead,)
    assembly_format = (
        "custom<ElementwiseHead>($opType, $args) attr-dict `:` functional-type($args, $res)"
    )

    def __init__(
        self,
        op_type: MMAElementwiseOp | MMAElementwiseOpAttr,
        args: Sequence[SSAValue],
        result_type: MMAMatrixType,
    ):
        if not isinstance(op_type, MMAElementwiseOpAttr):
            op_type = MMAElementwiseOpAttr(op_type)
        super().__init__(
            operands=[args], result_types=[result_type], properties={"opType": op_type}
        )


_INT_OR_FLOAT = base(IntegerType) | base(AnyFloat)


@irdl_op_definition
class SubgroupMmaExtractThreadLocalOp(IRDLOperation):
    """`gpu.subgroup_mma_extract_thread_local`: read one element of the part of
    `matrix` that the current thread holds."""

    name = "gpu.subgroup_mma_extract_thread_local"

    matrix = operand_def(MMAMatrixType)
    indices = var_operand_def(IndexType)
    res = result_def(_INT_OR_FLOAT)

    traits = traits_def(Pure())
    assembly_format = "$matrix `[` $indices `]` attr-dict `:` type($matrix) `->` type($res)"

    def __init__(self, matrix: SSAValue, indices: Sequence[SSAValue]):
        matrix_type = matrix.type
        assert isinstance(matrix_type, MMAMatrixType)
        super().__init__(operands=[matrix, indices], result_types=[matrix_type.element_type])

    def verify_(self) -> None:
        _verify_element_type(self.res.type, self.matrix.type)


@irdl_op_definition
class SubgroupMmaInsertThreadLocalOp(IRDLOperation):
    """`gpu.subgroup_mma_insert_thread_local`: a copy of `matrix` with one element
    of the current thread's part replaced by `value`."""

    name = "gpu.subgroup_mma_insert_thread_local"

    value = operand_def(_INT_OR_FLOAT)
    matrix = operand_def(MMAMatrixType)
    indices = var_operand_def(IndexType)
    res = result_def(MMAMatrixType)

    traits = traits_def(Pure())
    assembly_format = (
        "$value `,` $matrix `[` $indices `]` attr-dict `:` type($value) `,` type($matrix)"
        " `->` type($res)"
    )

    def __init__(
        self,
        value: SSAValue,
        matrix: SSAValue,
        indices: Sequence[SSAValue],
        result_type: MMAMatrixType | None = None,
    ):
        super().__init__(
            operands=[value, matrix, indices],
            result_types=[result_type if result_type is not None else matrix.type],
        )

    def verify_(self) -> None:
        _verify_element_type(self.value.type, self.matrix.type)


OPS: list[type] = [
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
    SubgroupMmaExtractThreadLocalOp,
    SubgroupMmaInsertThreadLocalOp,
]
ATTRS: list[type] = [MMAMatrixType, MMAElementwiseOpAttr]
