"""Dense splats kept as splats.

xDSL 0.75 stores every element of a `dense<...>` attribute: `dense<1.0> :
tensor<300000000xf32>` becomes a list of 3e8 Python floats, then 1.2 GB of
bytes, and printing it unpacks them all again to find that it is a splat (a
minute and 4 GB). MLIR keeps one value.

Here a splat of more than SPLAT_THRESHOLD elements is stored compactly: the
attribute's data holds one element while its type has many, a combination
xDSL never builds itself. `DenseIntOrFPElementsAttr`'s methods (imported
once, from `xgpu.tools.xgpu_opt`) read such data as the splat it is: its
length is the type's, its values a `RepeatedValues` sequence that stores one
value, it prints as `dense<v>`. The parser builds compact splats without
expanding the literal, `from_list` builds them from one value. Code that
needs the elements themselves asks `splat_value(attr)` first.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, IntegerType
from xdsl.parser import Parser
from xdsl.utils.mlir_lexer import MLIRTokenKind

SPLAT_THRESHOLD = 1 << 16
"""Splats with more elements than this are stored as one value."""


class RepeatedValues(Sequence):
    """`count` copies of `value`, as a read-only sequence that stores one."""

    def __init__(self, value: Any, count: int):
        self.value = value
        self._count = count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return RepeatedValues(self.value, len(range(*index.indices(self._count))))
        if not -self._count <= index < self._count:
            raise IndexError("splat index out of range")
        return self.value

    def __iter__(self) -> Iterator[Any]:
        return itertools.repeat(self.value, self._count)

    def count(self, value: Any) -> int:
        return self._count if value == self.value else 0

    def __repr__(self) -> str:
        return f"RepeatedValues({self.value!r}, {self._count})"


def _elements(attr: DenseIntOrFPElementsAttr) -> int:
    return math.prod(attr.type.get_shape())


def is_compact_splat(attr: DenseIntOrFPElementsAttr) -> bool:
    """Whether `attr` stores one element for a type with more."""
    size = attr.type.element_type.compile_time_size
    return len(attr.data.data) == size and _elements(attr) > 1


def splat_value(attr: DenseIntOrFPElementsAttr) -> Any | None:
    """The value of every element if `attr` is a splat (cheap for a compact
    one), else None."""
    if is_compact_splat(attr):
        return _first(attr)
    values = _original["get_values"](attr)
    if values and values.count(values[0]) == len(values):
        return values[0]
    return None


def compact_splat(type_, value) -> DenseIntOrFPElementsAttr:  # type: ignore[no-untyped-def]
    """`dense<value> : type_`, stored as one element when it has many."""
    return DenseIntOrFPElementsAttr.from_list(type_, [value])


def _first(attr: DenseIntOrFPElementsAttr) -> Any:
    return attr.type.element_type.unpack(attr.data.data, 1)[0]


_original: dict[str, Any] = {
    "len": DenseIntOrFPElementsAttr.__len__,
    "get_values": DenseIntOrFPElementsAttr.get_values,
    "iter_values": DenseIntOrFPElementsAttr.iter_values,
    "get_attrs": DenseIntOrFPElementsAttr.get_attrs,
    "iter_attrs": DenseIntOrFPElementsAttr.iter_attrs,
    "is_splat": DenseIntOrFPElementsAttr.is_splat,
    "print_without_type": DenseIntOrFPElementsAttr.print_without_type,
    "from_list": DenseIntOrFPElementsAttr.from_list,
}


def _len(self: DenseIntOrFPElementsAttr) -> int:
    return _elements(self) if is_compact_splat(self) else _original["len"](self)


def _get_values(self: DenseIntOrFPElementsAttr):  # type: ignore[no-untyped-def]
    if is_compact_splat(self):
        return RepeatedValues(_first(self), _elements(self))
    return _original["get_values"](self)


def _iter_values(self: DenseIntOrFPElementsAttr):  # type: ignore[no-untyped-def]
    if is_compact_splat(self):
        return itertools.repeat(_first(self), _elements(self))
    return _original["iter_values"](self)


def _get_attrs(self: DenseIntOrFPElementsAttr):  # type: ignore[no-untyped-def]
    if is_compact_splat(self):
        (first,) = _original["get_attrs"](self)
        return RepeatedValues(first, _elements(self))
    return _original["get_attrs"](self)


def _iter_attrs(self: DenseIntOrFPElementsAttr):  # type: ignore[no-untyped-def]
    if is_compact_splat(self):
        return iter(_get_attrs(self))
    return _original["iter_attrs"](self)


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    return is_compact_splat(self) or _original["is_splat"](self)


def _print_without_type(self: DenseIntOrFPElementsAttr, printer) -> None:  # type: ignore[no-untyped-def]
    if not is_compact_splat(self):
        _original["print_without_type"](self, printer)
        return
    printer.print_string("dense")
    with printer.in_angle_brackets():
        self._print_one_elem(_first(self), printer)


def _from_list(type_, data):  # type: ignore[no-untyped-def]
    if isinstance(data, RepeatedValues):
        data = [data.value]
    if len(data) == 1 and math.prod(type_.get_shape()) > SPLAT_THRESHOLD:
        element = type_.get_element_type()
        if isinstance(element, IntegerType):
            data = [element.get_normalized_value(data[0])]
        return DenseIntOrFPElementsAttr(type_, BytesAttr(element.pack(data)))
    return _original["from_list"](type_, data)


DenseIntOrFPElementsAttr.__len__ = _len  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.get_values = _get_values  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.iter_values = _iter_values  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.get_attrs = _get_attrs  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.iter_attrs = _iter_attrs  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.is_splat = _is_splat  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.print_without_type = _print_without_type  # type: ignore[method-assign]
DenseIntOrFPElementsAttr.from_list = staticmethod(_from_list)  # type: ignore[method-assign]


class SplatParser(Parser):
    """xDSL's Parser, building a large `dense<v>` (or `dense<"0x...">` of one
    element) as a compact splat instead of a list of every element."""

    def parse_dense_int_or_fp_elements_attr(self, type):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start
        if self._current_token.kind is MLIRTokenKind.LESS:
            self._consume_token()
            splat = self._optional_large_splat(type)
            if splat is not None:
                return splat
            self._resume_from(start)
        return super().parse_dense_int_or_fp_elements_attr(type)

    def _optional_large_splat(self, type):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start
        kind = self._current_token.kind
        if kind is MLIRTokenKind.L_SQUARE or kind is MLIRTokenKind.GREATER:
            return None
        if kind is MLIRTokenKind.STRING_LIT:
            text = self.parse_str_literal()
            element = None
        else:
            text = None
            element = self._parse_tensor_literal_element()
        if self._current_token.kind is not MLIRTokenKind.GREATER:
            return None
        self._consume_token()
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        count = math.prod(type.get_shape())
        if count > sys.maxsize:
            self.raise_error(
                f"dense attribute of {count} elements: xgpu-opt counts at most {sys.maxsize}",
                start,
                start + 1,
            )
        if count <= SPLAT_THRESHOLD:
            return None
        if element is not None:
            return DenseIntOrFPElementsAttr.from_list(
                type, [element.to_type(self, type.element_type)]
            )
        try:
            data = bytes.fromhex(text[2:]) if text.startswith("0x") else None
        except ValueError:
            return None
        if data is None or len(data) != type.element_type.compile_time_size:
            return None
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))
