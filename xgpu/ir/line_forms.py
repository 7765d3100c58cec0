"""Whole lines of the ops a host program repeats thousands of times, read at once.

A line such as `%w = gpu.wait async [%l]` goes through xDSL's general
operation parser: the result list, the op name, the op's own parse (which
has its own fast path for the common form), the location, the result's
registration; three tokens are lexed and a dozen calls made around the
op's own syntax. An op can register a *line form* for its name: a function
that, given the text after the op name, recognizes the common form of the
rest of the op in one regular expression, with every value it names already
defined, and returns how to build the op (`build()`, which consumes the text
and returns the op exactly as the op's own parse would); or None, with
nothing consumed, for anything else. `LocatingParser.parse_operation` then
does what xDSL's `parse_operation` does around it. The op classes are the
same: a line form builds them as their parse does.

Only a line with one plain result name (`%name = op.name ...`), not yet
defined nor used before its definition, is tried.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

#: op name -> line form: (parser, op class, where the text after the op name
#: starts) -> build() or None
LineForm = Callable[[Parser, type[Operation], int], Callable[[], Operation] | None]
LINE_FORMS: dict[str, LineForm] = {}

# An SSA value name, as the lexer reads one (`%` and a suffix id).
VALUE = r"%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_VALUE_NAME = re.compile(VALUE)
_HEAD = re.compile(r"(%[^\s=:,#]+)[ \t]*=[ \t]*([A-Za-z_][A-Za-z0-9_$.]*)")
_PERCENT = MLIRTokenKind.PERCENT_IDENT


def line_form(name: str) -> Callable[[LineForm], LineForm]:
    """Register the decorated function as the line form of the op `name`."""

    def register(form: LineForm) -> LineForm:
        LINE_FORMS[name] = form
        return form

    return register


_L_BRACE = MLIRTokenKind.L_BRACE


def optional_attr_dict(parser: Parser) -> dict[str, Attribute]:
    """`parser.parse_optional_attr_dict()`, answered at once where no `{` follows."""
    if parser._current_token.kind is not _L_BRACE:  # pyright: ignore[reportPrivateUsage]
        return {}
    return parser.parse_optional_attr_dict()


def defined_values(parser: Parser, names: str | None, type: Attribute) -> list[SSAValue] | None:
    """The values `names` (`%a, %b`, as a pattern matched them; None: no
    names) names, when each is a defined single value of type `type`."""
    if names is None:
        return []
    defined = parser.ssa_values
    found: list[SSAValue] = []
    for name in _VALUE_NAME.findall(names):
        values = defined.get(name[1:])
        if values is None or len(values) != 1:
            return None
        value = values[0]
        if (value_type := value.type) is not type and value_type != type:
            return None
        found.append(value)
    return found


def match_line(
    parser: Parser,
) -> tuple[str, Span, int, type[Operation], Callable[[], Operation]] | None:
    """At an op whose line has a registered form: (its result name without
    `%`, the span of the result name, where the op name starts, the op class,
    build()); None, nothing consumed, for any other op."""
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind is not _PERCENT:
        return None
    match = _HEAD.match(parser.lexer.input.content, token.span.start)
    if match is None or match.end(1) != token.span.end:
        return None
    op_name = match.group(2)
    form = LINE_FORMS.get(op_name)
    if form is None:
        return None
    name = match.group(1)[1:]
    if name in parser.ssa_values or name in parser.forward_ssa_references:
        return None  # the general path reports it, or resolves the earlier uses
    op_type = parser.ctx.get_optional_op(op_name)
    if op_type is None:
        return None
    build = form(parser, op_type, match.end(2))
    if build is None:
        return None
    return name, token.span, match.start(2), op_type, build
