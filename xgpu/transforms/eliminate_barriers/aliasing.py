"""Whether two memory effects may touch aliasing memory (`may_alias_values`,
`get_base`, `maybe_captured`), whether effects conflict
(`have_conflicting_effects`), and so whether a barrier is needed
(`barrier_is_needed`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from xgpu.dialects.gpu.kernel import BarrierOp
from xgpu.transforms.eliminate_barriers.effect_scope import (
    _is_function,
    effects_after,
    effects_before,
)
from xgpu.transforms.eliminate_barriers.memory_effects import (
    _RESULT_ALLOCATIONS,
    ALLOCATE,
    FREE,
    READ,
    Effect,
    mlir_effects,
)

# --------------------------------------------------------------------------- #
# Aliasing                                                                    #
# --------------------------------------------------------------------------- #

_VIEW_SOURCES = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.transpose",
        "memref.collapse_shape",
        "memref.expand_shape",
    }
)

# Ops that pass their first operand through for capture purposes (MLIR's
# ViewLikeOpInterface and CastOpInterface ops on memrefs, transpose, reshapes).
_CAPTURE_PROPAGATING = _VIEW_SOURCES | frozenset(
    {"memref.reinterpret_cast", "memref.memory_space_cast", "memref.assume_alignment"}
)


def _defining_op(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def get_base(value: SSAValue) -> SSAValue:
    """The memref `value` is a view of (through casts, subviews, reshapes...)."""
    while True:
        op = _defining_op(value)
        if op is None or op.name not in _VIEW_SOURCES or not op.operands:
            return value
        value = op.operands[0]


def _function_argument_owner(value: SSAValue) -> tuple[Operation, int] | None:
    if not isinstance(value, BlockArgument):
        return None
    owner = value.block.parent_op()
    if not _is_function(owner):
        return None
    assert owner is not None
    return owner, value.index


def _is_noalias_argument(value: SSAValue) -> bool:
    found = _function_argument_owner(value)
    if found is None:
        return False
    owner, index = found
    arg_attrs = owner.properties.get("arg_attrs") or owner.attributes.get("arg_attrs")
    if not isinstance(arg_attrs, ArrayAttr) or index >= len(arg_attrs.data):
        return False
    attrs = arg_attrs.data[index]
    return isinstance(attrs, DictionaryAttr) and "llvm.noalias" in attrs.data


def _produces_distinct_base(op: Operation | None) -> bool:
    return op is not None and op.name in _RESULT_ALLOCATIONS


def _global_name(value: SSAValue) -> object | None:
    op = _defining_op(value)
    if op is not None and op.name == "memref.get_global":
        return op.properties.get("name")
    return None


def _known_capture(user: Operation, value: SSAValue) -> bool | None:
    name = user.name
    if name in ("memref.store", "vector.transfer_write", "vector.store"):
        return user.operands[0] is value
    if name == "vector.maskedstore":
        return len(user.operands) > 0 and user.operands[-1] is value
    if name == "memref.dealloc":
        return False
    return None


def maybe_captured(value: SSAValue) -> bool:
    """Whether some user may store `value` (the memref itself) somewhere."""
    todo = [value]
    seen: set[SSAValue] = set()
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            effects = mlir_effects(user)
            if effects is not None and all(e.kind == READ for e in effects):
                continue
            if user.name in _CAPTURE_PROPAGATING and user.operands:
                todo.append(user.operands[0])
                continue
            known = _known_capture(user, current)
            if known is None or known:
                return True
    return False


def may_alias_values(first: SSAValue, second: SSAValue) -> bool:
    first = get_base(first)
    second = get_base(second)
    if first is second:
        return True
    first_global, second_global = _global_name(first), _global_name(second)
    if first_global is not None and second_global is not None:
        return first_global == second_global
    if _is_noalias_argument(first) and _is_noalias_argument(second):
        return False
    distinct = (
        _produces_distinct_base(_defining_op(first)),
        _produces_distinct_base(_defining_op(second)),
    )
    is_global = (first_global is not None, second_global is not None)
    if (distinct[0] or is_global[0]) and (distinct[1] or is_global[1]):
        return False
    is_arg = (
        _function_argument_owner(first) is not None,
        _function_argument_owner(second) is not None,
    )
    if (distinct[0] and is_arg[1]) or (distinct[1] and is_arg[0]):
        return False
    if distinct[0] and not maybe_captured(first):
        return False
    if distinct[1] and not maybe_captured(second):
        return False
    return True


def _may_alias(a: Effect, b: Effect) -> bool:
    if a.value is None or b.value is None:
        return True
    return may_alias_values(a.value, b.value)


def have_conflicting_effects(before: Sequence[Effect], after: Sequence[Effect]) -> bool:
    for b in before:
        if b.kind in (ALLOCATE, FREE):
            continue
        for a in after:
            if a.kind == ALLOCATE or (b.kind == READ and a.kind == READ):
                continue
            if _may_alias(b, a):
                return True
    return False


def barrier_is_needed(barrier: BarrierOp) -> bool:
    before: list[Effect] = []
    effects_before(barrier, before, True)
    after: list[Effect] = []
    effects_after(barrier, after, True)
    return have_conflicting_effects(before, after)
