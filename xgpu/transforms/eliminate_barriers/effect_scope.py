"""The memory effects that may run before and after a barrier, up to the
neighbouring barriers and the parallel region boundary (`effects_before`,
`effects_after`, `collect_effects`)."""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import IsolatedFromAbove

from xgpu.dialects.gpu.func import GPUFuncOp as GpuFuncOp
from xgpu.dialects.gpu.kernel import BarrierOp
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.transforms.eliminate_barriers.memory_effects import (
    ALL_EFFECTS,
    Effect,
    has_recursive_effects,
    mlir_effects,
)

# --------------------------------------------------------------------------- #
# Effects before and after a barrier                                          #
# --------------------------------------------------------------------------- #


def _is_parallel_region_boundary(op: Operation) -> bool:
    return "__parallel_region_boundary_for_test" in op.attributes or isinstance(
        op, GpuFuncOp | LaunchOp
    )


def _is_function(op: Operation | None) -> bool:
    """MLIR's `FunctionOpInterface` (the function ops GPU programs use)."""
    return op is not None and op.name in ("func.func", "gpu.func", "llvm.func")


def _has_single_execution_body(op: Operation) -> bool:
    return _is_function(op) or op.name in ("scf.if", "memref.alloca_scope")


def _isolated(op: Operation) -> bool:
    return isinstance(op, UnregisteredOp) or op.has_trait(IsolatedFromAbove)


def collect_effects(op: Operation, effects: list[Effect], ignore_barriers: bool = True) -> bool:
    """Add `op`'s effects; False (with every effect on any memory added) when
    they are not known."""
    if ignore_barriers and isinstance(op, BarrierOp):
        return True
    own = mlir_effects(op)
    if own is not None:
        effects.extend(own)
        return True
    if has_recursive_effects(op):
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if not collect_effects(inner, effects, ignore_barriers):
                        return False
        return True
    effects.extend(ALL_EFFECTS)
    return False


def _effects_before_in_block(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    current = op.prev_op
    while current is not None:
        if isinstance(current, BarrierOp):
            if stop_at_barrier:
                return True
        elif not collect_effects(current, effects):
            return False
        current = current.prev_op
    return True


def _effects_after_in_block(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    current = op.next_op
    while current is not None:
        if isinstance(current, BarrierOp):
            if stop_at_barrier:
                return True
        elif not collect_effects(current, effects):
            return False
        current = current.next_op
    return True


def _walk_parent(parent: Operation, effects: list[Effect]) -> bool:
    """Every effect inside `parent` (a body that may run several times)."""
    if _has_single_execution_body(parent):
        return True
    for inner in parent.walk():
        if not collect_effects(inner, effects):
            return False
    return True


def effects_before(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    """MLIR's `getEffectsBefore`: True when `effects` is exact."""
    block = op.parent_block()
    if block is None:
        return True
    region = block.parent
    if region is not None and len(region.blocks) != 1:
        effects.extend(ALL_EFFECTS)
        return False
    _effects_before_in_block(op, effects, stop_at_barrier)
    parent = op.parent_op()
    if parent is None or _is_parallel_region_boundary(parent):
        return True
    if not _isolated(parent) and not effects_before(parent, effects, stop_at_barrier):
        return False
    if isinstance(parent, scf.ForOp):
        terminator = block.last_op
        assert terminator is not None
        return _effects_before_in_block(terminator, effects, True)
    return _walk_parent(parent, effects)


def effects_after(op: Operation, effects: list[Effect], stop_at_barrier: bool) -> bool:
    """MLIR's `getEffectsAfter`: True when `effects` is exact."""
    block = op.parent_block()
    if block is None:
        return True
    region = block.parent
    if region is not None and len(region.blocks) != 1:
        effects.extend(ALL_EFFECTS)
        return False
    _effects_after_in_block(op, effects, stop_at_barrier)
    parent = op.parent_op()
    if parent is None or _is_parallel_region_boundary(parent):
        return True
    if not _isolated(parent) and not effects_after(parent, effects, stop_at_barrier):
        return False
    if isinstance(parent, scf.ForOp):
        front = block.first_op
        assert front is not None
        if isinstance(front, BarrierOp):
            return True
        exact = collect_effects(front, effects)
        return _effects_after_in_block(front, effects, True) and exact
    return _walk_parent(parent, effects)
