"""Location aliases as mlir-opt 22 prints them with `--mlir-print-debuginfo`.

Every location printed gets an alias `#locN`, numbered in the order MLIR's
alias initializer meets them (an op's location before its contents, a
location before the locations inside it), locations without nested ones
first. Ops refer to theirs (`loc(#loc3)`); block arguments print theirs in
full, and their aliases, which cannot be deferred, are defined before the
module; all the others are defined after it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    NameLoc,
    NoneAttr,
    UnitAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute


def children(loc: Attribute) -> list[Attribute]:
    """The locations printed inside `loc`."""
    if isinstance(loc, NameLoc):
        return [] if isinstance(loc.location, UnknownLoc | NoneAttr) else [loc.location]
    if isinstance(loc, CallSiteLoc):
        return [loc.callee, loc.caller]
    if isinstance(loc, FusedLoc):
        return _fused_parts(loc)
    return []


def _fused_parts(loc: FusedLoc) -> list[Attribute]:
    """The locations of a fused location as MLIR keeps them (unknown ones dropped)."""
    return [c for c in loc.locations.data if not isinstance(c, UnknownLoc)]


def _string(text: str) -> str:
    """An MLIR string literal."""
    out = '"'
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out += "\\" + ch
        elif 32 <= code < 127:
            out += ch
        elif ch == "\n":
            out += "\\n"
        elif ch == "\t":
            out += "\\t"
        else:
            out += "".join(f"\\{b:02X}" for b in ch.encode())
    return out + '"'


def location_text(loc: Attribute, names: dict[Attribute, str] | None = None) -> str:
    """The text inside `loc(...)`; nested locations by alias where `names` has one."""

    def inner(child: Attribute) -> str:
        if names is not None and child in names:
            return names[child]
        return location_text(child, names)

    if isinstance(loc, UnknownLoc):
        return "unknown"
    if isinstance(loc, FileLineColLoc):
        return f"{_string(loc.filename.data)}:{loc.line.data}:{loc.column.data}"
    if isinstance(loc, NameLoc):
        text = _string(loc.desc.data)
        if not isinstance(loc.location, UnknownLoc | NoneAttr):
            text += f"({inner(loc.location)})"
        return text
    if isinstance(loc, CallSiteLoc):
        return f"callsite({inner(loc.callee)} at {inner(loc.caller)})"
    if isinstance(loc, FusedLoc):
        meta = loc.metadata
        text = "fused"
        if not isinstance(meta, NoneAttr | UnitAttr):
            from xgpu.ir.printer import attribute_text

            text += f"<{attribute_text(meta)}>"
        return text + "[" + ", ".join(inner(c) for c in _fused_parts(loc)) + "]"
    return json.dumps(str(loc))


@dataclass
class _Info:
    index: int
    deferrable: bool
    depth: int = 0


class LocAliases:
    """Collects the locations in printing order, then names them."""

    def __init__(self) -> None:
        self._info: dict[Attribute, _Info] = {}
        self.names: dict[Attribute, str] = {}
        self.ordered: list[Attribute] = []

    def visit(self, loc: Attribute, deferrable: bool) -> int:
        """Record `loc` (and the locations inside it); answer its depth."""
        info = self._info.get(loc)
        if info is not None:
            if not deferrable:
                self._undefer(loc)
            return info.depth
        info = self._info[loc] = _Info(len(self._info), deferrable)
        depths = [self.visit(child, deferrable) for child in children(loc)]
        info.depth = 1 + max(depths) if depths else 0
        return info.depth

    def _undefer(self, loc: Attribute) -> None:
        stack = [loc]
        while stack:
            item = stack.pop()
            info = self._info[item]
            if info.deferrable:
                info.deferrable = False
                stack.extend(children(item))

    def finish(self) -> None:
        """Name the locations: `#loc`, `#loc1`, ... by depth, then order met."""
        self.ordered = sorted(
            self._info, key=lambda loc: (self._info[loc].depth, self._info[loc].index)
        )
        self.names = {loc: f"#loc{i or ''}" for i, loc in enumerate(self.ordered)}

    def definitions(self, deferred: bool) -> list[str]:
        """`#locN = loc(...)` for the aliases defined after (or before) the module."""
        return [
            f"{self.names[loc]} = loc({location_text(loc, self.names)})"
            for loc in self.ordered
            if self._info[loc].deferrable == deferred
        ]
