"""The vector dialect's enum attributes that xDSL 0.75 lacks:
`#vector.punctuation<...>` (vector.print) and `#vector.iterator_type<...>`
(vector.contract). `#vector.kind<...>` is xDSL's `CombiningKindAttr`."""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class PrintPunctuation(StrEnum):
    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


class _AngleEnum:
    """`<value>` as the parameter of an enum attribute (`#vector.kind<add>`)."""

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data.value)  # type: ignore[attr-defined]

    @classmethod
    def parse_parameter(cls, parser: AttrParser):  # type: ignore[no-untyped-def]
        with parser.in_angle_brackets():
            return parser.parse_str_enum(cls.enum_type)  # type: ignore[attr-defined]


@irdl_attr_definition
class PrintPunctuationAttr(_AngleEnum, EnumAttribute[PrintPunctuation]):
    name = "vector.punctuation"


class IteratorType(StrEnum):
    PARALLEL = "parallel"
    REDUCTION = "reduction"


@irdl_attr_definition
class IteratorTypeAttr(_AngleEnum, EnumAttribute[IteratorType]):
    name = "vector.iterator_type"


ATTRS = [PrintPunctuationAttr, IteratorTypeAttr]

__all__ = [
    "ATTRS",
    "CombiningKindAttr",
    "CombiningKindFlag",
    "IteratorType",
    "IteratorTypeAttr",
    "PrintPunctuation",
    "PrintPunctuationAttr",
]
