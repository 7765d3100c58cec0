"""Helpers shared by xgpu's vector ops: MLIR's `[1, 2]` spelling of a dense
i64 array in custom syntax, attribute dictionaries with elided entries, and
the types that MLIR's messages quote."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from xgpu.ir.printer import attribute_text


def parse_i64_list(parser: Parser) -> DenseArrayBase:
    """`[1, 2]` (or `[]`) as a dense i64 array."""
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return DenseArrayBase.from_list(i64, values)


def print_i64_list(printer: Printer, values: Iterable[int]) -> None:
    printer.print_string("[" + ", ".join(str(int(v)) for v in values) + "]")


def i64_array(values: Iterable[int]) -> ArrayAttr[IntegerAttr]:
    return ArrayAttr(IntegerAttr(int(v), i64) for v in values)


def int_values(attr: Attribute) -> list[int]:
    """The integers of an `ArrayAttr` of integer attributes (or of a dense array)."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    assert isinstance(attr, ArrayAttr)
    return [a.value.data for a in attr.data if isinstance(a, IntegerAttr)]


def print_attr_dict(
    printer: Printer, op: Operation, elided: Iterable[str] = (), extra: Mapping[str, Attribute] = {}
) -> None:
    """` {...}` of the op's discardable attributes and `extra` (properties MLIR
    prints in the dictionary), without `elided` names; nothing if empty."""
    attrs = {**op.attributes, **extra}
    skip = set(elided)
    printer.print_op_attributes({k: v for k, v in attrs.items() if k not in skip})


def split_props(
    attrs: dict[str, Attribute], names: Sequence[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """Split a parsed attribute dictionary into (properties named `names`, the rest)."""
    props = {k: v for k, v in attrs.items() if k in names}
    rest = {k: v for k, v in attrs.items() if k not in names}
    return props, rest


def q(attr: Attribute) -> str:
    """A type quoted as MLIR streams it into a diagnostic: `'vector<4xf32>'`."""
    return f"'{attribute_text(attr)}'"


def t(attr: Attribute) -> str:
    """A type as MLIR streams it, unquoted."""
    return attribute_text(attr)


def shape_of(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, VectorType) else ()


def element_type(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, VectorType) else type_
