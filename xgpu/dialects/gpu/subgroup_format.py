"""The custom directives of the subgroup and reduction ops' assembly formats
(`subgroup`): enum keywords, the shared operand/result type, the cluster
spec of gpu.subgroup_reduce, and the parser helpers they and
gpu.warp_execute_on_lane_0 use."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    IntegerAttr,
    i32,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from xgpu.dialects.gpu.attributes import (
    AllReduceOperation,
    AllReduceOperationAttr,
    BroadcastTypeAttr,
    ShuffleModeAttr,
)
from xgpu.dialects.gpu.utils import parse_enum_keyword


def _print_enum_keyword(printer: Printer, state: PrintingState, attr: Attribute | None):
    # MLIR's enum attributes print a space before their keyword, on top of the
    # space the format puts before every element (hence `gpu.shuffle  xor`).
    state.print_whitespace(printer)
    if attr is not None:
        assert isinstance(attr, ShuffleModeAttr | BroadcastTypeAttr | AllReduceOperationAttr)
        printer.print_string(" " + attr.data.value)


class _EnumKeyword(CustomDirective):
    """A required enum attribute written as its bare keyword."""

    attr_type: ClassVar[type[ShuffleModeAttr] | type[BroadcastTypeAttr]]
    cpp_enum: ClassVar[str]

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        value = parse_enum_keyword(parser, self.attr_type.enum_type, self.cpp_enum)
        self.value.set(state, self.attr_type(value))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_enum_keyword(printer, state, self.value.get(op))


@irdl_custom_directive
class ShuffleModeKeyword(_EnumKeyword):
    attr_type = ShuffleModeAttr
    cpp_enum = "::mlir::gpu::ShuffleMode"

    value: AttributeVariable


@irdl_custom_directive
class BroadcastTypeKeyword(_EnumKeyword):
    attr_type = BroadcastTypeAttr
    cpp_enum = "::mlir::gpu::BroadcastType"

    value: AttributeVariable


@irdl_custom_directive
class AllReduceOperationKeyword(CustomDirective):
    """MLIR's `custom<AllReduceOperation>($op)`: an optional bare keyword."""

    op: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        word = parser.parse_optional_identifier()
        if word is None:
            return
        if word not in {e.value for e in AllReduceOperation}:
            parser.raise_error("invalid op kind", parser.pos, parser.pos + 1)
        self.op.set(state, AllReduceOperationAttr(AllReduceOperation(word)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_enum_keyword(printer, state, self.op.get(op))


@irdl_custom_directive
class SharedType(CustomDirective):
    """`type($a)` that also gives `$b` that type, as MLIR infers the result
    type of `AllTypesMatch` ops. Keeps a type mismatch in the generic form a
    verifier error with MLIR's message."""

    first: TypeDirective
    second: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = parser.parse_type()
        self.first.set(state, [t])
        self.second.set(state, [t])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.first.get(op), printer.print_attribute)


def _expect(parser: Parser, punctuation: str) -> None:
    if parser.parse_optional_punctuation(punctuation) is None:  # pyright: ignore
        parser.raise_error(f"expected '{punctuation}'", parser.pos, parser.pos + 1)


def _expect_keyword(parser: Parser, keyword: str) -> None:
    if parser.parse_optional_keyword(keyword) is None:
        parser.raise_error(f"expected '{keyword}'", parser.pos, parser.pos + 1)


@irdl_custom_directive
class ClusterSpec(CustomDirective):
    """`(cluster(size = N (, stride = M)?))?`; a stride of 1 is not printed."""

    size: AttributeVariable
    stride: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("cluster") is None:
            return
        _expect(parser, "(")
        _expect_keyword(parser, "size")
        _expect(parser, "=")
        self.size.set(state, IntegerAttr(_parse_i32(parser), i32))
        if parser.parse_optional_punctuation(",") is not None:
            _expect_keyword(parser, "stride")
            _expect(parser, "=")
            self.stride.set(state, IntegerAttr(_parse_i32(parser), i32))
        _expect(parser, ")")

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        size = self.size.get(op)
        if size is None:
            return
        assert isinstance(size, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(f"cluster(size = {size.value.data}")
        stride = self.stride.get(op)
        if isinstance(stride, IntegerAttr) and stride.value.data != 1:
            printer.print_string(f", stride = {stride.value.data}")
        printer.print_string(")")


def _parse_i32(parser: Parser) -> int:
    pos = parser.pos
    value = parser.parse_optional_integer(allow_boolean=False)
    if value is None:
        parser.raise_error("expected attribute value", pos, pos + 1)
    if not -(2**31) <= value < 2**32:
        parser.raise_error("integer constant out of range for attribute", pos, parser.pos)
    return value
