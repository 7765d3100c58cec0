"""Diagnostics in MLIR's shape.

Verifiers raise `VerifyException(message)` with MLIR's message text and no op
prefix: the driver prints it as `FILE:LINE:COL: error: 'gpu.op' op message`
at the failing op. When MLIR reports an error at another op, or attaches
notes, raise `OpDiagnostic` (a `VerifyException`) instead:

    raise OpDiagnostic("expected 'gpu.terminator' or a terminator with successors",
                       op=terminator, notes=[(launch, "in 'gpu.launch' body region")])

Passes that report warnings or remarks (not errors) use `emit(op, "warning", msg)`.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc, UnregisteredOp
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from xgpu.ir.locations import location_stack

SEVERITIES = ("error", "warning", "remark", "note")


class OpDiagnostic(VerifyException):
    """A verifier error with MLIR's extra structure.

    `op`: the op the error is reported at (default: the op being verified).
    `prefix`: whether the message starts with `'op.name' op ` (MLIR's
    `emitOpError`) or not (`emitError`).
    `notes`: (op or None, message) pairs printed as `note:` after the error.
    """

    def __init__(
        self,
        message: str,
        op: Operation | None = None,
        *,
        prefix: bool = True,
        notes: Sequence[tuple[Operation | None, str]] = (),
    ):
        super().__init__(message)
        self.message = message
        self.op = op
        self.prefix = prefix
        self.notes = list(notes)


@dataclass
class Location:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class Diagnostic:
    severity: str
    message: str
    location: Location | None
    notes: list[Diagnostic] = field(default_factory=list)
    op: Operation | None = None
    """The op the diagnostic is about, where there is one."""
    underline: int = 0
    """How many characters from the location the caret line marks (`^~~~`)."""


def location_of(op: Operation | None) -> Location | None:
    """The source location of `op` as MLIR shows it (the first file location
    in its names, call sites and fused locations), or its nearest ancestor's."""
    while op is not None:
        stack = location_stack(op.location)
        if stack:
            return _location(stack[0])
        op = op.parent_op()
    return None


def _location(loc: FileLineColLoc) -> Location:
    return Location(loc.filename.data, loc.line.data, loc.column.data)


def _called_from(diag: Diagnostic) -> list[Diagnostic]:
    """mlir-opt's `called from` notes under a diagnostic at a call site location."""
    if diag.op is None or location_of(diag.op) != diag.location:
        return []
    stack = location_stack(diag.op.location)
    return [Diagnostic("note", "called from", _location(loc)) for loc in stack[1:]]


def op_name(op: Operation) -> str:
    """The op's name as written (xDSL names every unregistered op `builtin.unregistered`)."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def symbol_text(name: str) -> str:
    """`@name` as MLIR prints a symbol (quoted and escaped where needed), for
    messages: no raw control character of a symbol reaches the terminal."""
    from xdsl.dialects.builtin import SymbolRefAttr

    return str(SymbolRefAttr(name))


def op_message(op: Operation, message: str, prefix: bool = True) -> str:
    return f"'{op_name(op)}' op {message}" if prefix else message


def diagnostic_from_exception(op: Operation, exc: VerifyException) -> Diagnostic:
    """Turn a verifier's exception raised while verifying `op` into a Diagnostic."""
    if isinstance(exc, OpDiagnostic):
        at = exc.op if exc.op is not None else op
        diag = Diagnostic("error", op_message(at, exc.message, exc.prefix), location_of(at), op=at)
        for note_op, note in exc.notes:
            diag.notes.append(
                Diagnostic("note", note, location_of(note_op) if note_op else diag.location)
            )
        return diag
    message = str(exc.args[0]) if exc.args else str(exc)
    # Some xDSL verifiers (HasParent, ...) already start with the op name.
    message = message.removeprefix(f"'{op_name(op)}' ")
    return Diagnostic("error", op_message(op, message), location_of(op), op=op)


class DiagnosticEngine:
    """Collects diagnostics emitted by passes (warnings, remarks, errors)."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def emit(
        self,
        op: Operation,
        severity: str,
        message: str,
        notes: Sequence[tuple[Operation | None, str]] = (),
    ) -> Diagnostic:
        assert severity in SEVERITIES
        diag = Diagnostic(severity, message, location_of(op), op=op)
        for note_op, note in notes:
            diag.notes.append(
                Diagnostic("note", note, location_of(note_op) if note_op else diag.location)
            )
        self.diagnostics.append(diag)
        return diag

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


_engines: list[DiagnosticEngine] = [DiagnosticEngine()]


def engine() -> DiagnosticEngine:
    """The engine that currently collects diagnostics."""
    return _engines[-1]


@contextmanager
def collecting() -> Iterator[DiagnosticEngine]:
    """Collect the diagnostics emitted inside the `with` block into a fresh engine."""
    eng = DiagnosticEngine()
    _engines.append(eng)
    try:
        yield eng
    finally:
        _engines.pop()


def emit(
    op: Operation,
    severity: str,
    message: str,
    notes: Sequence[tuple[Operation | None, str]] = (),
) -> Diagnostic:
    """Emit a diagnostic at `op` into the current engine."""
    return engine().emit(op, severity, message, notes)


class SourceFiles:
    """Source texts by file name, for printing the line and caret under a diagnostic."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}

    def add(self, name: str, text: str) -> None:
        self._lines[name] = text.split("\n")

    def line(self, loc: Location) -> str | None:
        """The source line of `loc`, if the location is inside the text (a
        column at most one past the end of its line, as llvm's SourceMgr)."""
        lines = self._lines.get(loc.file)
        if lines is None or not (1 <= loc.line <= len(lines)):
            return None
        text = lines[loc.line - 1].rstrip("\r")
        if not (1 <= loc.col <= len(text) + 1):
            return None
        return text


_TAB_STOP = 8


def _caret_lines(text: str, col: int, underline: int) -> tuple[str, str]:
    """The source line with tabs expanded (as llvm's SourceMgr prints it) and
    the caret line: `^` under column `col`, `~` under the rest of the range."""
    last = min(col - 1 + max(underline, 1), len(text))
    if "\t" not in text:
        return text, " " * (col - 1) + "^" + "~" * max(last - col, 0)
    shown: list[str] = []
    starts: list[int] = []
    width = 0
    for char in text:
        starts.append(width)
        step = _TAB_STOP - width % _TAB_STOP if char == "\t" else 1
        shown.append(" " * step if char == "\t" else char)
        width += step
    starts.append(width)
    begin, stop = starts[col - 1], starts[last]
    return "".join(shown), " " * begin + "^" + "~" * max(stop - begin - 1, 0)


def format_diagnostic(diag: Diagnostic, sources: SourceFiles | None = None) -> str:
    """Format as mlir-opt does: `file:line:col: error: msg`, the line, a caret."""
    out: list[str] = []
    for d in (diag, *_called_from(diag), *diag.notes):
        where = f"{d.location}: " if d.location else "<unknown>:0: "
        out.append(f"{where}{d.severity}: {d.message}")
        # Like mlir-opt, a note at the error's own location shows no source line.
        if d is not diag and d.location == diag.location:
            continue
        if d.location and sources is not None:
            text = sources.line(d.location)
            if text is not None:
                shown, caret = _caret_lines(text, d.location.col, d.underline)
                out.append(shown)
                out.append(caret)
    return "\n".join(out)


class LineIndex:
    """Maps offsets in a text to (line, column), in O(log n) per look-up."""

    def __init__(self, text: str | bytes):
        nl = b"\n" if isinstance(text, bytes) else "\n"
        starts = [0]
        find = text.find
        i = find(nl)
        while i != -1:
            starts.append(i + 1)
            i = find(nl, i + 1)
        self._starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


def make_location_attr(file: str, line: int, col: int) -> Attribute:
    return FileLineColLoc(_file_attr(file), _int_attr(line), _int_attr(col))


@functools.lru_cache(maxsize=64)
def _file_attr(file: str) -> Attribute:
    from xdsl.dialects.builtin import StringAttr

    return StringAttr(file)


@functools.lru_cache(maxsize=4096)
def _int_attr(value: int) -> Attribute:
    from xdsl.dialects.builtin import IntAttr

    return IntAttr(value)
