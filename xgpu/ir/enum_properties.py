"""Enum-valued properties (MLIR's I64EnumAttr) and their range: the parser's
error for an out-of-range `<{...}>` property and the verifier's check
(`core_verifiers`) share this table."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, Signedness
from xdsl.ir import Attribute

from xgpu.ir.printer import attribute_text

_I64 = IntegerType(64, Signedness.SIGNLESS)

ENUM_PROPERTIES: dict[str, tuple[str, int]] = {
    "arith.cmpi": ("predicate", 10),
    "arith.cmpf": ("predicate", 16),
    "memref.atomic_rmw": ("kind", 16),
}
"""Ops with an I64EnumAttr property (MLIR stores it as a 64-bit signless
integer): the property and how many cases the enum has."""


def enum_property_error(op_name: str, properties: dict[str, Attribute]) -> str | None:
    """MLIR's parse error for an `<{...}>` property out of its enum's range."""
    known = ENUM_PROPERTIES.get(op_name)
    if known is None or known[0] not in properties:
        return None
    name, cases = known
    value = properties[name]
    if in_range(value, cases):
        return None
    entries = ", ".join(f"{k} = {attribute_text(v)}" for k, v in sorted(properties.items()))
    return (
        f"invalid properties {{{entries}}} for op {op_name}: Invalid attribute `{name}` in "
        f"property conversion: {attribute_text(value)}"
    )


def in_range(value: Attribute, cases: int) -> bool:
    return isinstance(value, IntegerAttr) and value.type == _I64 and 0 <= value.value.data < cases
