"""Type predicates, ODS type descriptions and flag spellings shared by
xgpu's arith ops, in MLIR 22's words."""

from __future__ import annotations

from xdsl.dialects.arith import (
    FastMathFlagsAttr,
    IntegerOverflowAttr,
)
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer

from xgpu.ir.printer import attribute_text

NO_FASTMATH = FastMathFlagsAttr("none")
NO_OVERFLOW = IntegerOverflowAttr("none")


def quoted(attr: Attribute) -> str:
    return f"'{attribute_text(attr)}'"


def element_of(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, VectorType | TensorType) else type_


def shape_of(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, VectorType | TensorType) else None


def shaped_like(type_: Attribute, element_type: Attribute) -> Attribute:
    """`element_type` in the container shape of `type_` (i1 for i32, vector<4xi1>
    for vector<4xi32>)."""
    if isinstance(type_, VectorType):
        return VectorType(element_type, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(element_type, type_.get_shape(), type_.encoding)
    return element_type


def is_signless_int(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.signedness.data == Signedness.SIGNLESS


def is_signless_or_index(type_: Attribute) -> bool:
    return isinstance(type_, IndexType) or is_signless_int(type_)


def check_parsed_type(
    parser: Parser, op_name: str, operand: str, kind: str, type_: Attribute
) -> None:
    """MLIR's parse-time check of an operand type that the custom syntax infers
    (`custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f32'`),
    reported at the op name as mlir-opt does."""
    if accepts(kind, type_):
        return
    text = parser.lexer.input.content
    at = text.rfind(op_name, 0, parser.pos)
    parser.raise_error(
        f"custom op '{op_name}' '{operand}' must be {kind}, but got {quoted(type_)}",
        at if at >= 0 else parser.pos,
        (at + len(op_name)) if at >= 0 else None,
    )


def _print_overflow_flags(self: IntegerOverflowAttr, printer: Printer) -> None:
    """MLIR 22 separates the flags with a comma and a space: `overflow<nsw, nuw>`
    (and `#arith.overflow<nsw, nuw>`); xDSL 0.75 writes `nsw,nuw`. Parsing
    accepts both."""
    with printer.in_angle_brackets():
        flags = [f.value for f in type(self).enum_type if f in self.data]
        printer.print_string(", ".join(flags) if flags else "none")


# xDSL's class is the one its arith ops (addi, subi, muli, shli) hold.
IntegerOverflowAttr.print_parameter = _print_overflow_flags  # type: ignore[method-assign]


FLOAT_LIKE = "floating-point-like"
INT_LIKE = "signless-fixed-width-integer-like"
INDEX_LIKE = "signless-integer-like or memref of signless-integer"
INTEGER_LIKE = "signless-integer-like"


def accepts(kind: str, type_: Attribute) -> bool:
    if kind == INDEX_LIKE and isinstance(type_, MemRefType):
        return is_signless_int(type_.element_type)
    if isinstance(type_, MemRefType):
        return False
    element = element_of(type_)
    if kind == FLOAT_LIKE:
        return isinstance(element, AnyFloat)
    if kind == INT_LIKE:
        return is_signless_int(element)
    if kind == INTEGER_LIKE and isinstance(type_, MemRefType):
        return False
    return is_signless_or_index(element)


def bit_width(type_: Attribute) -> int:
    element = element_of(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    assert isinstance(element, AnyFloat)
    return element.bitwidth
