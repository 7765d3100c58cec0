"""Helpers shared by xgpu's memref ops: an op's attribute dictionary with its
inherent attributes (MLIR's properties, which the custom forms write in the
attribute dictionary), and types as MLIR's diagnostics spell them."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    UnrankedMemRefType,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xgpu.ir.printer import attribute_text


class MemRefOp(IRDLOperation):
    """Base of xgpu's memref ops. Listed before the xDSL op it replaces, it
    resets the parser and printer that xDSL's declarative format generated
    for that op, so that the subclass may have its own format or its own
    `parse`/`print`."""

    parse = classmethod(Operation.parse.__func__)  # type: ignore[attr-defined]
    print = Operation.print


def parse_attr_dict_into(
    parser: Parser, op_type: type[IRDLOperation], properties: dict[str, Attribute]
) -> dict[str, Attribute]:
    """Parse an optional attribute dictionary; the entries that name a property
    of `op_type` go to `properties` (MLIR's inherent attributes), the others are
    returned."""
    attrs = parser.parse_optional_attr_dict()
    inherent = op_type.get_irdl_definition().properties
    for name in [n for n in attrs if n in inherent]:
        properties[name] = attrs.pop(name)
    return attrs


def print_attr_dict(printer: Printer, op: Operation, elided: Iterable[str] = ()) -> None:
    """` {...}` with the op's attributes and properties but `elided` (nothing
    when empty); the printer sorts the entries by name as MLIR does."""
    printer.print_op_attributes({**op.properties, **op.attributes}, reserved_attr_names=set(elided))


def quoted(attr: Attribute) -> str:
    return f"'{attribute_text(attr)}'"


def is_memref(type_: Attribute) -> bool:
    return isinstance(type_, MemRefType | UnrankedMemRefType)


def dynamic_count(type_: MemRefType) -> int:
    return sum(1 for d in type_.get_shape() if d == DYNAMIC_INDEX)


def verify_alignment_attr(value: Attribute | None, positive_pow2: bool = False) -> None:
    """ODS `ConfinedAttr<OptionalAttr<I64Attr>, [IntMinValue<0>]>` (alloc-like),
    or `[IntPositive, IntPowerOf2]` (load/store) with `positive_pow2`."""
    if value is None:
        return
    ok = isinstance(value, IntegerAttr) and value.type == i64
    if ok and positive_pow2:
        v = value.value.data
        ok = v > 0 and (v & (v - 1)) == 0
        description = (
            "64-bit signless integer attribute whose value is positive and whose value "
            "is a power of two > 0"
        )
    else:
        ok = ok and value.value.data >= 0  # type: ignore[union-attr]
        description = "64-bit signless integer attribute whose minimum value is 0"
    if not ok:
        raise VerifyException(f"attribute 'alignment' failed to satisfy constraint: {description}")


def check_memref_operand(value_type: Attribute, what: str = "operand #0") -> None:
    if not is_memref(value_type):
        raise VerifyException(
            f"{what} must be ranked or unranked memref of any type values, but got "
            f"{quoted(value_type)}"
        )
