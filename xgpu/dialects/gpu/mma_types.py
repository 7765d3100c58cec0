"""!gpu.mma_matrix and #gpu<mma_element_wise ...>: the types and attributes of
the subgroup MMA ops (`xgpu.dialects.gpu.mma`).

`MMAMatrixType` with MLIR's rules for it (`mma_matrix_type_error`), the
element kinds as MLIR's ODS names them in constraint messages (`_KINDS`,
`_matches`, `_describe`), and the `MMAElementwiseOp` enum with its attribute.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    Signedness,
    StringAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    TypeAttribute,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

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
