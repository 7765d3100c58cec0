"""MLIR's `-verify-diagnostics` contract.

Annotations in the input say which diagnostics a chunk must produce:

    // expected-error @+1 {{incorrect number of dynamic sizes}}
    // expected-warning {{...}}            (on the line of the annotation)
    // expected-note @-2 {{...}}
    // expected-remark @above {{...}}      (@below too)
    // expected-error @unknown {{...}}     (a diagnostic without location)
    // expected-error-re {{cluster size {{[0-9]+}} is not}}

A line is an annotation when MLIR's pattern
`expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{(.*)}}$`
matches it (after trailing white space is removed); other lines, however close,
are not annotations. An `-re` text is literal text with `{{regex}}` pieces,
each a POSIX extended regex as llvm::Regex reads it (`xgpu.tools.posix_regex`,
matched in bounded time). Each produced diagnostic must match an expectation on
its line whose text it contains (or whose pattern matches it), of the same
severity; one expectation may absorb several diagnostics, and must absorb at
least one. Mismatches are reported as mlir-opt reports them, and fail the run.

xgpu's extension: a count after the designator (`expected-note @below 2 {{...}}`)
requires exactly that many matching diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xgpu.diagnostics import Diagnostic, Location
from xgpu.tools.posix_regex import (
    BACKREF,
    Regex,
    RegexError,
    RegexTooCostly,
    check_pattern,
    compile_pattern,
    escape,
)

# What follows `expected-` up to the `{{` of the text. Anchored and without
# nested repetition: it matches in time linear in the line.
_HEAD = re.compile(r"(error|note|remark|warning)(-re)? *(?:@([+-][0-9]+|above|below|unknown))? *")
_COUNT = re.compile(r"([0-9]+) *")
_TRAILING_SPACE = " \t\n\v\f\r"
_INT32_MAX = 2**31 - 1


@dataclass
class Expectation:
    severity: str
    text: str
    is_regex: bool
    line: int | None
    """The line the diagnostic must be at; None for `@unknown`, -1 for a line
    that no diagnostic can have (an offset MLIR cannot read)."""
    annotation: Location
    count: int | None = None
    """xgpu's extension: exactly this many matches (None: one or more)."""
    matched: int = 0
    error: str | None = None
    """Why the annotation is invalid (MLIR's message); it then expects nothing."""
    pattern: Regex | None = field(default=None, repr=False)

    def matches(self, message: str) -> bool:
        if not self.is_regex:
            return self.text in message
        # An `-re` text whose assembled pattern is invalid (an empty `{{}}`
        # text, ...) matches nothing, as in MLIR.
        return self.pattern is not None and self.pattern.search(message)

    @property
    def satisfied(self) -> bool:
        return self.matched >= 1 if self.count is None else self.matched == self.count

    @property
    def wants_more(self) -> bool:
        return self.count is None or self.matched < self.count


def assemble_regex(text: str) -> tuple[Regex | None, str | None]:
    """MLIR's `-re` text: literal text (escaped) with `{{regex}}` pieces (each
    checked on its own, then wrapped in a group). Returns the compiled pattern
    (None if the assembled pattern is invalid) or MLIR's error message."""
    parts: list[str] = []
    rest = text
    while rest:
        start = rest.find("{{")
        if start < 0:
            parts.append(escape(rest))
            break
        parts.append(escape(rest[:start]))
        rest = rest[start + 2 :]
        end = rest.find("}}")
        if end < 0:
            return None, "found start of regex with no end '}}'"
        piece = rest[:end]
        try:
            check_pattern(piece)
        except RegexError as err:
            return None, f"invalid regex: {err}"
        parts.append(f"({piece})")
        rest = rest[end + 2 :]
    try:
        return compile_pattern("".join(parts)), None
    except RegexError as err:
        # MLIR matches nothing with a pattern llvm rejects once assembled (the
        # groups around the pieces renumber back-references); one that llvm
        # accepts but has a back-reference cannot be matched in bounded time.
        return None, f"invalid regex: {BACKREF}" if str(err) == BACKREF else None


def _annotation(line: str) -> tuple[int, re.Match[str], re.Match[str] | None, str] | None:
    """The leftmost annotation of `line`: (column of `expected-`, the head,
    xgpu's count, the text between the `{{` and the final `}}`)."""
    line = line.rstrip(_TRAILING_SPACE)
    if not line.endswith("}}"):
        return None
    at = line.find("expected-")
    while at >= 0:
        head = _HEAD.match(line, at + len("expected-"))
        if head is not None:
            end = head.end()
            count = _COUNT.match(line, end) if head.group(3) != "unknown" else None
            if count is not None:
                end = count.end()
            if line.startswith("{{", end) and end + 4 <= len(line):
                return at, head, count, line[end + 2 : -2]
        at = line.find("expected-", at + 1)
    return None


def _offset(digits: str) -> int | None:
    """MLIR reads `@+N` with radix auto-detection (a leading 0 is octal) into
    an `int`; None where that fails (MLIR then uses an undefined value)."""
    try:
        value = int(digits, 8) if len(digits) > 1 and digits[0] == "0" else int(digits)
    except ValueError:
        return None
    return value if value <= _INT32_MAX else None


def parse_expectations(text: str, file: str, line_offset: int = 0) -> list[Expectation]:
    """The annotations of `text` (the whole input, as mlir-opt 22 reads them
    even under --split-input-file), its lines numbered from `line_offset` + 1."""
    lines = text.split("\n")
    found = [_annotation(line) for line in lines]
    result: list[Expectation] = []
    last_plain = 0  # MLIR's "last line that is not an annotation", from the first line
    below: list[Expectation] = []
    for i, match in enumerate(found):
        if match is None:
            for exp in below:
                exp.line = i + 1 + line_offset
            below.clear()
            last_plain = i
            continue
        col, head, count, body = match
        severity, regex, where = head.group(1), head.group(2), head.group(3)
        exp = Expectation(
            severity,
            body,
            regex is not None,
            i + 1 + line_offset,
            Location(file, i + 1 + line_offset, col + 1),
            int(count.group(1)) if count else None,
        )
        if exp.is_regex:
            exp.pattern, exp.error = assemble_regex(body)
        if where == "unknown":
            exp.line = None
        elif where == "above":
            exp.line = last_plain + 1 + line_offset
        elif where == "below":
            below.append(exp)
            exp.line = len(lines) + line_offset  # where a dangling `@below` points
        elif where is not None:
            offset = _offset(where[1:])
            if offset is None:
                exp.line = -1
            else:
                exp.line = i + 1 + line_offset + (offset if where[0] == "+" else -offset)
        result.append(exp)
    return result


def check(expectations: list[Expectation], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Match diagnostics (and their notes) against expectations; return the
    mismatches as errors, worded and ordered as mlir-opt's verifier reports
    them: invalid annotations, then each unexpected diagnostic, then each
    expectation that was not met."""
    problems: list[Diagnostic] = []
    valid: list[Expectation] = []
    for exp in expectations:
        if exp.error is not None:
            problems.append(Diagnostic("error", exp.error, exp.annotation, underline=len(exp.text)))
        else:
            valid.append(exp)
    file = expectations[0].annotation.file if expectations else None
    flat: list[Diagnostic] = []
    for d in diagnostics:
        flat.append(d)
        flat.extend(d.notes)
    for d in flat:
        problems.extend(_match(valid, d, file))
    located = [e for e in valid if e.line is not None]
    unknown = [e for e in valid if e.line is None]
    for exp in (*located, *unknown):
        if not exp.satisfied:
            problems.append(
                Diagnostic(
                    "error",
                    f'expected {exp.severity} "{exp.text}" was not produced',
                    exp.annotation,
                    underline=len(exp.text),
                )
            )
    return problems


def _match(expectations: list[Expectation], d: Diagnostic, file: str | None) -> list[Diagnostic]:
    """Record `d` against the expectations; the problem it makes, if any."""
    if d.location is None:
        candidates = [e for e in expectations if e.line is None]
    elif file is not None and d.location.file != file:
        candidates = []  # a location in another file: no annotation there
    else:
        candidates = [e for e in expectations if e.line == d.location.line]
    near_miss: Expectation | None = None
    problems: list[Diagnostic] = []
    for exp in candidates:
        if not exp.wants_more:
            continue
        try:
            matched = exp.matches(d.message)
        except RegexTooCostly:
            message = "expected-*-re pattern is too costly to match against this diagnostic"
            problems.append(Diagnostic("error", message, exp.annotation, underline=len(exp.text)))
            continue
        if matched:
            if exp.severity == d.severity:
                exp.matched += 1
                return problems
            near_miss = exp
    if near_miss is not None:
        message = f"'{d.severity}' diagnostic emitted when expecting a '{near_miss.severity}'"
        problems.append(Diagnostic("error", message, near_miss.annotation))
    else:
        problems.append(Diagnostic("error", f"unexpected {d.severity}: {d.message}", d.location))
    return problems
