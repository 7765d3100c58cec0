"""!gpu.mma_matrix and the subgroup_mma_* ops.

The warp-synchronous matrix ops of MLIR 22's gpu dialect: a `!gpu.mma_matrix`
is an opaque 2-D fragment held collectively by the threads of a subgroup; the
ops load, store, multiply-accumulate, fill, combine element-wise, and access
the thread-local part of such fragments.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    StringAttr,
    UnitAttr,
    VectorType,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.utils import SortedPropertiesOp

# ---------------------------------------------------------------------------
# !gpu.mma_matrix
# ---------------------------------------------------------------------------

MMA_OPERANDS = ("AOp", "BOp", "COp")


def _is_int(t: Attribute, width: int, signedness: Signedness) -> bool:
    return isinstance(t, IntegerType) and t.width.data == width and t.signedness.data == signedness


def _is_si8(t: Attribute) -> bool:
    return _is_int(t, 8, Signedness.SIGNED)


def _is_ui8(t: Attribute) -> bool:
    return _is_int(t, 8, Signedness.UNSIGNED)


def _is_i8(t: Attribute) -> bool:
    return _is_int(t, 8, Signedness.SIGNLESS)


def _is_i32(t: Attribute) -> bool:
    return _is_int(t, 32, Signedness.SIGNLESS)


def _is_f16(t: Attribute) -> bool:
    return isinstance(t, Float16Type)


def _is_f32(t: Attribute) -> bool:
    return isinstance(t, Float32Type)


def _is_f64(t: Attribute) -> bool:
    return isinstance(t, Float64Type)


# Element kinds as MLIR's ODS names them in constraint messages.
_KINDS = {
    "SI8": (_is_si8, "8-bit signed integer"),
    "UI8": (_is_ui8, "8-bit unsigned integer"),
    "I8": (_is_i8, "8-bit signless integer"),
    "I32": (_is_i32, "32-bit signless integer"),
    "F16": (_is_f16, "16-bit float"),
    "F32": (_is_f32, "32-bit float"),
    "F64": (_is_f64, "64-bit float"),
}


def _matches(t: Attribute, kinds: Sequence[str]) -> bool:
    return any(_KINDS[k][0](t) for k in kinds)


def _describe(kinds: Sequence[str]) -> str:
    return " or ".join(_KINDS[k][1] for k in kinds)


def mma_matrix_type_error(
    shape: Sequence[int], element_type: Attribute, operand: str
) -> str | None:
    """MLIR's MMAMatrixType::verifyInvariants: the first violated rule, or None."""
    if operand not in MMA_OPERANDS:
        return "operand expected to be one of AOp, BOp or COp"
    if len(shape) != 2:
        return "MMAMatrixType must have exactly two dimensions"
    if not _matches(element_type, ("SI8", "UI8", "I32", "F16", "F32", "F64")):
        return "MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64"
    return None


@irdl_attr_definition
class MMAMatrixType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.mma_matrix<16x16xf16, "AOp">`: a subgroup-wide matrix fragment.

    `operand` says which operand of a matrix-multiply-accumulate the fragment
    is (`AOp`, `BOp` or `COp`); the layout of the data across the threads of
    the subgroup is opaque.
    """

    name = "gpu.mma_matrix"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    operand: StringAttr

    def __init__(
        self,
        shape: Sequence[int] | ArrayAttr[IntAttr],
        element_type: Attribute,
        operand: str | StringAttr,
    ):
        if not isinstance(shape, ArrayAttr):
            shape = ArrayAttr(IntAttr(d) for d in shape)
        if isinstance(operand, str):
            operand = StringAttr(operand)
        super().__init__(shape, element_type, operand)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(d.data for d in self.shape.data)

    def get_num_dims(self) -> int:
        return len(self.shape.data)

    def get_element_type(self) -> Attribute:
        return self.element_type

    def get_operand(self) -> str:
        return self.operand.data

    def verify(self) -> None:
        error = mma_matrix_type_error(self.get_shape(), self.element_type, self.operand.data)
        if error is not None:
            raise VerifyException(error)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        # MLIR reports type errors at the type's keyword, just before the `<`.
        keyword_pos = max(parser.pos - len("mma_matrix"), 0)
        parser.parse_punctuation("<")
        dims_pos = parser.pos
        dims, element_type = parser.parse_ranked_shape()
        if any(d < 0 for d in dims):
            parser.raise_error("expected static shape", dims_pos)
        parser.parse_punctuation(",")
        operand = parser.parse_optional_str_literal()
        if operand is None:
            parser.raise_error("expected string literal for the matrix operand")
        parser.parse_punctuation(">")
        error = mma_matrix_type_error(dims, element_type, operand)
        if error is not None:
            parser.raise_error(error, keyword_pos, keyword_pos + len("mma_matrix"))
        return [ArrayAttr(IntAttr(d) for d in dims), element_type, StringAttr(operand)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for dim in self.get_shape():
            printer.print_string(f"{dim}x")
        printer.print_attribute(self.element_type)
        printer.print_string(f', "{self.operand.data}">')


# ---------------------------------------------------------------------------
# #gpu<mma_element_wise ...>
# ---------------------------------------------------------------------------


class MMAElementwiseOp(StrEnum):
    ADDF = "addf"
    MULF = "mulf"
    SUBF = "subf"
    MAXF = "maxf"
    MINF = "minf"
    DIVF = "divf"
    ADDI = "addi"
    MULI = "muli"
    SUBI = "subi"
    DIVS = "divs"
    DIVU = "divu"
    NEGATEF = "negatef"
    NEGATES = "negates"
    EXTF = "extf"


@irdl_attr_definition
class MMAElementwiseOpAttr(EnumAttribute[MMAElementwiseOp], SpacedOpaqueSyntaxAttribute):
    """`#gpu<mma_element_wise addf|mulf|...>`."""

    name = "gpu.mma_element_wise"


# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------

_MEMREF_ELEMENT_KINDS = ("I8", "I32", "F16", "F32", "F64")
_MEMREF_CONSTRAINT = (
    f"memref of {_describe(_MEMREF_ELEMENT_KINDS)} or vector of "
    f"{_describe(_MEMREF_ELEMENT_KINDS)} values of ranks 1 values"
)


def _verify_mma_memref(memref_type: Attribute, which: str) -> None:
    """GPU_MMAMemRef: a memref of i8/i32/f16/f32/f64 or of 1-D vectors thereof."""
    assert isinstance(memref_type, MemRefType)
    elt = memref_type.element_type
    ok = _matches(elt, _MEMREF_ELEMENT_KINDS) or (
        isinstance(elt, VectorType)
        and elt.get_num_dims() == 1
        and _matches(elt.element_type, _MEMREF_ELEMENT_KINDS)
    )
    if not ok:
        raise VerifyException(f"{which} must be {_MEMREF_CONSTRAINT}, but got '{memref_type}'")


def _verify_mma_of(value_type: Attribute, which: str, kinds: Sequence[str]) -> None:
    """MMAMatrixOf<[kinds]>: an !gpu.mma_matrix with one of these element types."""
    assert isinstance(value_type, MMAMatrixType)
    if not _matches(value_type.element_type, kinds):
        raise VerifyException(
            f"{which} must be gpu.mma_matrix of {_describe(kinds)} values, but got '{value_type}'"
        )


def _verify_element_type(value_type: Attribute, matrix_type: Attribute) -> None:
    """MLIR's `TypesMatchWith` between a scalar and an !gpu.mma_matrix's element type."""
    assert isinstance(matrix_type, MMAMatrixType)
    if value_type != matrix_type.element_type:
        raise VerifyException("failed to verify that value type matches element type of mma_matrix")


def _linear_coefficients(expr: AffineExpr) -> dict[str, int] | None:
    """Coefficients of a pure-affine expression: {'d0': c, 's1': c, '': const}.
    None when the expression is not a linear combination with constant factors."""
    if isinstance(expr, AffineConstantExpr):
        return {"": expr.value}
    if isinstance(expr, AffineDimExpr):
        return {f"d{expr.position}": 1}
    if isinstance(expr, AffineSymExpr):
        return {f"s{expr.position}": 1}
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _linear_coefficients(expr.lhs)
        rhs = _linear_coefficients(expr.rhs)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            out = dict(lhs)
            for k, v in rhs.items():
                out[k] = out.get(k, 0) + v
            return out
        if expr.kind == AffineBinaryOpKind.Mul:
            for const, other in ((lhs, rhs), (rhs, lhs)):
                if set(const) <= {""}:
                    factor = const.get("", 0)
                    return {k: v * factor for k, v in other.items()}
        return None
    return None


def is_last_dim_unit_stride(memref_type: MemRefType) -> bool:
    """MLIR's MemRefType::isLastDimUnitStride: the strides of the layout can be
    computed and the innermost one is 1 (trivially true for rank-0 memrefs)."""
    rank = memref_type.get_num_dims()
    if rank == 0:
        return True
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, StridedLayoutAttr):
        return layout.get_strides()[-1] == 1
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        results = amap.results
        if len(results) == amap.num_dims and all(
            isinstance(r, AffineDimExpr) and r.position == i for i, r in enumerate(results)
        ):
            return True
        if len(results) != 1:
            return False
        coeffs = _linear_coefficients(results[0])
        if coeffs is None:
            return False
        return coeffs.get(f"d{amap.num_dims - 1}", 0) == 1
    strides = layout.get_strides() if hasattr(layout, "get_strides") else None
    return bool(strides) and strides[-1] == 1


# ---------------------------------------------------------------------------
# Custom directives
# ---------------------------------------------------------------------------


def _parsed_matrix_type(parser: Parser, state: ParsingState, source: TypeDirective):
    """The !gpu.mma_matrix type already parsed for the result `source`."""
    types = state.result_types[source.inner.index]  # pyright: ignore
    matrix = types[0] if types else None
    if not isinstance(matrix, MMAMatrixType):
        parser.raise_error(
            f"invalid kind of type specified: expected gpu.mma_matrix, but found '{matrix}'"
        )
    return matrix


@irdl_custom_directive
class MatrixElementType(CustomDirective):
    """Gives an operand the element type of the !gpu.mma_matrix result type parsed
    before it (MLIR's `TypesMatchWith` on subgroup_mma_constant_matrix).
    Prints nothing."""

    value_type: TypeDirective
    matrix_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        matrix = _parsed_matrix_type(parser, state, self.matrix_type)
        self.value_type.set(state, (matrix.element_type,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return

    def can_parse_empty(self) -> bool:
        return True


@irdl_custom_directive
class MatrixSameType(CustomDirective):
    """Gives an operand the !gpu.mma_matrix type of the result parsed before it
    (MLIR's `AllTypesMatch` on subgroup_mma_compute's C and result). Prints nothing."""

    value_type: TypeDirective
    matrix_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        matrix = _parsed_matrix_type(parser, state, self.matrix_type)
        self.value_type.set(state, (matrix,))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        return

    def can_parse_empty(self) -> bool:
        return True


@irdl_custom_directive
class ElementwiseHead(CustomDirective):
    """`$opType $args` of subgroup_mma_elementwise, printed as MLIR prints it:
    the enum's own leading space (`gpu.subgroup_mma_elementwise  addf %a, %b`)
    and a space for the operand list even when it is empty."""

    op_type: AttributeVariable
    args: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        keyword = parser.parse_optional_identifier_or_str_literal()
        values = [e.value for e in MMAElementwiseOp]
        if keyword not in values:
            parser.raise_error(
                "expected ::mlir::gpu::MMAElementwiseOp to be one of: " + ", ".join(values),
                pos,
            )
        self.op_type.set(state, MMAElementwiseOpAttr(MMAElementwiseOp(keyword)))
        self.args.parse(parser, state)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        attr = self.op_type.get(op)
        assert isinstance(attr, MMAElementwiseOpAttr)
        printer.print_string(f" {attr.data.value} ")
        printer.print_list(self.args.get(op), printer.print_ssa_value)
        state.should_emit_space = True
        state.last_was_punctuation = False


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
