"""The async-op interface shared by every asynchronous gpu op.

MLIR's `GPU_AsyncOpInterface`: an op takes a list of `!gpu.async.token`
dependencies (always its first operand group, Python field
`async_dependencies`) and optionally returns a token (Python field
`async_token`). Without a token the op is synchronous: it blocks the host
until its work is complete.

The syntax is MLIR's `custom<AsyncDependencies>`: `(async)? ([%deps])?`.
"""

from __future__ import annotations

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
    "print_async_dependencies",
]
