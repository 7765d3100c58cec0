"""MLIR's `isOpTriviallyDead` / `wouldOpBeTriviallyDead` on xDSL ops.

An op whose results are unused can go when it is not a terminator, not a
symbol, and its memory effects (looking into the regions of ops with recursive
effects) are only reads, or any effect on a value it allocates itself. An op
with no effect information at all is kept. xDSL's effect traits that allocate
without naming a value (e.g. `memref.alloc`) count as allocating the op's
results, as MLIR declares them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)

_READ = MemoryEffectKind.READ
_ALLOC = MemoryEffectKind.ALLOC

# op type -> (terminator or symbol, has recursive effects, other effect
# traits or None when the op declares no effects at all)
_Info = tuple[bool, bool, tuple[MemoryEffect, ...] | None]
_INFO: dict[type[Operation], _Info] = {}

# xDSL 0.75 declares no effect trait on these ops, while MLIR 22 declares them
# effect-free (arith.extsi, cf.br and cf.cond_br are Pure, arith.remui
# NoMemoryEffect) or with recursive effects (scf.execute_region): without this,
# an unused one (or one holding them) would never be erased as MLIR erases it.
_MLIR_NO_EFFECTS = frozenset({"arith.extsi", "arith.remui", "cf.br", "cf.cond_br"})
_MLIR_RECURSIVE_EFFECTS = frozenset({"scf.execute_region"})


def _info(op: Operation) -> _Info:
    op_type = type(op)
    info = _INFO.get(op_type)
    if info is None:
        if isinstance(op, UnregisteredOp):
            info = (True, False, None)
        else:
            never = op.has_trait(IsTerminator) or op.has_trait(SymbolOpInterface)
            traits = op.get_traits_of_type(MemoryEffect)
            recursive = any(isinstance(t, RecursiveMemoryEffect) for t in traits)
            others = tuple(t for t in traits if not isinstance(t, RecursiveMemoryEffect))
            info = (never, recursive, others if traits else None)
            if not traits and op.name in _MLIR_NO_EFFECTS:
                info = (never, False, ())
            elif not traits and op.name in _MLIR_RECURSIVE_EFFECTS:
                info = (never, True, ())
        if not isinstance(op, UnregisteredOp):
            _INFO[op_type] = info
    return info


def _effects_allow_erasure(root: Operation) -> bool:
    pending = [root]
    while pending:
        op = pending.pop()
        _, recursive, traits = _info(op)
        if traits is None:
            return False
        if recursive:
            for region in op.regions:
                for block in region.blocks:
                    pending.extend(block.ops)
        if traits:
            for trait in traits:
                effects = trait.get_effects(op)
                if effects is None:
                    return False
                for effect in effects:
                    kind = effect.kind
                    if kind is _READ:
                        continue
                    value = effect.value
                    if value is None:
                        if kind is _ALLOC and op.results:
                            continue
                        return False
                    if any(value is r for r in op.results) and _allocates(op, value, effects):
                        continue
                    return False
    return True


def _allocates(op: Operation, value: object, effects) -> bool:
    return any(e.kind is _ALLOC and e.value is value for e in effects)


def would_be_trivially_dead(op: Operation) -> bool:
    """Whether `op` could be erased if its results had no uses."""
    if _info(op)[0]:
        return False
    return _effects_allow_erasure(op)


def is_trivially_dead(op: Operation) -> bool:
    """Whether `op` has no used result and no effect that matters."""
    for result in op.results:
        if result.first_use is not None:
            return False
    return would_be_trivially_dead(op)
