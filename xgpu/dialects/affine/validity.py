"""Which values an affine access may use as a dimension or a symbol (MLIR's
`isValidDim` and `isValidSymbol`, checked by affine.load/store and their
vector forms).

An affine scope is the region of a function, kernel, launch or module. A
symbol is a value of the scope's top level (or a constant, an affine.apply of
symbols, a memref.dim of a top-level memref, or a value from around a
non-isolated op); a dimension is a symbol, an induction variable of
affine.for/affine.parallel, or an affine.apply of dimensions."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import ConstantLike, IsolatedFromAbove

AFFINE_SCOPES = frozenset({"builtin.module", "func.func", "gpu.func", "gpu.launch", "gpu.module"})
_INDUCTION_OWNERS = ("affine.for", "affine.parallel")


def check_access_operands(op: Operation, num_dims: int, operands) -> str | None:
    """MLIR's message for the first subscript operand that is not a valid
    dimension (the first `num_dims`) or symbol, or None."""
    scope = affine_scope(op)
    if scope is None:
        return None
    for i, operand in enumerate(operands):
        if i < num_dims:
            if not is_valid_dim(operand, scope):
                return "operand cannot be used as a dimension id"
        elif not is_valid_symbol(operand, scope):
            return "operand cannot be used as a symbol"
    return None


def _is_scope(op: Operation | None) -> bool:
    return op is not None and op.name in AFFINE_SCOPES


def affine_scope(op: Operation) -> Region | None:
    """The region of the nearest enclosing affine scope of `op`."""
    current = op
    while (parent := current.parent_op()) is not None:
        if _is_scope(parent):
            return current.parent_region()
        current = parent
    return None


def _value_region(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    assert isinstance(value, OpResult)
    return value.op.parent_region()


def _is_induction_var(value: SSAValue) -> bool:
    """An induction variable of affine.for (its first block argument) or
    affine.parallel (any of its block arguments)."""
    if not isinstance(value, BlockArgument):
        return False
    owner = value.block.parent_op()
    if owner is None or owner.name not in _INDUCTION_OWNERS:
        return False
    return owner.name == "affine.parallel" or value.index == 0


def _is_top_level(value: SSAValue) -> bool:
    """Defined at the top level of some affine scope."""
    region = _value_region(value)
    return region is not None and _is_scope(region.parent_op())


def _outer(region: Region | None) -> Region | None:
    """The region around `region`'s op, if that op sees values from outside."""
    if region is None:
        return None
    op = region.parent_op()
    if op is None or op.has_trait(IsolatedFromAbove):
        return None
    return op.parent_region()


def is_valid_symbol(value: SSAValue, region: Region | None) -> bool:
    if not isinstance(value.type, IndexType):
        return False
    if region is not None and _value_region(value) is region:
        return True
    if isinstance(value, OpResult):
        op = value.op
        if op.has_trait(ConstantLike):
            return True
        if op.name == "affine.apply":
            return all(is_valid_symbol(o, region) for o in op.operands)
        if op.name in ("memref.dim", "tensor.dim"):
            return _is_top_level(op.operands[0]) or (
                region is not None and _value_region(op.operands[0]) is region
            )
    outer = _outer(region)
    return outer is not None and is_valid_symbol(value, outer)


def is_valid_dim(value: SSAValue, region: Region | None) -> bool:
    if not isinstance(value.type, IndexType):
        return False
    if is_valid_symbol(value, region):
        return True
    if isinstance(value, BlockArgument):
        return _is_induction_var(value)
    op = value.op
    if op.name == "affine.apply":
        return all(is_valid_dim(o, region) for o in op.operands)
    if op.name in ("memref.dim", "tensor.dim"):
        return _is_top_level(op.operands[0])
    return False
