"""The custom directives of the subgroup MMA ops' syntax (`xgpu.dialects.gpu.mma`):
`MatrixElementType` and `MatrixSameType` (operand types taken from the
!gpu.mma_matrix result type) and `ElementwiseHead` (the head of
subgroup_mma_elementwise).
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from xgpu.dialects.gpu.mma_types import MMAElementwiseOp, MMAElementwiseOpAttr, MMAMatrixType

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
