"""Identifiers xgpu makes for the code it generates (OpenCL C, Python).

Generated code never spells an IR name. A symbol or value becomes
`<prefix><N>`, N a counter unique among the names of that prefix, plus a
hint for the reader: the IR name's ASCII letters, digits and underscores,
each run of other characters made one `_`, at most `HINT_LENGTH` characters:

    Namer("f")("a.b")  -> "f0_a_b"      Namer("f")("a_b") -> "f1_a_b"
    Namer("k")("ｍain") -> "k0_ain"      Namer("k")("f²")  -> "k1_f"

Such a name is ASCII (Python's NFKC normalization of identifiers cannot
merge two of them), a valid identifier of C and Python whatever the hint
(the prefix starts it, the counter separates the prefix from the hint), unique
through its counter whatever the hints, and short: at most
`len(prefix) + len(str(N)) + 1 + HINT_LENGTH` characters.
"""

from __future__ import annotations

import re

HINT_LENGTH = 24
"""The most characters of an IR name a generated identifier repeats."""

_OTHER = re.compile(r"[^A-Za-z0-9_]+")


def hint(text: str | None, length: int = HINT_LENGTH) -> str:
    """The readable part of `text` for an identifier: `[A-Za-z0-9_]` only
    (runs of other characters become one `_`), without leading or trailing
    `_`, at most `length` characters; "" when nothing is left."""
    if not text:
        return ""
    return _OTHER.sub("_", text)[:length].strip("_")


def mangled(prefix: str, n: int, text: str | None = None) -> str:
    """`<prefix><n>`, plus `_<hint>` when `text` has a readable part."""
    h = hint(text)
    return f"{prefix}{n}_{h}" if h else f"{prefix}{n}"


class Namer:
    """Fresh names `<prefix><N>[_hint]` (see the module docstring); `prefix`
    must start with a letter or `_` and contain only `[A-Za-z0-9_]`."""

    def __init__(self, prefix: str):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", prefix):
            raise ValueError(f"invalid identifier prefix {prefix!r}")
        self.prefix = prefix
        self.count = 0

    def __call__(self, text: str | None = None) -> str:
        name = mangled(self.prefix, self.count, text)
        self.count += 1
        return name
