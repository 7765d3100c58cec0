"""Helpers for ops that print their whole custom syntax as one string.

xDSL's printer writes an op piece by piece (a `gpu.launch_func` line is some
45 writes, each checking for newlines and counting columns); the host ops
that repeat thousands of times in a program build their line as one string
instead, from the names the printer already gave their operands and from the
text of their types and attributes, kept per printer.

Both helpers answer None when the fast form does not apply; the op then
prints through the general code, which gives the same text.

`LINE_TEXTS` holds, per op class, a function giving the text an op of it
prints after its name (None when it cannot say): the printer then writes
the op's whole line, its result included, at once (`MLIRPrinter.print_op`).
Only ops without regions or the IsolatedFromAbove trait register one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from io import StringIO

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.printer import Printer

#: op class -> (op, printer) -> the text its print writes after the op name, or None
LINE_TEXTS: dict[type[Operation], Callable[[Operation, Printer], str | None]] = {}

_TEXTS = "_xgpu_attribute_texts"
_SEEN = "_xgpu_attribute_texts_by_id"
# Text that may depend on the printer's state (alias names, resources, maps
# collected for aliases) or span lines is not kept.
_STATEFUL = ("#", "affine", "dense_resource", "\n")


def value_names(printer: Printer, values: Iterable[SSAValue]) -> list[str] | None:
    """`%name` of each value, if the printer has named them all already."""
    names = printer._ssa_values  # pyright: ignore[reportPrivateUsage]
    found: list[str] = []
    for value in values:
        name = names.get(value)
        if name is None:
            return None
        found.append("%" + name)
    return found


def template_literal(text: str) -> str:
    """`text` as literal text in a `str.format` template (braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def attribute_text(printer: Printer, attr: Attribute) -> str | None:
    """What `printer.print_attribute(attr)` writes, when it does not depend on
    the printer's state (kept per printer after the first time)."""
    if printer._next_line_callback:  # pyright: ignore[reportPrivateUsage]
        return None  # something waits for the next newline: print as usual
    # Looked up by identity first (hashing a type hashes all its parameters);
    # the entry keeps the attribute alive, so its id names it.
    seen: dict[int, tuple[Attribute, str | None]] | None = printer.__dict__.get(_SEEN)
    if seen is None:
        seen = printer.__dict__[_SEEN] = {}
    if (entry := seen.get(id(attr))) is not None:
        return entry[1]
    texts: dict[Attribute, str | None] | None = printer.__dict__.get(_TEXTS)
    if texts is None:
        texts = printer.__dict__[_TEXTS] = {}
    try:
        text = texts[attr]
    except KeyError:
        pass
    except TypeError:  # an unhashable attribute
        return None
    else:
        seen[id(attr)] = (attr, text)
        return text
    stream = printer.stream
    line, column = printer._current_line, printer._current_column  # pyright: ignore
    capture = StringIO()
    printer.stream = capture
    try:
        printer.print_attribute(attr)
    finally:
        printer.stream = stream
        printer._current_line, printer._current_column = line, column  # pyright: ignore
    text = capture.getvalue()
    if any(s in text for s in _STATEFUL):
        texts[attr] = None
        seen[id(attr)] = (attr, None)
        return None
    texts[attr] = text
    seen[id(attr)] = (attr, text)
    return text
