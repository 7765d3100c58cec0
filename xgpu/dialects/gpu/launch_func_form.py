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
from xdsl.ir import Attribute, SSAValue
from xdsl.parser import Parser

from xgpu.dialects.gpu.types import AsyncTokenType

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
    rf"\s+threads\s+in\s+{_DIM3}\s*(args\()?"
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
    key = (id(parser.ctx), text)
    found = _SIMPLE_TYPES.get(key)
    if found is None:
        found = _SIMPLE_TYPES[key] = Parser(parser.ctx, text).parse_type()
    return found


def parse_common_form(
    parser: Parser,
) -> tuple[SymbolRefAttr, list[SSAValue], list[SSAValue], list[SSAValue]] | None:
    text = parser.lexer.input.content
    match = _COMMON_LAUNCH.match(text, parser.pos)
    if match is None:
        return None
    defined = parser.ssa_values
    index = INDEX
    dims: list[SSAValue] = []
    for name in match.groups()[2:8]:
        values = defined.get(name)
        if values is None or len(values) != 1 or values[0].type != index:
            return None
        dims.append(values[0])
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
            if values[0].type != arg_type:
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
    parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
    return kernel, dims[:3], dims[3:], args
