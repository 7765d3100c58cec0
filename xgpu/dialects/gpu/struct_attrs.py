"""MLIR's `struct(params)` attribute parameter lists, as the GPU target
attributes (#nvvm.target, #spirv.resource_limits, ...) write them: `key =
value` pairs in any order, each at most once; the parameters that hold their
default value are not printed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


def sorted_dict(attr: DictionaryAttr) -> DictionaryAttr:
    """MLIR keeps dictionary entries sorted by name; xDSL keeps insertion order."""
    return DictionaryAttr(dict(sorted(attr.data.items())))


# --------------------------------------------------------------------------
# struct(params) parameter lists
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One `key = value` parameter of a struct-like attribute."""

    attr: str  # Python field name
    key: str  # the name written in the IR
    kind: str  # "int", "str", "bool", "dict", "array", "opt_int", "i32_array"
    default: Attribute  # NoneAttr() for optional parameters


def parse_value(parser: AttrParser, field: Field, owner: str) -> Attribute:
    start = parser.pos
    match field.kind:
        case "int" | "opt_int":
            return IntAttr(parser.parse_integer(allow_boolean=False))
        case "bool":
            if (b := parser.parse_optional_boolean()) is not None:
                return IntAttr(int(b))
            value = parser.parse_integer(allow_boolean=False)
            if value not in (0, 1):
                parser.raise_error("integer value too large", start)
            return IntAttr(value)
        case "str":
            return StringAttr(parser.parse_str_literal())
        case "i32_array":
            # A dense i32 array written as a list: `[1, 2, 3]`.
            if parser.parse_optional_punctuation("[") is None:
                parser.raise_error("expected '['")
            values: list[int] = []
            if parser.parse_optional_punctuation("]") is None:
                values.append(parser.parse_integer(allow_boolean=False))
                while parser.parse_optional_punctuation(",") is not None:
                    values.append(parser.parse_integer(allow_boolean=False))
                parser.parse_punctuation("]")
            return DenseArrayBase.from_list(i32, values)
        case "dict":
            attr = parser.parse_attribute()
            if not isinstance(attr, DictionaryAttr):
                parser.raise_error("invalid kind of attribute specified", start)
            return sorted_dict(attr)
        case _:
            attr = parser.parse_attribute()
            if not isinstance(attr, ArrayAttr):
                parser.raise_error("invalid kind of attribute specified", start)
            return attr


def parse_struct(parser: AttrParser, fields: Sequence[Field], owner: str) -> dict[str, Attribute]:
    """`(< (key = value),* >)?`, keys in any order, each at most once."""
    values: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("<") is None:
        return values
    if parser.parse_optional_punctuation(">") is not None:
        return values
    by_key = {f.key: f for f in fields}
    while True:
        start = parser.pos
        key = parser.parse_identifier()
        field = by_key.get(key)
        if field is None or field.attr in values:
            parser.raise_error(f"duplicate or unknown struct parameter name: {key}", start)
        parser.parse_punctuation("=")
        values[field.attr] = parse_value(parser, field, owner)
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(">")
    return values


def print_value(printer: Printer, field: Field, value: Attribute) -> None:
    if isinstance(value, IntAttr):
        if field.kind == "bool":
            printer.print_string("true" if value.data else "false")
        else:
            printer.print_string(str(value.data))
    elif isinstance(value, StringAttr):
        printer.print_string_literal(value.data)
    elif isinstance(value, ArrayAttr):
        print_array(printer, value)
    elif isinstance(value, DenseArrayBase):
        printer.print_string("[" + ", ".join(str(v) for v in value.get_values()) + "]")
    else:
        printer.print_attribute(value)


def print_array(printer: Printer, array: ArrayAttr) -> None:
    """An array attribute as MLIR prints it: `i64` integers inside an array
    carry no type (xDSL's printer writes `1 : i64`)."""
    printer.print_string("[")
    for i, elem in enumerate(array):
        if i:
            printer.print_string(", ")
        if isinstance(elem, IntegerAttr) and elem.type == i64:
            printer.print_string(str(elem.value.data))
        else:
            printer.print_attribute(elem)
    printer.print_string("]")


def print_struct(
    printer: Printer, fields: Sequence[Field], values: Sequence[Attribute], always: bool
) -> None:
    shown = [(f, v) for f, v in zip(fields, values) if v != f.default]
    if not shown and not always:
        return
    printer.print_string("<")
    for i, (field, value) in enumerate(shown):
        if i:
            printer.print_string(", ")
        printer.print_string(f"{field.key} = ")
        print_value(printer, field, value)
    printer.print_string(">")


class StructAttr(ParametrizedAttribute):
    """Base of the attributes whose syntax is MLIR's `<` struct(params) `>`
    with defaulted parameters."""

    FIELDS: ClassVar[tuple[Field, ...]]
    # Whether the all-default form still prints `<>` (only if the whole
    # parameter list is not optional in MLIR's format).
    ALWAYS_ANGLES: ClassVar[bool] = False

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        values = parse_struct(parser, cls.FIELDS, cls.name)
        params = [values.get(f.attr, f.default) for f in cls.FIELDS]
        if (message := cls.check(params)) is not None:
            parser.raise_error(message, start)
        return params

    def print_parameters(self, printer: Printer) -> None:
        print_struct(printer, self.FIELDS, self.parameters, self.ALWAYS_ANGLES)

    @classmethod
    def check(cls, params: Sequence[Attribute]) -> str | None:
        """MLIR's verifier message for these parameters, or None."""
        return None

    def verify(self) -> None:
        if (message := self.check(self.parameters)) is not None:
            raise VerifyException(message)


def opt(value: Attribute | None) -> Attribute:
    return NoneAttr() if value is None else value


def opt_dict(value: DictionaryAttr | Mapping[str, Attribute] | None) -> Attribute:
    if value is None:
        return NoneAttr()
    if not isinstance(value, DictionaryAttr):
        value = DictionaryAttr(dict(value))
    return sorted_dict(value)


def opt_str_array(value: ArrayAttr | Sequence[str] | None) -> Attribute:
    if value is None:
        return NoneAttr()
    if isinstance(value, ArrayAttr):
        return value
    return ArrayAttr([StringAttr(s) for s in value])
