"""The `OpSemantics` record and the registry the dialect tables fill."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.ir import Attribute

from xgpu.semantics.types import Scalar, SemanticsError, scalar


@dataclass(frozen=True)
class CHelper:
    """An OpenCL C function an expression calls: `source` defines `name`.

    Emitters print each helper once, before the code that uses it."""

    name: str
    source: str


@dataclass(frozen=True)
class Signature:
    """An op as the tables see it: its name, scalar operand and result types,
    and the parameters its attributes give (`predicate="slt"`, `value=3`)."""

    name: str
    operands: tuple[Scalar, ...]
    results: tuple[Scalar, ...]
    params: Mapping[str, Any] = field(default_factory=dict)

    def operand(self, i: int = 0) -> Scalar:
        return self.operands[i]

    def result(self, i: int = 0) -> Scalar:
        return self.results[i]


_PRIMARY = re.compile(r"[A-Za-z_]\w*(?:\[[^\[\]]*\])?|\d[\w.]*|\(.*\)")


def paren(text: str) -> str:
    """`text` as a C primary expression: identifiers and unsigned literals as
    they are, anything else in parentheses."""
    if _PRIMARY.fullmatch(text) and (not text.startswith("(") or _balanced_outer(text)):
        return text
    return f"({text})"


def _balanced_outer(text: str) -> bool:
    """Whether the first `(` of `text` closes at its last character."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return False
    return depth == 0


@dataclass(frozen=True)
class OpSemantics:
    """How one op (at given operand and result types) computes.

    - `c(*operands)`: an OpenCL C expression computing the result from the
      operands' C expressions (one string; a tuple of strings for ops with
      several results, e.g. `arith.addui_extended`). Operands may be any C
      expressions; they are parenthesized where needed. The expression may
      call the C functions listed in `helpers`.
    - `py(*values)`: the same computation on Python values (see
      `xgpu.semantics.types`): inputs are normalized to the operand types,
      the result (a tuple for several results) is normalized to the result types.
    """

    name: str
    operand_types: tuple[Scalar, ...]
    result_types: tuple[Scalar, ...]
    c_fn: Callable[..., str | tuple[str, ...]]
    py_fn: Callable[..., Any]
    helpers: tuple[CHelper, ...] = ()
    doc: str = ""

    def c(self, *operands: str) -> str | tuple[str, ...]:
        if len(operands) != len(self.operand_types):
            raise TypeError(f"{self.name}: expected {len(self.operand_types)} operands")
        return self.c_fn(*(paren(o) for o in operands))

    def py(self, *values: Any) -> Any:
        if len(values) != len(self.operand_types):
            raise TypeError(f"{self.name}: expected {len(self.operand_types)} operands")
        args = [t.norm(v) for t, v in zip(self.operand_types, values)]
        out = self.py_fn(*args)
        if len(self.result_types) == 1:
            return self.result_types[0].norm(out)
        return tuple(t.norm(v) for t, v in zip(self.result_types, out))

    @property
    def extensions(self) -> frozenset[str]:
        """OpenCL extensions the C expression needs (`cl_khr_fp64`, `cl_khr_fp16`)."""
        return extensions_for((*self.operand_types, *self.result_types))


def extensions_for(types: Sequence[Scalar]) -> frozenset[str]:
    exts = set()
    for t in types:
        if t.is_float and t.width == 64:
            exts.add("cl_khr_fp64")
        if t.is_float and t.width == 16:
            exts.add("cl_khr_fp16")
    return frozenset(exts)


Builder = Callable[[Signature], OpSemantics]
REGISTRY: dict[str, Builder] = {}


def register(*names: str) -> Callable[[Builder], Builder]:
    def deco(builder: Builder) -> Builder:
        for name in names:
            REGISTRY[name] = builder
        return builder

    return deco


def make(
    sig: Signature,
    c: Callable[..., str | tuple[str, ...]],
    py: Callable[..., Any],
    helpers: Sequence[CHelper] = (),
    doc: str = "",
) -> OpSemantics:
    return OpSemantics(sig.name, sig.operands, sig.results, c, py, tuple(helpers), doc)


def build(
    name: str,
    operand_types: Sequence[Attribute | Scalar | str],
    result_types: Sequence[Attribute | Scalar | str],
    params: Mapping[str, Any] | None = None,
) -> OpSemantics:
    builder = REGISTRY.get(name)
    if builder is None:
        raise SemanticsError(f"no semantics for '{name}'")
    sig = Signature(
        name,
        tuple(scalar(t) for t in operand_types),
        tuple(scalar(t) for t in result_types),
        dict(params or {}),
    )
    return builder(sig)
