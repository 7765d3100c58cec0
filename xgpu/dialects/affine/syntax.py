"""The pieces of MLIR's affine op syntax that several ops share: dimension
and symbol operand lists (`(%i)[%n]`), subscripts written with SSA values
(`%m[%i + 1, symbol(%n)]`), and loop bounds."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from xgpu.ir.affine_text import affine_expr_text

# A leaf marker in expression text, replaced by an operand when printed.
_MARK = "\x00"


def expect(parser: Parser, punctuation, message: str | None = None) -> None:
    """`punctuation`, or MLIR's `expected 'P'` at the end of the previous token."""
    if hasattr(parser, "expect_punctuation"):
        parser.expect_punctuation(punctuation, message)  # type: ignore[attr-defined]
    else:
        parser.parse_punctuation(punctuation)


def _operands_until(parser: Parser, close, message: str) -> list[UnresolvedOperand]:
    operands: list[UnresolvedOperand] = []
    if parser.parse_optional_punctuation(close):
        return operands
    while True:
        operands.append(parser.parse_unresolved_operand("expected SSA operand"))
        if parser.parse_optional_punctuation(close):
            return operands
        if not parser.parse_optional_punctuation(","):
            expect(parser, close, message)
            return operands


def parse_dim_and_symbol_list(
    parser: Parser,
) -> tuple[list[UnresolvedOperand], list[UnresolvedOperand]]:
    """`(%d0, ...)` and an optional `[%s0, ...]`, with MLIR's messages."""
    expect(parser, "(", "expected '(' in operand list")
    dims = _operands_until(parser, ")", "expected ')' in operand list")
    syms: list[UnresolvedOperand] = []
    if parser.parse_optional_punctuation("["):
        syms = _operands_until(parser, "]", "expected ']' in operand list")
    return dims, syms


def resolve_indices(parser: Parser, operands: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    return [parser.resolve_operand(o, IndexType()) for o in operands]


def print_dim_and_symbol_list(
    printer: Printer, operands: Sequence[SSAValue], num_dims: int
) -> None:
    """`(%d0, ...)`, then `[%s0, ...]` if there are symbols, as MLIR prints them."""
    with printer.in_parens():
        printer.print_list(operands[:num_dims], printer.print_ssa_value)
    if len(operands) > num_dims:
        with printer.in_square_brackets():
            printer.print_list(operands[num_dims:], printer.print_ssa_value)


def print_expr_of_ssa_ids(
    printer: Printer,
    expr: AffineExpr,
    dims: Sequence[SSAValue],
    syms: Sequence[SSAValue],
) -> None:
    """`expr` with each dimension printed as its value (`%i`) and each symbol
    as `symbol(%n)`."""

    def leaf(e: AffineDimExpr | AffineSymExpr) -> str:
        kind = "d" if isinstance(e, AffineDimExpr) else "s"
        return f"{_MARK}{kind}{e.position}{_MARK}"

    parts = affine_expr_text(expr, leaf).split(_MARK)
    for i, part in enumerate(parts):
        if i % 2 == 0:
            printer.print_string(part)
        elif part[0] == "d":
            printer.print_ssa_value(dims[int(part[1:])])
        else:
            printer.print_string("symbol(")
            printer.print_ssa_value(syms[int(part[1:])])
            printer.print_string(")")


def print_map_of_ssa_ids(printer: Printer, amap: AffineMap, operands: Sequence[SSAValue]):
    """The results of `amap` over `operands`, comma-separated (`%i + 1, 0`)."""
    dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
    printer.print_list(amap.results, lambda e: print_expr_of_ssa_ids(printer, e, dims, syms))


def parse_subscripts(
    parser: Parser, close: str = "]"
) -> tuple[AffineMapAttr, list[UnresolvedOperand]]:
    """Subscripts (the opening bracket read) as a map and its operands."""
    amap, dims, syms = parser.parse_affine_ssa_subscripts(close)  # type: ignore[attr-defined]
    return AffineMapAttr(amap), [*dims, *syms]


def constant_map(value: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(0, 0, (AffineConstantExpr(value),)))


SYMBOL_IDENTITY = AffineMapAttr(AffineMap(0, 1, (AffineSymExpr(0),)))


def print_bound(
    printer: Printer, amap: AffineMap, operands: Sequence[SSAValue], prefix: str
) -> None:
    """A loop bound as MLIR prints it: a constant, a lone symbol value, or
    `[min|max] #map(dims)[syms]`."""
    if len(amap.results) == 1:
        result = amap.results[0]
        if amap.num_dims == 0 and amap.num_symbols == 0 and isinstance(result, AffineConstantExpr):
            printer.print_string(str(result.value))
            return
        if amap.num_dims == 0 and amap.num_symbols == 1 and isinstance(result, AffineSymExpr):
            printer.print_ssa_value(operands[0])
            return
    else:
        printer.print_string(f"{prefix} ")
    printer.print_attribute(AffineMapAttr(amap))
    print_dim_and_symbol_list(printer, operands, amap.num_dims)
