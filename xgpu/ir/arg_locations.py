"""Where MLIR's parser puts what has no `loc(...)` written: an argument at its
name (`%a` in `(%a: index)` or a block label's `^bb1(%a: index)`), a
terminator the op's parser added (an omitted `scf.yield`) at the op."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser

# A block argument's name and colon, ending where its type begins.
_ARGUMENT_BEFORE_TYPE = re.compile(r"[(,]\s*(%[\w$.-]+)\s*:\s*\Z")


@dataclass
class _LocatedArgument(Parser.Argument):
    """An argument that keeps the location of its name unless given another."""

    def __setattr__(self, name: str, value: object) -> None:
        if name != "location" or value is not None:
            super().__setattr__(name, value)


@dataclass
class _LocatedUnresolvedArgument(Parser.UnresolvedArgument):
    location: Attribute | None = None

    def resolve(self, type: Attribute) -> Parser.Argument:
        return _LocatedArgument(self.name, type, self.location)  # pyright: ignore[reportArgumentType]


def located_argument(
    arg: Parser.Argument | Parser.UnresolvedArgument, location: Attribute
) -> Parser.Argument | Parser.UnresolvedArgument:
    """`arg` at `location` unless the parser reads another one for it."""
    if isinstance(arg, Parser.Argument):
        return _LocatedArgument(arg.name, arg.type, location)  # pyright: ignore[reportArgumentType]
    return _LocatedUnresolvedArgument(arg.name, location)


def argument_name_before(text: str, type_start: int) -> int | None:
    """Where the `%name` of an argument `%name: type` is, given where its type
    starts (None if the type does not follow an argument name)."""
    m = _ARGUMENT_BEFORE_TYPE.search(text, max(0, type_start - 256), type_start)
    return None if m is None else m.start(1)


def locate_implicit_terminators(op: Operation) -> None:
    """Put the terminators that `op`'s parser added at `op` (written ones were
    located when parsed)."""
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is not None and isinstance(last.location, UnknownLoc):
                last.location = op.location
