"""MLIR's `-verify-diagnostics` contract.

Annotations in the input say which diagnostics a chunk must produce:

    // expected-error @+1 {{incorrect number of dynamic sizes}}
    // expected-warning {{...}}            (on the line of the annotation)
    // expected-note @-2 {{...}}
    // expected-remark @above {{...}}      (@below too)
    // expected-error @unknown {{...}}     (a diagnostic without location)
    // expected-error-re {{cluster size {{[0-9]+}} is not}}

Each produced diagnostic must match an expectation of the same severity on
the same line whose text is contained in the message (or, for `-re`, whose
pattern matches it); each expectation must be met. Mismatches are reported as
mlir-opt reports them, and make the run fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xgpu.diagnostics import Diagnostic, Location

_ANNOTATION = re.compile(
    r"expected-(error|warning|note|remark)(-re)?"
    r"\s*(?:@\s*([+-]\d+|above|below|unknown))?"
    r"\s*(?:(\d+)\s*)?\{\{(.*?)\}\}\s*$"
)


@dataclass
class Expectation:
    severity: str
    text: str
    is_regex: bool
    line: int | None
    """The line the diagnostic must be at; None for `@unknown`."""
    annotation: Location
    count: int = 1
    matched: int = 0

    def matches(self, message: str) -> bool:
        if not self.is_regex:
            return self.text in message
        return re.search(_mlir_regex(self.text), message) is not None


def _mlir_regex(text: str) -> str:
    """MLIR's `-re` syntax: literal text with `{{regex}}` islands."""
    out: list[str] = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}", text):
        out.append(re.escape(text[pos : m.start()]))
        out.append(m.group(1))
        pos = m.end()
    out.append(re.escape(text[pos:]))
    return "".join(out)


def parse_expectations(text: str, file: str, line_offset: int) -> list[Expectation]:
    """The annotations of one chunk; lines are numbered within the whole file."""
    lines = text.split("\n")
    is_annotation = [bool(_ANNOTATION.search(line)) for line in lines]
    result: list[Expectation] = []
    for i, line in enumerate(lines):
        m = _ANNOTATION.search(line)
        if m is None:
            continue
        severity, regex, where, count, body = m.groups()
        target: int | None = i
        if where == "unknown":
            target = None
        elif where == "above":
            target = i - 1
            while target > 0 and is_annotation[target]:
                target -= 1
        elif where == "below":
            target = i + 1
            while target < len(lines) - 1 and is_annotation[target]:
                target += 1
        elif where is not None:
            target = i + int(where)
        result.append(
            Expectation(
                severity,
                body,
                regex is not None,
                None if target is None else target + 1 + line_offset,
                Location(file, i + 1 + line_offset, m.start() + 1),
                int(count) if count else 1,
            )
        )
    return result


def check(expectations: list[Expectation], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Match diagnostics (and their notes) against expectations; return the
    mismatches as errors, worded as mlir-opt's verifier words them."""
    problems: list[Diagnostic] = []
    flat: list[Diagnostic] = []
    for d in diagnostics:
        flat.append(d)
        flat.extend(d.notes)
    for d in flat:
        line = None if d.location is None else d.location.line
        found = None
        for exp in expectations:
            if (
                exp.matched < exp.count
                and exp.severity == d.severity
                and exp.line == line
                and exp.matches(d.message)
            ):
                found = exp
                break
        if found is not None:
            found.matched += 1
        else:
            problems.append(
                Diagnostic("error", f"unexpected {d.severity}: {d.message}", d.location)
            )
    for exp in expectations:
        if exp.matched < exp.count:
            problems.append(
                Diagnostic(
                    "error",
                    f'expected {exp.severity} "{exp.text}" was not produced',
                    exp.annotation,
                )
            )
    return problems
