"""Pieces of MLIR's OpAsmParser/OpAsmPrinter that the scf ops' custom forms
share: arrow type lists, assignment lists (`(%arg = %init, ...)`), region
bodies with implicit terminators, and attribute dictionaries that hold an
op's inherent attributes (properties) as MLIR's `getAttrs()` does."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.dialects.builtin import FunctionType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator


def op_name_pos(parser: Parser, name: str) -> int:
    """Where the op name was written, for a custom op's `parse` called right
    after it (MLIR reports some of an op's parse errors there)."""
    text = parser.lexer.input.content[: parser.pos].rstrip()
    return len(text) - len(name) if text.endswith(name) else parser.pos


def resolve_all(
    parser: Parser,
    values: Sequence[UnresolvedOperand],
    types: Sequence[Attribute],
    pos: int,
    name: str | None = None,
) -> list[SSAValue]:
    """`values` resolved to `types`, or MLIR's count error at `pos` (with the
    `custom op 'NAME'` prefix written out when `pos` is the op name, which
    xgpu-opt's parser does not prefix)."""
    if len(values) != len(types):
        prefix = f"custom op '{name}' " if name is not None else ""
        parser.raise_error(
            f"{prefix}number of operands and types do not match: got {len(values)} "
            f"operands and {len(types)} types",
            pos,
        )
    return [parser.resolve_operand(v, t) for v, t in zip(values, types)]


def parse_index_integer(parser: Parser) -> int:
    integer = parser.parse_optional_integer(allow_boolean=False)
    if integer is None:
        parser.raise_error("expected integer value")
    return integer


def parse_optional_arrow_types(parser: Parser) -> list[Attribute]:
    """MLIR's `parseOptionalArrowTypeList`: `-> type` or `-> (type, ...)`."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    return parse_result_types(parser)


def parse_result_types(parser: Parser) -> list[Attribute]:
    """MLIR's `parseFunctionResultTypes`: one type, or a parenthesized list."""
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = [parser.parse_type()]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parser.parse_type())
    parser.parse_punctuation(")")
    return types


def print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printFunctionalType` result part: one non-function type bare,
    otherwise in parentheses."""
    if len(types) == 1 and not isinstance(types[0], FunctionType):
        printer.print_attribute(types[0])
        return
    printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")


def print_optional_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printOptionalArrowTypeList`."""
    if not types:
        return
    printer.print_string(" -> ")
    print_result_types(printer, types)


def print_functional_type(
    printer: Printer, inputs: Sequence[Attribute], results: Sequence[Attribute]
) -> None:
    printer.print_string("(")
    printer.print_list(inputs, printer.print_attribute)
    printer.print_string(") -> ")
    print_result_types(printer, results)


def parse_optional_assignments(
    parser: Parser,
) -> tuple[list[Parser.UnresolvedArgument], list[UnresolvedOperand]] | None:
    """`(%arg = %value, ...)` (the list may be empty: `()`), if present."""
    args: list[Parser.UnresolvedArgument] = []
    values: list[UnresolvedOperand] = []

    def one() -> None:
        args.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        values.append(parser.parse_unresolved_operand())

    if parser.parse_optional_comma_separated_list(parser.Delimiter.PAREN, one) is None:
        return None
    return args, values


def parse_assignments(
    parser: Parser,
) -> tuple[list[Parser.UnresolvedArgument], list[UnresolvedOperand]]:
    """`(%arg = %value, ...)`."""
    found = parse_optional_assignments(parser)
    if found is None:
        parser.raise_error("expected '('")
    return found


def print_assignments(
    printer: Printer, args: Sequence[SSAValue], values: Sequence[SSAValue], prefix: str
) -> None:
    """MLIR's `printInitializationList`: nothing when there are no values."""
    if not values:
        return
    printer.print_string(f"{prefix}(")
    pairs = list(zip(args, values))

    def one(pair: tuple[SSAValue, SSAValue]) -> None:
        printer.print_ssa_value(pair[0])
        printer.print_string(" = ")
        printer.print_ssa_value(pair[1])

    printer.print_list(pairs, one)
    printer.print_string(")")


@contextmanager
def name_scope(printer: Printer) -> Iterator[None]:
    """A region's value names, free again after it (MLIR names the values of
    each region of an op in a scope of its own: sibling regions reuse them)."""
    used = printer.ssa_names
    before = set(used)
    try:
        yield
    finally:
        for name in [n for n in used if n not in before]:
            del used[name]


def print_body(
    printer: Printer,
    region: Region,
    *,
    entry_args: bool = False,
    terminators: bool = True,
) -> None:
    """MLIR's `printRegion` (which does not print an empty entry block)."""
    with name_scope(printer):
        printer.print_region(
            region,
            print_entry_block_args=entry_args,
            print_empty_block=False,
            print_block_terminators=terminators,
        )


def ensure_terminator(region: Region, build: Callable[[], Operation]) -> None:
    """MLIR's `ensureRegionTerminator`: a block in an empty region, and a
    terminator built by `build` after a last op that is not one."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.last
    assert block is not None
    last = block.last_op
    if last is not None and last.has_trait(IsTerminator, value_if_unregistered=False):
        return
    block.add_op(build())


def split_inherent(
    attributes: dict[str, Attribute], names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """The attributes named in `names` (the op's inherent attributes, which
    MLIR keeps as properties) and the others."""
    names = set(names)
    props = {k: v for k, v in attributes.items() if k in names}
    attrs = {k: v for k, v in attributes.items() if k not in names}
    return props, attrs


def print_attrs(
    printer: Printer,
    op: Operation,
    elided: Iterable[str] = (),
    *,
    keyword: bool = False,
) -> None:
    """MLIR's `printOptionalAttrDict(op->getAttrs(), elided)`: the inherent
    attributes (properties) and the discardable ones, sorted, but `elided`."""
    merged = {**op.properties, **op.attributes}
    printer.print_op_attributes(merged, reserved_attr_names=tuple(elided), print_keyword=keyword)


class InherentAttributes:
    """For an IRDL op: MLIR reads an inherent attribute written in the
    generic form's attribute dictionary (`{unsignedCmp}`) as the property it
    is (`<{unsignedCmp}>`)."""

    @classmethod
    def create(cls, **kwargs):  # type: ignore[no-untyped-def]
        attributes = dict(kwargs.get("attributes") or {})
        names = cls.get_irdl_definition().properties  # type: ignore[attr-defined]
        properties = dict(kwargs.get("properties") or {})
        for name in [n for n in attributes if n in names and n not in properties]:
            properties[name] = attributes.pop(name)
        kwargs["attributes"], kwargs["properties"] = attributes, properties
        return super().create(**kwargs)  # type: ignore[misc]
