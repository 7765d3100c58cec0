"""The form nearly every gpu.launch_func of a host program has, read at once.

`parse_common_form` reads `@m::@f blocks in (%a, %b, %c) threads in (%d, %e,
%f)` and an optional `args(%x : T, ...)` with simple types with regular
expressions instead of some 40 tokens, when every value is already defined
with the expected type; anything else returns None and `LaunchFuncOp.parse`
takes the general path, which reports every error. `segment_sizes` memoizes
the operandSegmentSizes attributes.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import DenseArrayBase, IndexType, SymbolRefAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser

from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.ir.line_forms import VALUE, LineForm, defined_values

_SEGMENT_SIZES: dict[tuple[int, ...], DenseArrayBase] = {}


def segment_sizes(sizes: tuple[int, ...]) -> DenseArrayBase:
    attr = _SEGMENT_SIZES.get(sizes)
    if attr is None:
        attr = _SEGMENT_SIZES[sizes] = DenseArrayBase.from_list(i32, sizes)
    return attr


# The form nearly every launch in a host program has, read with regular
# expressions instead of some 40 tokens: `@m::@f blocks in (%a, %b, %c) threads
# in (%d, %e, %f)`, then optionally `args(%x : T, ...)` with simple types, all
# values already defined with the expected types. Anything else (clusters, a
# dimension type, dynamic shared memory, forward references, other types, a
# type mismatch to report) takes the general path below, which reports errors.
_VALUE = r"%([0-9]+|[a-zA-Z$._-][\w$.-]*)"
_DIM3 = rf"\(\s*{_VALUE}\s*,\s*{_VALUE}\s*,\s*{_VALUE}\s*\)"
_COMMON_LAUNCH = re.compile(
    rf"(@[a-zA-Z_][\w$.]*)(?:::(@[a-zA-Z_][\w$.]*))?\s+blocks\s+in\s+{_DIM3}"
    rf"\s+threads\s+in\s+{_DIM3}(\s*args\()?"
)
_ARG = re.compile(
    rf"\s*{_VALUE}\s*:\s*((?:memref|tensor|vector)<[^<>{{}}\"()-]*>|index|[isu]?i[0-9]+|"
    rf"f16|bf16|f32|f64)\s*([,)])"
)
_OP_END = re.compile(r"[ \t]*(?:\{|\r?\n|$)")
_SIMPLE_TYPES: dict[tuple[int, str], Attribute] = {}
_KERNEL_REFS: dict[tuple[str, str | None], SymbolRefAttr] = {}
INDEX = IndexType()
TOKEN = AsyncTokenType()


def _simple_type(parser: Parser, text: str) -> Attribute:
    # The parser's own object for the text, when it has read it before (the
    # kernel arguments' types then compare by identity).
    own = getattr(parser, "text_cache", None)
    if own is not None and (found := own.get(text)) is not None:
        return found
    key = (id(parser.ctx), text)
    found = _SIMPLE_TYPES.get(key)
    if found is None:
        found = _SIMPLE_TYPES[key] = Parser(parser.ctx, text).parse_type()
    return found


def parse_common_form(
    parser: Parser,
) -> tuple[SymbolRefAttr, list[SSAValue], list[SSAValue], list[SSAValue]] | None:
    """The common form at the parser's position: (kernel, grid, block, args),
    the parser then standing after it; None, with nothing consumed, otherwise."""
    found = match_common_form(parser, parser.pos)
    if found is None:
        return None
    kernel, grid, block, args, end = found
    parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
    return kernel, grid, block, args


def match_common_form(
    parser: Parser, start: int
) -> tuple[SymbolRefAttr, list[SSAValue], list[SSAValue], list[SSAValue], int] | None:
    """The common form written at `start`: (kernel, grid, block, args, where
    it ends), nothing consumed; None if the text there is not that form."""
    text = parser.lexer.input.content
    match = _COMMON_LAUNCH.match(text, start)
    if match is None:
        return None
    defined = parser.ssa_values
    index = INDEX
    dims: list[SSAValue] = []
    for name in match.groups()[2:8]:
        values = defined.get(name)
        if values is None or len(values) != 1:
            return None
        value = values[0]
        if (found := value.type) is not index and found != index:
            return None
        dims.append(value)
    end = match.end()
    args: list[SSAValue] = []
    if match.group(9) is not None:
        while True:
            arg = _ARG.match(text, end)
            if arg is None:
                return None
            values = defined.get(arg.group(1))
            if values is None or len(values) != 1:
                return None
            try:
                arg_type = _simple_type(parser, arg.group(2))
            except Exception:
                return None
            if (found := values[0].type) is not arg_type and found != arg_type:
                return None
            args.append(values[0])
            end = arg.end()
            if arg.group(3) == ")":
                break
    # The op must end here (a newline) or go on with its attribute dictionary.
    if _OP_END.match(text, end) is None:
        return None
    kernel = _KERNEL_REFS.get(match.group(1, 2))
    if kernel is None:
        root, nested = match.group(1), match.group(2)
        kernel = SymbolRefAttr(root[1:], [nested[1:]] if nested else [])
        _KERNEL_REFS[match.group(1, 2)] = kernel
    return kernel, dims[:3], dims[3:], args, end


# `async [%a, ...]` then the common form, the rest of a line `%t =
# gpu.launch_func ...` (see `xgpu.ir.line_forms`).
_ASYNC_HEAD = re.compile(
    rf"[ \t]+async(?:[ \t]*\[[ \t]*({VALUE}(?:[ \t]*,[ \t]*{VALUE})*)[ \t]*\])?[ \t]+(?=@)"
)


def launch_line_form(op_class: type[Operation]) -> LineForm:
    """The line form of `op_class` (gpu.launch_func): what its parse reads and
    builds for an async launch in the common form, matched at once."""

    def form(parser: Parser, op_type: type[Operation], start: int):  # type: ignore[no-untyped-def]
        head = _ASYNC_HEAD.match(parser.lexer.input.content, start)
        if head is None or op_type is not op_class:
            return None
        deps = defined_values(parser, head.group(1), TOKEN)
        if deps is None:
            return None
        found = match_common_form(parser, head.end())
        if found is None:
            return None
        kernel, grid, block, args, end = found

        def build() -> Operation:
            parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
            return op_class._from_common_form(  # type: ignore[attr-defined]
                parser, True, deps, kernel, grid, block, args
            )

        return build

    return form
