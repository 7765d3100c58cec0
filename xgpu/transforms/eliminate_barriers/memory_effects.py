"""MLIR 22's memory effects on xgpu's IR (`Effect`, `mlir_effects`,
`has_recursive_effects`, `is_memory_effect_free`, `would_be_trivially_dead`):
the effect model of `gpu-eliminate-barriers`, shared with
`convert-parallel-loops-to-gpu`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType, UnrankedMemRefType, UnregisteredOp
from xdsl.ir import Operation, SSAValue
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)

# --------------------------------------------------------------------------- #
# MLIR 22's memory effects                                                    #
# --------------------------------------------------------------------------- #

READ = "read"
WRITE = "write"
ALLOCATE = "allocate"
FREE = "free"


@dataclass(frozen=True, slots=True)
class Effect:
    """One `MemoryEffects::EffectInstance`: its kind and the value it is on
    (None: any memory)."""

    kind: str
    value: SSAValue | None = None


ALL_EFFECTS = (Effect(READ), Effect(WRITE), Effect(ALLOCATE), Effect(FREE))

# Dialects whose ops are all free of memory effects in MLIR 22.
_PURE_DIALECTS = frozenset({"arith", "math", "index", "complex", "ub"})

_PURE_OPS = frozenset(
    {
        "func.return",
        "func.constant",
        "cf.br",
        "cf.cond_br",
        "cf.switch",
        "scf.yield",
        "scf.condition",
        "scf.reduce.return",
        "scf.forall.in_parallel",
        "affine.apply",
        "affine.min",
        "affine.max",
        "affine.yield",
        "affine.delinearize_index",
        "affine.linearize_index",
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
        "memref.dim",
        "memref.rank",
        "memref.get_global",
        "memref.extract_strided_metadata",
        "memref.extract_aligned_pointer_as_index",
        "memref.memory_space_cast",
        "memref.assume_alignment",
        "memref.alloca_scope.return",
        "memref.atomic_yield",
        "gpu.return",
    }
)

_RECURSIVE_OPS = frozenset(
    {
        "scf.for",
        "scf.if",
        "scf.while",
        "scf.parallel",
        "scf.forall",
        "scf.reduce",
        "scf.execute_region",
        "scf.index_switch",
        "affine.for",
        "affine.if",
        "affine.parallel",
        "memref.alloca_scope",
    }
)

# Ops that have MLIR's effect interface with effects on given operands:
# name -> ((kind, operand index), ...).
_OPERAND_EFFECTS: dict[str, tuple[tuple[str, int], ...]] = {
    "memref.load": ((READ, 0),),
    "memref.store": ((WRITE, 1),),
    "memref.dealloc": ((FREE, 0),),
    "memref.copy": ((READ, 0), (WRITE, 1)),
    "memref.atomic_rmw": ((READ, 1), (WRITE, 1)),
    "affine.load": ((READ, 0),),
    "affine.store": ((WRITE, 1),),
    "affine.vector_load": ((READ, 0),),
    "affine.vector_store": ((WRITE, 1),),
    "vector.load": ((READ, 0),),
    "vector.store": ((WRITE, 1),),
    "vector.maskedload": ((READ, 0),),
    "vector.maskedstore": ((WRITE, 0),),
    "vector.gather": ((READ, 0),),
    "vector.scatter": ((WRITE, 0),),
    "vector.expandload": ((READ, 0),),
    "vector.compressstore": ((WRITE, 0),),
}

_RESULT_ALLOCATIONS = frozenset({"memref.alloc", "memref.alloca"})

# Effects on no particular value.
_VALUELESS_EFFECTS: dict[str, tuple[Effect, ...]] = {
    "cf.assert": (Effect(WRITE),),
    "vector.print": (Effect(READ), Effect(WRITE)),
}

# Ops MLIR gives no effect interface (and no recursive effects): their effects
# are unknown, whatever xDSL declares.
_UNKNOWN_EFFECTS = frozenset({"func.call", "func.call_indirect", "func.func"})

_XDSL_KINDS = {
    MemoryEffectKind.READ: READ,
    MemoryEffectKind.WRITE: WRITE,
    MemoryEffectKind.ALLOC: ALLOCATE,
    MemoryEffectKind.FREE: FREE,
}


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


def has_recursive_effects(op: Operation) -> bool:
    """MLIR's `HasRecursiveMemoryEffects` trait."""
    if isinstance(op, UnregisteredOp):
        return False
    name = op.name
    if name in _RECURSIVE_OPS:
        return True
    if name in _PURE_OPS or name in _OPERAND_EFFECTS or name in _UNKNOWN_EFFECTS:
        return False
    return op.has_trait(RecursiveMemoryEffect)


def mlir_effects(op: Operation) -> tuple[Effect, ...] | None:
    """The effects MLIR 22's `MemoryEffectOpInterface` gives `op`, or None when
    the op does not implement the interface."""
    if isinstance(op, UnregisteredOp):
        # Ops of dialects xgpu does not register (e.g. `index`) are read as
        # unregistered; mlir-opt knows them.
        name = op.op_name.data
        pure = name in _PURE_OPS or name.partition(".")[0] in _PURE_DIALECTS
        return () if pure else None
    name = op.name
    if name in _PURE_OPS or op.dialect_name() in _PURE_DIALECTS:
        return ()
    if name in _RECURSIVE_OPS or name in _UNKNOWN_EFFECTS:
        return None
    spec = _OPERAND_EFFECTS.get(name)
    if spec is not None:
        operands = op.operands
        return tuple(Effect(kind, operands[i]) for kind, i in spec if i < len(operands))
    if name in _RESULT_ALLOCATIONS:
        return tuple(Effect(ALLOCATE, r) for r in op.results)
    valueless = _VALUELESS_EFFECTS.get(name)
    if valueless is not None:
        return valueless
    if name == "vector.transfer_read":
        return (Effect(READ, op.operands[0]),) if _is_memref(op.operands[0]) else ()
    if name == "vector.transfer_write":
        return (Effect(WRITE, op.operands[1]),) if _is_memref(op.operands[1]) else ()
    if op.dialect_name() == "vector":
        return ()
    if op.dialect_name() == "linalg":
        linalg = _linalg_effects(op)
        if linalg is not None:
            return linalg
    # Other ops: as xDSL (or xgpu, for the gpu dialect) declares them.
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits or any(isinstance(t, RecursiveMemoryEffect) for t in traits):
        return None
    effects: list[Effect] = []
    for trait in traits:
        instances = trait.get_effects(op)
        if instances is None:
            return None
        for instance in instances:
            value = instance.value if isinstance(instance.value, SSAValue) else None
            effects.append(Effect(_XDSL_KINDS[instance.kind], value))
    return tuple(effects)


def _linalg_effects(op: Operation) -> tuple[Effect, ...] | None:
    """MLIR's effects of structured linalg ops: reads of memref inputs, writes
    of memref outputs (and reads of those whose value the body uses); none on
    tensors."""
    if op.name in ("linalg.yield", "linalg.index"):
        return ()
    inputs = getattr(op, "inputs", None)
    outputs = getattr(op, "outputs", None)
    if inputs is None or outputs is None:
        return None
    effects = [Effect(READ, v) for v in inputs if _is_memref(v)]
    region = op.regions[0] if op.regions else None
    args = region.blocks.first.args if region is not None and region.blocks.first else ()
    for index, value in enumerate(outputs):
        if not _is_memref(value):
            continue
        arg_index = len(inputs) + index
        if arg_index < len(args) and args[arg_index].uses:
            effects.append(Effect(READ, value))
        effects.append(Effect(WRITE, value))
    return tuple(effects)


def would_be_trivially_dead(root: Operation) -> bool:
    """MLIR's `wouldOpBeTriviallyDead` on this module's effect model."""
    if isinstance(root, UnregisteredOp):
        if mlir_effects(root) is None:
            return False
    elif root.has_trait(IsTerminator):
        return False
    elif root.has_trait(SymbolOpInterface):
        return False
    pending = [root]
    while pending:
        op = pending.pop()
        recursive = has_recursive_effects(op)
        if recursive:
            for region in op.regions:
                for block in region.blocks:
                    pending.extend(block.ops)
        effects = mlir_effects(op)
        if effects is not None:
            allocated = {
                id(e.value)
                for e in effects
                if e.kind == ALLOCATE and e.value is not None and e.value.owner is op
            }
            if not all(e.kind == READ or id(e.value) in allocated for e in effects):
                return False
            continue
        if not recursive:
            return False
    return True


def is_memory_effect_free(op: Operation) -> bool:
    """MLIR's `isMemoryEffectFree`."""
    effects = mlir_effects(op)
    recursive = has_recursive_effects(op)
    if effects is not None:
        if effects:
            return False
        if not recursive:
            return True
    elif not recursive:
        return False
    return all(
        is_memory_effect_free(nested)
        for region in op.regions
        for block in region.blocks
        for nested in block.ops
    )
