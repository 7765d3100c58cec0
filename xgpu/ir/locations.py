"""Locations as MLIR 22 reads and shows them.

`LocationParser` is the parser mixin for `loc(...)`: MLIR 22's grammar
(`"file":line`, `"file":line:col`, the ranges `... to line:col` and `... to
:col`, names with an optional child, `callsite(... at ...)`, `fused<meta>[...]`,
`unknown`, `#alias`), line and column numbers that fit MLIR's `unsigned`, and
MLIR's messages at MLIR's positions. xDSL 0.75 has no FileLineColRange: a range
is kept as its start (a line without column gets column 0, as MLIR prints it).

`shown_location` is MLIR's choice of the location to print for a diagnostic
(the first file location inside names, call sites' callees and fused lists),
found without recursion, however deep the location nests.
"""

from __future__ import annotations

from typing import NoReturn

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

_UNSIGNED_MAX = 2**32 - 1
_RANGE = " in FileLineColRange"


def shown_location(loc: Attribute | None) -> FileLineColLoc | None:
    """The file location MLIR shows for `loc` (its `findLocToShow`), if any."""
    stack: list[Attribute | None] = [loc]
    while stack:
        item = stack.pop()
        if isinstance(item, FileLineColLoc):
            return item
        if isinstance(item, NameLoc):
            stack.append(item.location)
        elif isinstance(item, CallSiteLoc):
            stack.append(item.callee)
        elif isinstance(item, FusedLoc):
            stack.extend(reversed(item.locations.data))
    return None


CALL_STACK_LIMIT = 10
"""How many `called from` notes mlir-opt prints for a call site location."""


def _first_call_site(loc: Attribute | None) -> CallSiteLoc | None:
    """The first call site location nested in `loc` (MLIR's `findInstanceOf`)."""
    stack: list[Attribute | None] = [loc]
    while stack:
        item = stack.pop()
        if isinstance(item, CallSiteLoc):
            return item
        if isinstance(item, NameLoc):
            stack.append(item.location)
        elif isinstance(item, FusedLoc):
            stack.extend(reversed(item.locations.data))
    return None


def location_stack(loc: Attribute | None) -> list[FileLineColLoc]:
    """The file locations mlir-opt prints for a diagnostic at `loc`: the one
    it shows, then those of the callers of a call site (`called from`)."""
    shown = shown_location(loc)
    stack = [] if shown is None else [shown]
    call = _first_call_site(loc)
    for _ in range(CALL_STACK_LIMIT if call is not None else 0):
        assert call is not None
        caller = call.caller
        if (where := shown_location(caller)) is not None:
            stack.append(where)
        call = _first_call_site(caller)
        if call is None:
            break
    return stack


def wrong_token_position(text: str, pos: int) -> int:
    """Where MLIR reports an error about the token at `pos` (its
    `emitWrongTokenError`): a token that starts a line is reported at the end
    of the last preceding line with code (comments and blank lines skipped)."""
    head = text[:pos]
    while True:
        head = head.rstrip(" \t")
        if not head:
            return pos
        if head[-1] not in "\n\r":
            return len(head)
        head = head[:-1]
        line_start = max(head.rfind("\n"), head.rfind("\r")) + 1
        comment = head.find("//", line_start)
        if comment >= 0:
            head = head[:comment]


class LocationParser(Parser):
    """xDSL's Parser with MLIR 22's `loc(...)` syntax and messages."""

    def _location_error(self, message: str, wrong_token: bool = True) -> NoReturn:
        start = self._current_token.span.start
        if wrong_token:
            start = wrong_token_position(self.lexer.input.content, start)
        span = Span(start, start + 1, self.lexer.input)
        err = ParseError(span, message)
        err._xgpu_owned = True  # type: ignore[attr-defined]  # never `custom op` prefixed
        raise err

    def _loc_kind(self) -> MLIRTokenKind:
        return self._current_token.kind

    def _loc_text(self) -> str:
        return self._current_token.text

    def _loc_take(self, kind: MLIRTokenKind, message: str) -> None:
        if self._loc_kind() is not kind:
            self._location_error(message)
        self._consume_token()

    def parse_optional_location(self) -> LocationAttr | None:
        if self._loc_kind() is not MLIRTokenKind.BARE_IDENT or self._loc_text() != "loc":
            return None
        self._consume_token()
        self._loc_take(MLIRTokenKind.L_PAREN, "expected '(' in location")
        loc = self._parse_location()
        self._loc_take(MLIRTokenKind.R_PAREN, "expected ')' in location")
        return loc

    def _parse_location(self) -> LocationAttr:
        kind = self._loc_kind()
        if kind is MLIRTokenKind.HASH_IDENT:
            attr = self.parse_attribute()
            if not isinstance(attr, LocationAttr):
                self._location_error(f"expected location attribute, but got {attr}", False)
            return attr
        if kind is MLIRTokenKind.STRING_LIT:
            return self._name_or_file_location()
        word = self._loc_text() if kind is MLIRTokenKind.BARE_IDENT else ""
        if word == "unknown":
            self._consume_token()
            return UnknownLoc()
        if word == "callsite":
            self._consume_token()
            self._loc_take(MLIRTokenKind.L_PAREN, "expected '(' in callsite location")
            callee = self._parse_location()
            if self._loc_kind() is not MLIRTokenKind.BARE_IDENT or self._loc_text() != "at":
                self._location_error("expected 'at' in callsite location")
            self._consume_token()
            caller = self._parse_location()
            self._loc_take(MLIRTokenKind.R_PAREN, "expected ')' in callsite location")
            return CallSiteLoc(callee, caller)
        if word == "fused":
            return self._fused_location()
        self._location_error("expected location instance")

    def _fused_location(self) -> LocationAttr:
        self._consume_token()
        metadata: Attribute = NoneAttr()
        if self._loc_kind() is MLIRTokenKind.LESS:
            self._consume_token()
            metadata = self.parse_attribute()
            self._loc_take(MLIRTokenKind.GREATER, "expected '>' after fused location metadata")
        self._loc_take(MLIRTokenKind.L_SQUARE, "expected '[' in fused location")
        locations: list[LocationAttr] = []
        if self._loc_kind() is not MLIRTokenKind.R_SQUARE:
            locations.append(self._parse_location())
            while self._loc_kind() is MLIRTokenKind.COMMA:
                self._consume_token()
                locations.append(self._parse_location())
        self._loc_take(MLIRTokenKind.R_SQUARE, "expected ']' in fused location")
        return FusedLoc(tuple(locations), metadata)

    def _name_or_file_location(self) -> LocationAttr:
        name = self.parse_str_literal()
        if self._loc_kind() is MLIRTokenKind.COLON:
            self._consume_token()
            line = self._location_number("line")
            column = 0
            if self._loc_kind() is MLIRTokenKind.COLON:
                self._consume_token()
                column = self._location_number("column")
                if self._loc_kind() is MLIRTokenKind.BARE_IDENT and self._loc_text() == "to":
                    self._consume_token()
                    if self._loc_kind() is MLIRTokenKind.INTEGER_LIT:
                        self._location_number("line")
                    if self._loc_kind() is not MLIRTokenKind.COLON:
                        self._location_error(f"expected either integer or `:` post `to`{_RANGE}")
                    self._consume_token()
                    self._location_number("column")
            return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(column))
        child: Attribute = NoneAttr()
        if self._loc_kind() is MLIRTokenKind.L_PAREN:
            self._consume_token()
            child = self._parse_location()
            self._loc_take(MLIRTokenKind.R_PAREN, "expected ')' after child location of NameLoc")
        return NameLoc(StringAttr(name), child)

    def _location_number(self, what: str) -> int:
        """A line or column number: an integer token whose value fits `unsigned`."""
        if self._loc_kind() is not MLIRTokenKind.INTEGER_LIT:
            self._location_error(f"expected integer {what} number{_RANGE}")
        text = self._loc_text()
        try:
            value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
        except ValueError:
            value = -1
        if not 0 <= value <= _UNSIGNED_MAX:
            self._location_error(f"expected integer {what} number{_RANGE}", what == "line")
        self._consume_token()
        return value


def assert_origin(loc: Attribute | None) -> tuple[str, int, str]:
    """(file, line, function) of a `cf.assert` at `loc`, as MLIR's GPU
    lowering passes them to the device's assertion handler: call sites are
    followed to their callee; a file location gives the file and line, a
    name its function (and the file and line of its child); what is missing
    is "(unknown)" (line 0)."""
    while isinstance(loc, CallSiteLoc):
        loc = loc.callee
    func = "(unknown)"
    if isinstance(loc, NameLoc):
        func = loc.desc.data
        loc = loc.location
    if isinstance(loc, FileLineColLoc):
        return loc.filename.data, loc.line.data, func
    return "(unknown)", 0, func


def assertion_line(
    origin: tuple[str, int, str], block: tuple[int, ...], thread: tuple[int, ...], message: str
) -> str:
    """The line a failing work-item prints for a `cf.assert` (the form of
    CUDA's device assertions, which MLIR's GPU integration tests check)."""
    file, line, func = origin
    b = ",".join(str(v) for v in block)
    t = ",".join(str(v) for v in thread)
    return f"{file}:{line}: {func}: block: [{b}], thread: [{t}] Assertion `{message}` failed."
