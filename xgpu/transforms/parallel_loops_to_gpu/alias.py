"""MLIR's LocalAliasAnalysis as the nested-loop side-effect check of
`convert-parallel-loops-to-gpu` uses it (`no_alias`), and that check
(`_touches_written_memory`, `constant_like`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import BlockArgument, Operation, SSAValue

from xgpu.dialects import scf
from xgpu.transforms.constants import constant_value
from xgpu.transforms.eliminate_barriers import READ, WRITE, is_memory_effect_free, mlir_effects
from xgpu.transforms.parallel_loops_to_gpu.common import _defining_op, _value_region

# --------------------------------------------------------------------------- #
# MLIR's LocalAliasAnalysis (what the nested-loop check uses)                 #
# --------------------------------------------------------------------------- #

_VIEW_LIKE = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
        "memref.memory_space_cast",
        "memref.assume_alignment",
    }
)
_AUTOMATIC_ALLOCATION_SCOPES = frozenset(
    {
        "func.func",
        "gpu.func",
        "llvm.func",
        "gpu.launch",
        "scf.parallel",
        "scf.forall",
        "affine.for",
        "affine.parallel",
        "memref.alloca_scope",
    }
)
_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
_MAX_DEPTH = 10


def _underlying_values(
    value: SSAValue, depth: int, visited: set[SSAValue], out: list[SSAValue]
) -> None:
    """The values `value` may be (through views, scf.if/scf.for results and
    loop-carried arguments), as LocalAliasAnalysis collects them."""
    if value in visited:
        return
    visited.add(value)
    if depth >= _MAX_DEPTH:
        out.append(value)
        return
    op = _defining_op(value)
    sources: list[SSAValue] | None = None
    if op is not None:
        index = value.index  # type: ignore[attr-defined]
        if op.name in _VIEW_LIKE and op.operands:
            sources = [op.operands[0]]
        elif isinstance(op, scf.IfOp):
            sources = [
                term.operands[index]
                for region in op.regions
                for block in region.blocks
                if (term := block.last_op) is not None and index < len(term.operands)
            ]
        elif isinstance(op, scf.ForOp):
            sources = [op.iter_args[index]]
            if (term := op.body.block.last_op) is not None:
                sources.append(term.operands[index])
    elif isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if isinstance(owner, scf.ForOp) and value.index > 0:
            carried = value.index - 1
            sources = [owner.iter_args[carried]]
            if (term := owner.body.block.last_op) is not None:
                sources.append(term.operands[carried])
    if sources is None:
        out.append(value)
        return
    for source in sources:
        _underlying_values(source, depth + 1, visited, out)


def _allocation_scope(value: SSAValue) -> tuple[bool, Operation | None]:
    """Whether `value` is allocated by its defining op, and the op bounding the
    allocation (MLIR's getAllocEffectFor)."""
    op = _defining_op(value)
    if op is None:
        return False, None
    effects = mlir_effects(op)
    if not effects or not any(e.kind == "allocate" and e.value is value for e in effects):
        return False, None
    automatic = op.name == "memref.alloca"
    scope = op.parent_op()
    while scope is not None:
        if scope.name in (_AUTOMATIC_ALLOCATION_SCOPES if automatic else _FUNCTIONS):
            break
        scope = scope.parent_op()
    return True, scope


def _is_proper_ancestor(op: Operation, other: Operation) -> bool:
    current = other.parent_op()
    while current is not None:
        if current is op:
            return True
        current = current.parent_op()
    return False


def _no_alias_impl(lhs: SSAValue, rhs: SSAValue) -> bool:
    if lhs is rhs:
        return False
    lhs_const = constant_like(lhs)
    rhs_const = constant_like(rhs)
    if lhs_const or rhs_const:
        if lhs_const and rhs_const:
            return False
        return _allocation_scope(rhs if lhs_const else lhs)[0]
    lhs_alloc, lhs_scope = _allocation_scope(lhs)
    rhs_alloc, rhs_scope = _allocation_scope(rhs)
    if lhs_alloc == rhs_alloc:
        return lhs_alloc
    if rhs_alloc:
        lhs, rhs, lhs_scope = rhs, lhs, rhs_scope
    if lhs_scope is not None:
        region = _value_region(rhs)
        rhs_parent = region.parent if region is not None else None
        if rhs_parent is not None:
            if _is_proper_ancestor(rhs_parent, lhs_scope):
                return True
            if (
                rhs_parent is lhs_scope
                and isinstance(rhs, BlockArgument)
                and rhs.block is rhs.block.parent.first_block  # type: ignore[union-attr]
            ):
                return True
    return False


def no_alias(lhs: SSAValue, rhs: SSAValue) -> bool:
    """Whether MLIR's LocalAliasAnalysis answers NoAlias for two memrefs."""
    if lhs is rhs:
        return False
    lhs_values: list[SSAValue] = []
    rhs_values: list[SSAValue] = []
    _underlying_values(lhs, 0, set(), lhs_values)
    _underlying_values(rhs, 0, set(), rhs_values)
    if not lhs_values or not rhs_values:
        return False
    return all(_no_alias_impl(a, b) for a in lhs_values for b in rhs_values)


def constant_like(value: SSAValue) -> bool:
    op = _defining_op(value)
    return op is not None and constant_value(op) is not None


def _touches_written_memory(loop: scf.ParallelOp, written: Sequence[SSAValue]) -> bool:
    """Whether an op of `loop` (at any depth) reads or writes memory that may
    alias one of `written`, or memory it does not name."""
    for op in loop.walk():
        if is_memory_effect_free(op):
            continue
        for effect in mlir_effects(op) or ():
            if effect.kind not in (READ, WRITE):
                continue
            if effect.value is None:
                return True
            if any(not no_alias(effect.value, w) for w in written):
                return True
    return False
