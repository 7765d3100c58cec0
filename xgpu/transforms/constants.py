"""Constant uniquing and hoisting, as MLIR's `OperationFolder` does it.

Within one insertion region (the nearest enclosing region whose op is isolated
from above, unregistered, or top-level) there is one constant per (dialect,
value, type). The first one met in a pre-order walk is kept and moved to the
front of the region's entry block, unless it is already there or right after a
constant kept before it; later duplicates are replaced by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    UnregisteredOp,
)
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import ConstantLike, IsolatedFromAbove

if TYPE_CHECKING:
    from xgpu.transforms.greedy import GreedyDriver

_CONSTANT_LIKE: dict[type[Operation], bool] = {}
_ISOLATED: dict[type[Operation], bool] = {}


def constant_value(op: Operation) -> Attribute | None:
    """The value of a constant-like op (MLIR's `m_Constant`), else None."""
    op_type = type(op)
    is_constant = _CONSTANT_LIKE.get(op_type)
    if is_constant is None:
        is_constant = _CONSTANT_LIKE[op_type] = not isinstance(op, UnregisteredOp) and op.has_trait(
            ConstantLike
        )
    if not is_constant:
        return None
    if isinstance(op, arith.ConstantOp):
        return op.value
    return ConstantLike.get_constant_value(op.results[0])


def _isolated(op: Operation) -> bool:
    op_type = type(op)
    isolated = _ISOLATED.get(op_type)
    if isolated is None:
        isolated = _ISOLATED[op_type] = isinstance(op, UnregisteredOp) or op.has_trait(
            IsolatedFromAbove
        )
    return isolated


def insertion_region(block: Block) -> Region:
    """The region whose entry block receives the constants used in `block`."""
    while True:
        region = block.parent
        assert region is not None
        parent = region.parent
        if parent is None or parent.parent is None or _isolated(parent):
            return region
        block = parent.parent


def materialize_constant(op: Operation, value: Attribute, type_: Attribute) -> Operation | None:
    """A constant op for a folded value (what the arith, index-typed and memref
    dialects of MLIR all build: `arith.constant`; the index dialect builds its
    own constants), or None if there is none."""
    if op.name.startswith("index."):
        from xgpu.dialects.index import materialize_index_constant

        return materialize_index_constant(value, type_)
    if isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr):
        if value.type != type_:
            return None
        return arith.ConstantOp(value)
    return None


class ConstantFolder:
    """One iteration's constant table (MLIR's OperationFolder)."""

    def __init__(self, driver: GreedyDriver) -> None:
        self.scopes: dict[Region, dict[tuple[str, Attribute, Attribute], Operation]] = {}
        self.owned: set[Operation] = set()
        self.rewriter = PatternRewriter(InsertPoint.at_end(driver.scope.block))  # type: ignore[union-attr]
        self.rewriter.extend_from_listener(driver.listener)

    def insert_known_constant(self, op: Operation) -> bool:
        """Unique `op`; False if it was replaced by an equal constant."""
        block = op.parent
        assert block is not None
        owned = self.owned
        if op in owned:
            if block.first_op is not op and op.prev_op not in owned:
                op.detach()
                block.insert_op_before(op, block.first_op)  # type: ignore[arg-type]
            return True
        value = constant_value(op)
        region = insertion_region(block)
        table = self.scopes.get(region)
        if table is None:
            table = self.scopes[region] = {}
        key = (op.dialect_name(), value, op.results[0].type)
        existing = table.get(key)  # type: ignore[arg-type]
        if existing is not None:
            self.rewriter.replace(op, [], existing.results)
            return False
        entry = region.first_block
        assert entry is not None
        if block is not entry or (entry.first_op is not op and op.prev_op not in owned):
            op.detach()
            first = entry.first_op
            if first is None:
                entry.add_op(op)
            else:
                entry.insert_op_before(op, first)
        table[key] = op  # type: ignore[index]
        owned.add(op)
        return True
