"""Queries on values and regions the conversion and the alias analysis
share: the op defining a value, index constants, a value's region, region
ancestry, uses of values defined above, an attribute's text."""

from __future__ import annotations

from io import StringIO

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.printer import Printer


def _defining_op(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def _is_arith_constant(value: SSAValue) -> bool:
    return isinstance(_defining_op(value), arith.ConstantOp)


def _constant_index(value: SSAValue | None) -> int | None:
    """The value of an `arith.constant` of index type defining `value`."""
    if value is None:
        return None
    op = _defining_op(value)
    if (
        isinstance(op, arith.ConstantOp)
        and isinstance(op.result.type, IndexType)
        and isinstance(op.value, IntegerAttr)
    ):
        return op.value.value.data
    return None


def _value_region(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    assert isinstance(value, OpResult)
    return value.owner.parent_region()


def _is_ancestor(region: Region, other: Region | None) -> bool:
    """MLIR's `region.isAncestor(other)` (a region is its own ancestor)."""
    while other is not None:
        if other is region:
            return True
        parent = other.parent
        other = parent.parent_region() if parent is not None else None
    return False


def _uses_values_defined_above(region: Region) -> bool:
    for op in region.walk():
        for operand in op.operands:
            owner_region = _value_region(operand)
            if owner_region is None or not _is_ancestor(region, owner_region):
                return True
    return False


def _type_text(attr: Attribute) -> str:
    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()
