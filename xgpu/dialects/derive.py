"""Dialects that xgpu takes from xDSL 0.75 and completes: xDSL's ops and
attributes, with xgpu's classes in place of those of the same name (an op
xDSL parses or prints differently from MLIR 22) and xgpu's additions (ops
xDSL lacks).

xgpu's replacement for an op xDSL has subclasses xDSL's class, so that code
which matches `isinstance(op, xdsl.dialects.memref.CastOp)` (xDSL's patterns,
xgpu's passes) keeps working on what xgpu's parser builds."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Attribute, Dialect, Operation


def derived_dialect(
    base: Dialect | None,
    name: str,
    ops: Iterable[type[Operation]] = (),
    attrs: Iterable[type[Attribute]] = (),
) -> Dialect:
    """`base` (xDSL's dialect `name`, or None where xDSL has none) with `ops`
    and `attrs` replacing the entries of the same name, or added."""
    by_op = {op.name: op for op in (base.operations if base else ())}
    by_op.update({op.name: op for op in ops})
    by_attr = {a.name: a for a in (base.attributes if base else ())}
    by_attr.update({a.name: a for a in attrs})
    interfaces = list(base._interfaces) if base else []  # noqa: SLF001
    return Dialect(name, list(by_op.values()), list(by_attr.values()), interfaces)
