"""The async-op interface shared by every asynchronous gpu op.

MLIR's `GPU_AsyncOpInterface`: an op takes a list of `!gpu.async.token`
dependencies (always its first operand group, Python field
`async_dependencies`) and optionally returns a token (Python field
`async_token`). Without a token the op is synchronous: it blocks the host
until its work is complete.

The syntax is MLIR's `custom<AsyncDependencies>`: `(async)? ([%deps])?`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xgpu.dialects.gpu.types import AsyncTokenType


class AsyncOpInterface:
    """Mixin for ops implementing MLIR's GPU_AsyncOpInterface.

    Every op using it declares `async_dependencies = var_operand_def(AsyncTokenType)`
    as its first operand definition and `async_token = opt_result_def(AsyncTokenType)`.
    """

    @property
    def dependencies(self) -> tuple[SSAValue, ...]:
        """The tokens this op waits for before it starts."""
        return tuple(self.async_dependencies)  # type: ignore[attr-defined]

    @property
    def token(self) -> SSAValue | None:
        """The token this op returns, or None for a synchronous op."""
        return self.async_token  # type: ignore[attr-defined]

    @property
    def is_async(self) -> bool:
        return self.token is not None

    def add_async_dependency(self, token: SSAValue) -> None:
        """Add `token` as a dependency, in front of the others, as MLIR's
        `gpu::addAsyncDependency` does; a token already present is not added twice."""
        add_async_dependency(self, token)  # type: ignore[arg-type]


# Types are immutable: one instance serves every op (thousands per host program).
_TOKEN = AsyncTokenType()


def async_token_types(is_async: bool) -> list[Attribute]:
    """The result types of the optional `async_token`: one token if `is_async`."""
    return [_TOKEN] if is_async else []


def add_async_dependency(op: IRDLOperation, token: SSAValue) -> None:
    """Prepend `token` to the async dependencies of `op` (no-op if present)."""
    assert isinstance(op, AsyncOpInterface)
    if token in op.async_dependencies:  # type: ignore[attr-defined]
        return
    op.operands = (token, *op.operands)
    seg = op.properties.get("operandSegmentSizes")
    if isinstance(seg, DenseArrayBase):
        sizes = list(seg.get_values())
        sizes[0] += 1
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)


def parse_async_dependencies(parser: Parser) -> tuple[bool, list]:
    """Parse `(async)? ([%deps])?` and return (is_async, unresolved operands)."""
    is_async = parser.parse_optional_keyword("async") is not None
    deps = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return is_async, deps or []


# `(async)? ([%deps])?` read with one regular expression (see
# `parse_defined_async_dependencies`).
_VALUE = r"%(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_SPACE = r"[ \t\r\n]*"
_DEPENDENCIES = re.compile(
    rf"(async(?![a-zA-Z0-9_$.]))?{_SPACE}"
    rf"(\[{_SPACE}({_VALUE}(?:{_SPACE},{_SPACE}{_VALUE})*){_SPACE}\])?"
)
_VALUE_NAME = re.compile(_VALUE)


def parse_defined_async_dependencies(parser: Parser) -> tuple[bool, list[SSAValue]] | None:
    """`(async)? ([%deps])?`, in the common case where every dependency is a
    value already defined as a single token: (is_async, the values), the
    parser then standing after it. None, with nothing consumed, in any other
    case (nothing there, a forward reference, `%x#1`, another type, comments
    or unusual spacing inside, a malformed list), which
    `parse_async_dependencies` then reads or reports as it always does."""
    start = parser.pos
    match = _DEPENDENCIES.match(parser.lexer.input.content, start)
    if match is None:
        return None
    is_async = match.group(1) is not None
    names = match.group(3)
    if names is None and not is_async:
        return None
    deps: list[SSAValue] = []
    if names is not None:
        defined = parser.ssa_values
        for name in _VALUE_NAME.findall(names):
            values = defined.get(name[1:])
            if not values or values[0].type != _TOKEN:
                return None
            deps.append(values[0])
    parser._resume_from(match.end(2) if names is not None else match.end(1))  # pyright: ignore
    # `async` followed by a list the pattern did not read (after a comment,
    # say): the general path reads it.
    if names is None and parser._current_token.kind is MLIRTokenKind.L_SQUARE:  # pyright: ignore
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
        return None
    return is_async, deps


def print_async_dependencies(printer: Printer, is_async: bool, deps: Sequence[SSAValue]) -> None:
    """Print MLIR's `custom<AsyncDependencies>` after the space that precedes it:
    `async`, `[%a, %b]` or `async [%a]`; nothing for a synchronous op without
    dependencies (which is why MLIR prints `gpu.alloc  (...)` with two spaces)."""
    printer.print_string(" ")
    if is_async:
        printer.print_string("async")
    if deps:
        if is_async:
            printer.print_string(" ")
        printer.print_string("[")
        printer.print_list(deps, printer.print_ssa_value)
        printer.print_string("]")


@irdl_custom_directive
class AsyncDependencies(CustomDirective):
    """`custom<AsyncDependencies>(type($async_token), $async_dependencies)`."""

    token_type: TypeDirective
    deps: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        is_async, deps = parse_async_dependencies(parser)
        self.token_type.inner.set_types(state, async_token_types(is_async))
        self.deps.set(state, deps)
        self.deps.set_types(state, [_TOKEN] * len(deps))
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        is_async = bool(self.token_type.inner.get_types(op))
        print_async_dependencies(printer, is_async, self.deps.get(op))
        state.last_was_punctuation = False
        state.should_emit_space = True


__all__ = [
    "AsyncDependencies",
    "AsyncOpInterface",
    "add_async_dependency",
    "async_token_types",
    "parse_async_dependencies",
    "parse_defined_async_dependencies",
    "print_async_dependencies",
]
