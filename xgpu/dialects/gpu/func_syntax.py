"""The pieces of gpu.func's custom syntax (`xgpu.dialects.gpu.func`).

Parsing the signature (named arguments, rejecting a list of bare types as MLIR
does), the results and the attribution lists; printing argument attributes;
the dictionary arrays the properties store (`_dict_array`, `_dict_at`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.lexer import Position


def _dict_array(dicts: Sequence[Mapping[str, Attribute]]) -> ArrayAttr[DictionaryAttr] | None:
    """`[{...}, ...]`, or None when every dictionary is empty (as MLIR stores it)."""
    if not any(dicts):
        return None
    return ArrayAttr(DictionaryAttr(dict(d)) for d in dicts)


def _dict_at(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> dict[str, Attribute]:
    if attrs is None or index >= len(attrs):
        return {}
    entry = attrs.data[index]
    return dict(entry.data) if isinstance(entry, DictionaryAttr) else {}


def _parse_arg_attrs_and_loc(parser: Parser, arg: Parser.Argument | None) -> dict[str, Attribute]:
    attrs = parser.parse_optional_dictionary_attr_dict()
    loc = parser.parse_optional_location()
    if arg is not None and loc is not None:
        arg.location = loc
    return attrs


def _parse_named_arguments_rest(
    parser: Parser,
) -> list[tuple[Parser.Argument, dict[str, Attribute]]]:
    """`%a : T {attrs}?, ...)`: a named argument list after its `(`, possibly empty."""

    def parse_one() -> tuple[Parser.Argument, dict[str, Attribute]]:
        name = parser.parse_optional_argument(expect_type=False)
        if name is None:
            parser.raise_error("expected SSA identifier")
        if parser.parse_optional_punctuation(":") is None:
            parser.raise_error("expected ':'")
        arg = name.resolve(parser.parse_type())
        return arg, _parse_arg_attrs_and_loc(parser, arg)

    if parser.parse_optional_punctuation(")") is not None:
        return []
    args = [parse_one()]
    while parser.parse_optional_punctuation(",") is not None:
        args.append(parse_one())
    parser.parse_punctuation(")")
    return args


def _parse_named_argument_list(
    parser: Parser,
) -> list[tuple[Parser.Argument, dict[str, Attribute]]]:
    """`(%a : T {attrs}?, ...)`, possibly empty (the attribution lists)."""
    parser.parse_punctuation("(")
    return _parse_named_arguments_rest(parser)


def _at_ssa_name(parser: Parser) -> bool:
    return parser._current_token.text.startswith("%")  # pyright: ignore[reportPrivateUsage]


def _parse_signature_arguments(
    parser: Parser,
) -> list[tuple[Parser.Argument, dict[str, Attribute]]]:
    """The argument list of the signature. gpu.func requires named arguments: a
    list of bare types is parsed, then rejected as MLIR does."""
    start: Position = parser.pos
    parser.parse_punctuation("(")
    if _at_ssa_name(parser) or parser._current_token.text == ")":  # pyright: ignore[reportPrivateUsage]
        return _parse_named_arguments_rest(parser)

    def parse_type() -> None:
        if _at_ssa_name(parser):
            parser.raise_error("expected type instead of SSA identifier")
        parser.parse_type()
        _parse_arg_attrs_and_loc(parser, None)

    parse_type()
    while parser.parse_optional_punctuation(",") is not None:
        parse_type()
    parser.parse_punctuation(")")
    parser.raise_error("gpu.func requires named arguments", start)


def _parse_results(parser: Parser) -> tuple[list[Attribute], list[dict[str, Attribute]]]:
    """`(-> T | -> (T {attrs}?, ...))?`."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    results = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN,
        lambda: (parser.parse_type(), parser.parse_optional_dictionary_attr_dict()),
    )
    if results is None:
        return [parser.parse_type()], [{}]
    return [t for t, _ in results], [a for _, a in results]


def _print_arg_attrs(printer: Printer, attrs: Mapping[str, Attribute]) -> None:
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(attrs)
