"""MLIR's error for a property its C++ storage cannot hold, shared by xgpu's
async and index dialects. mlir-opt reports it while it parses `<{...}>`; xgpu
reports it when it verifies the op, at the op, in the same words."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Attribute, Operation

from xgpu.diagnostics import OpDiagnostic
from xgpu.ir.printer import attribute_text


def property_conversion_error(
    op: Operation, name: str, accepts: Callable[[Attribute], bool], detail: str | None = None
) -> None:
    """Raise MLIR's "invalid properties" error if property `name` of `op` is
    present and not accepted. `detail` replaces the default reason
    ("Invalid attribute `name` in property conversion: VALUE")."""
    value = op.properties.get(name)
    if value is None or accepts(value):
        return
    entries = ", ".join(f"{k} = {attribute_text(v)}" for k, v in sorted(op.properties.items()))
    reason = detail or f"Invalid attribute `{name}` in property conversion: {attribute_text(value)}"
    raise OpDiagnostic(f"invalid properties {{{entries}}} for op {op.name}: {reason}", prefix=False)
