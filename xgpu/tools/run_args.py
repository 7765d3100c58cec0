"""xgpu-run's `--arg VALUE`: the entry function's arguments on the command line.

    xgpu-run examples/forum.mlir --arg 'range(10)' --arg 10

One `--arg` per argument of the entry function, in order:
- a scalar argument (integer, index, float, i1) takes a number: `10`, `-3`,
  `0.5`, `1e-3`, `true`, `false`;
- a memref argument takes its initial contents: a list of numbers `[1, 2.5, 3]`
  (nested lists for rank > 1), `range(N)` (0, 1, ..., N-1) or `zeros(N)` /
  `zeros(N, M, ...)`, in the memref's element type.

Values are read by a small tokenizer of their own (never evaluated as Python).
After the run, xgpu-run prints the final contents of each memref argument as
`arg N = [...]`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import AnyFloat, MemRefType, UnrankedMemRefType

from xgpu.runtime.memref import numpy_dtype

_TOKEN = re.compile(
    r"\s*(?:([\[\](),])|([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)|([A-Za-z_]\w*))"
)


class ArgError(Exception):
    """A `--arg` value that does not fit its argument."""


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ArgError(f"cannot read {text!r} at column {pos + 1}")
        out.append(m.group(m.lastindex or 0))
        pos = m.end()
    return out


def _number(token: str) -> int | float | bool:
    if token in ("true", "false"):
        return token == "true"
    try:
        return int(token)
    except ValueError:
        pass
    try:
        return float(token)
    except ValueError:
        raise ArgError(f"expected a number, got {token!r}") from None


class _Reader:
    def __init__(self, text: str):
        self.tokens = _tokens(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ArgError(f"expected {expected or 'a value'}, got {token or 'the end'}")
        self.pos += 1
        return token

    def value(self) -> Any:
        token = self.take()
        if token == "[":
            items: list[Any] = []
            while self.peek() != "]":
                items.append(self.value())
                if self.peek() not in ("]", ","):
                    raise ArgError(f"expected ',' or ']', got {self.peek() or 'the end'}")
                if self.peek() == ",":
                    self.take(",")
            self.take("]")
            return items
        if token in ("range", "zeros"):
            self.take("(")
            sizes = [self.size()]
            while self.peek() == ",":
                self.take(",")
                sizes.append(self.size())
            self.take(")")
            if token == "range" and len(sizes) != 1:
                raise ArgError("range(N) takes one size")
            return (token, sizes)
        return _number(token)

    def size(self) -> int:
        n = _number(self.take())
        if isinstance(n, bool) or not isinstance(n, int) or n < 0 or n > 1 << 28:
            raise ArgError(f"a size must be an integer from 0 to 2^28, got {n}")
        return n


def parse_arg(text: str, arg_type: Any, index: int) -> Any:
    """The value of `--arg TEXT` for argument `index` of type `arg_type`."""
    try:
        reader = _Reader(text)
        value = reader.value()
        if reader.peek() is not None:
            raise ArgError(f"unexpected {reader.peek()!r} after the value")
        if isinstance(arg_type, MemRefType | UnrankedMemRefType):
            dtype = numpy_dtype(arg_type.element_type)
            if isinstance(value, tuple):
                kind, sizes = value
                if kind == "range":
                    return np.arange(sizes[0]).astype(dtype)
                return np.zeros(sizes, dtype=dtype)
            if not isinstance(value, list):
                raise ArgError(
                    f"a memref argument takes a list, range(N) or zeros(N), got {text!r}"
                )
            try:
                return np.array(value).astype(dtype)
            except (ValueError, OverflowError) as err:
                raise ArgError(
                    f"{text!r} is not an array of {arg_type.element_type}: {err}"
                ) from None
        if isinstance(value, list | tuple):
            raise ArgError(f"argument of type {arg_type} takes a number, got {text!r}")
        if isinstance(arg_type, AnyFloat):
            return float(value)
        if isinstance(value, float):
            raise ArgError(f"argument of type {arg_type} takes an integer, got {text!r}")
        return int(value)
    except ArgError as err:
        raise ArgError(f"--arg {index} ({arg_type}): {err}") from None


def parse_args(texts: Sequence[str], arg_types: Sequence[Any], entry: str) -> list[Any]:
    if len(texts) != len(arg_types):
        raise ArgError(
            f"@{entry} takes {len(arg_types)} argument(s), {len(texts)} given with --arg"
        )
    return [parse_arg(t, ty, i) for i, (t, ty) in enumerate(zip(texts, arg_types))]


def _element_text(value: Any) -> str:
    if isinstance(value, np.floating):
        return np.format_float_positional(value, trim="0")
    return str(value.item() if isinstance(value, np.generic) else value)


def format_array(array: np.ndarray) -> str:
    """`[1.0, 2.0]`, nested for rank > 1, floats in their shortest form."""
    if array.ndim == 0:
        return _element_text(array[()])
    if array.ndim == 1:
        return "[" + ", ".join(_element_text(v) for v in array) + "]"
    return "[" + ", ".join(format_array(a) for a in array) + "]"
