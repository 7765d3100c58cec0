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


class DialectParts:
    """A derived dialect whose package imports none of its modules: each
    module (a part) defines some of xgpu's ops, listed in `parts` (module ->
    (the name of its list of ops, their names)); the dialect's other ops are
    xDSL's. xgpu's contexts load what an op name needs through `ops_for`
    (`xgpu.ir.context.XGpuContext`); `dialect()` is the whole dialect; the
    package's `__getattr__` finds the classes it exports (`exports`: name ->
    module)."""

    def __init__(
        self,
        package: str,
        name: str,
        parts: dict[str, tuple[str, tuple[str, ...]]],
        exports: dict[str, str],
    ):
        self.package = package
        self.name = name
        self.parts = parts
        self.exports = exports
        self._where = {op: module for module, (_, ops) in parts.items() for op in ops}
        self._xdsl: dict[str, type[Operation]] | None = None

    def part_ops(self, module: str) -> list[type[Operation]]:
        """The ops that the part `module` defines."""
        import importlib

        attr, _ = self.parts[module]
        return list(getattr(importlib.import_module(f"{self.package}.{module}"), attr))

    def ops_for(self, name: str) -> list[type[Operation]]:
        """What to load for the op `name`: the ops of the part that defines
        it, or xDSL's op of that name, or nothing (no such op)."""
        module = self._where.get(name)
        if module is not None:
            return self.part_ops(module)
        if self._xdsl is None:
            base = _xdsl_base(self.name)
            self._xdsl = {op.name: op for op in (base.operations if base else ())}
        op = self._xdsl.get(name)
        return [op] if op is not None else []

    def dialect(self) -> Dialect:
        ops = [op for module in self.parts for op in self.part_ops(module)]
        return derived_dialect(_xdsl_base(self.name), self.name, ops=ops)

    def export(self, attr: str) -> object:
        """The package's `__getattr__`: an exported class, from its module."""
        import importlib

        module = self.exports.get(attr)
        if module is None:
            raise AttributeError(f"module {self.package!r} has no attribute {attr!r}")
        return getattr(importlib.import_module(f"{self.package}.{module}"), attr)


def _xdsl_base(name: str) -> Dialect | None:
    from xgpu.dialects import xdsl_dialect

    return xdsl_dialect(name)
