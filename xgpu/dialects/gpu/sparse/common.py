"""What the sparse ops share: the `SpacedEnum` custom directive (an enum
printed as MLIR prints it inside an op, e.g. `{ TRANSPOSE}`), the assembly
format pieces, the `_SparseOp` base class and the transpose-mode property."""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import IRDLOperation, prop_def
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

from xgpu.dialects.gpu.async_interface import AsyncDependencies, AsyncOpInterface
from xgpu.dialects.gpu.sparse.enums import NON_TRANSPOSE, TransposeModeAttr
from xgpu.dialects.gpu.utils import SortedPropertiesOp, parse_enum_keyword

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


def _mode_prop(name: str):
    return prop_def(TransposeModeAttr, prop_name=name, default_value=NON_TRANSPOSE)
