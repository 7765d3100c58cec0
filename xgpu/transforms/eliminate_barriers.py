"""`gpu-eliminate-barriers`: erase `gpu.barrier` ops that order no conflicting memory effects.

The algorithm of MLIR 22's pass (after Moses et al., PPoPP 2023, and Polygeist),
on xgpu's IR. A barrier is erased when no memory effect that may run before it
conflicts with one that may run after it, where "before" and "after" stop at
the neighbouring barriers:

* before: the ops preceding the barrier in its block, back to the previous
  barrier; then, whatever happens there, the same from the op holding the
  block, and so on outwards until a parallel region boundary (`gpu.launch`,
  `gpu.func`, or an op with the `__parallel_region_boundary_for_test`
  attribute) or an op isolated from above; in an `scf.for` body, also the ops
  from the end of the body back to the last barrier (the previous iteration);
  inside any other op whose body may run more than once (not a function, not
  `scf.if`, not `memref.alloca_scope`), every effect of that op;
* after: the same, forwards (in an `scf.for`, the ops from the start of the
  body up to the first barrier, as the next iteration);
* a region with several blocks (unstructured control flow) contributes every
  effect on any memory;
* effects are those of MLIR's `MemoryEffectOpInterface`; an op without it
  contributes its nested ops' effects if it has recursive effects (`scf.for`,
  `gpu.launch`, ...), else every effect on any memory (`func.call`,
  `gpu.all_reduce`, unregistered ops, ...); barriers themselves are skipped;
* two effects conflict when they may touch aliasing memory, they are not both
  reads, neither is an allocation, and the earlier is not a free. Memory
  behind views (`memref.cast`, `subview`, `view`, `transpose`,
  `expand_shape`, `collapse_shape`) is its source's. Distinct
  `memref.alloc`/`memref.alloca` results do not alias each other, globals of
  other names or function arguments; an allocation whose value is never
  captured (stored as a value, passed to an unknown op) aliases nothing else;
  two function arguments that both carry `llvm.noalias` do not alias; anything
  else may alias. Memory spaces (workgroup or global) play no part.

The rewrite runs as MLIR's greedy driver does for this pass: on each function
body, bottom-up (the last barrier of a block is looked at first), with ops
folded (the folders of xgpu's canonicalize) and trivially dead ops erased on
the way (judged with the effect model below, as MLIR judges them), constants
uniqued and hoisted, and regions simplified after each round at MLIR's
aggressive level (unreachable blocks, dead ops and arguments, then identical
blocks merged and block arguments that every predecessor gives the same value
dropped), until nothing changes.

Where it runs: `mlir-opt --gpu-eliminate-barriers` runs the pass on each
`func.func` directly in the top-level module (kernels written as `gpu.launch`
bodies); MLIR 22 cannot schedule it on `gpu.func`. With `gpu-funcs=true`, xgpu
also runs it on every `gpu.func`, as MLIR's
`transform.apply_patterns.gpu.eliminate_barriers` does when applied to them.

The effect model (`mlir_effects`, `has_recursive_effects`,
`is_memory_effect_free`) is shared with `convert-parallel-loops-to-gpu`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    UnrankedMemRefType,
    UnregisteredOp,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener, RewritePattern
from xdsl.rewriter import Rewriter
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xdsl.utils.worklist import Worklist

from xgpu.dialects.gpu.func import GPUFuncOp as GpuFuncOp
from xgpu.dialects.gpu.kernel import BarrierOp
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.transforms.constants import constant_value
from xgpu.transforms.greedy import Fold, GreedyConfig, GreedyDriver, PatternSource
from xgpu.transforms.region_simplify import simplify_regions

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


# --------------------------------------------------------------------------- #
# The pass                                                                    #
# --------------------------------------------------------------------------- #


class BarrierElimination(RewritePattern):
    """Erase a barrier that orders no conflicting pair of effects."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, BarrierOp) and not barrier_is_needed(op):
            rewriter.erase_op(op)


# MLIR fold hooks that modify their op in place, which xgpu's canonicalization
# writes as patterns (by class name, in `xgpu.transforms.canonicalization`).
_IN_PLACE_FOLDS = frozenset(
    {
        "MoveConstantOperandRight",
        "CmpiSwapConstantLeft",
        "ExtOfSameExt",
        "TruncIOfExtOrTrunc",
        "TruncFOfExtF",
        "MakeGroupOpUniform",
        "FoldMemRefCastOperands",
        "IfNotConditionSwap",
        "FoldMemRefCast",
        "FoldCopyOfCast",
        "DimOfMemRefCast",
        "MemorySpaceCastOfMemorySpaceCast",
    }
)


class EraseTriviallyDead(RewritePattern):
    """Erase an unused op that MLIR's greedy driver finds trivially dead (xgpu's
    driver decides with xDSL's effect traits, which miss some of MLIR's)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if all(not r.uses for r in op.results) and would_be_trivially_dead(op):
            rewriter.erase_op(op)


class _BarrierPatterns(PatternSource):
    """The barrier pattern, and MLIR's fold hooks (the greedy driver folds every
    op): the folders of xgpu's canonicalization and its in-place folds."""

    def __init__(self) -> None:
        from xgpu.transforms.canonicalization import CANONICALIZATION

        self._canonicalization = CANONICALIZATION
        self._pattern = (BarrierElimination(),)
        self._erase_dead = EraseTriviallyDead()

    def patterns(self, op_type: type[Operation]) -> Sequence[RewritePattern]:
        if op_type is BarrierOp:
            return self._pattern
        return (
            self._erase_dead,
            *(
                p
                for p in self._canonicalization.patterns(op_type)
                if type(p).__name__ in _IN_PLACE_FOLDS
            ),
        )

    def folder(self, op_type: type[Operation]) -> Fold | None:
        return self._canonicalization.folder(op_type)


# --------------------------------------------------------------------------- #
# Region simplification at MLIR's aggressive level: merging identical blocks  #
# and dropping block arguments every predecessor gives the same value         #
# --------------------------------------------------------------------------- #


def _successor_operands(term: Operation, index: int) -> Sequence[SSAValue] | None:
    """The operands `term` (a `cf` branch) passes to its successor `index`,
    or None when it is not a branch xgpu can update."""
    if isinstance(term, cf.BranchOp):
        return term.arguments
    if isinstance(term, cf.ConditionalBranchOp):
        return term.then_arguments if index == 0 else term.else_arguments
    return None


def _set_successor_operands(
    term: Operation, operands: dict[int, Sequence[SSAValue]], listener: PatternRewriterListener
) -> None:
    """Rebuild the branch `term` with new operands for some successors."""
    if isinstance(term, cf.BranchOp):
        new: Operation = cf.BranchOp(term.successor, *operands.get(0, term.arguments))
    else:
        assert isinstance(term, cf.ConditionalBranchOp)
        new = cf.ConditionalBranchOp(
            term.cond,
            term.then_block,
            operands.get(0, term.then_arguments),
            term.else_block,
            operands.get(1, term.else_arguments),
        )
        for key, value in term.properties.items():
            if key != "operandSegmentSizes":
                new.properties[key] = value
    new.attributes.update(term.attributes)
    listener.handle_operation_removal(term)
    Rewriter.replace_op(term, new)
    listener.handle_operation_insertion(new)


def _predecessor_edges(block: Block) -> list[tuple[Operation, int]]:
    return [(use.operation, use.index) for use in block.uses]


def _is_branch(op: Operation) -> bool:
    return isinstance(op, cf.BranchOp | cf.ConditionalBranchOp)


def _ops_equivalent(lhs: Operation, rhs: Operation) -> bool:
    """MLIR's `OperationEquivalence::isEquivalentTo` ignoring operand values
    and locations (ops without regions)."""
    return (
        lhs.name == rhs.name
        and (not isinstance(lhs, UnregisteredOp) or lhs.op_name == rhs.op_name)  # type: ignore[attr-defined]
        and len(lhs.operands) == len(rhs.operands)
        and len(lhs.successors) == len(rhs.successors)
        and len(lhs.regions) == len(rhs.regions)
        and [r.type for r in lhs.results] == [r.type for r in rhs.results]
        and lhs.properties == rhs.properties
        and lhs.attributes == rhs.attributes
    )


def _value_order(block: Block, value: SSAValue) -> int:
    """MLIR's `BlockEquivalenceData::getOrderOf`."""
    if isinstance(value, BlockArgument):
        return value.index
    order = len(block.args)
    for op in block.ops:
        if op is value.owner:
            return order + value.index  # type: ignore[attr-defined]
        order += len(op.results)
    raise AssertionError("value not defined in block")


def _used_outside(value: SSAValue, block: Block) -> bool:
    """MLIR's `Value::isUsedOutsideOfBlock` (a user nested in an op of the
    block counts as outside)."""
    return any(use.operation.parent_block() is not block for use in value.uses)


def _block_of(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.owner.parent_block()  # type: ignore[union-attr]


def _mismatches(leader: Block, other: Block) -> list[tuple[int, int]] | None:
    """The (op, operand) positions where `other` differs from `leader` by an
    outside value, or None when the blocks cannot be merged."""
    if leader.arg_types != other.arg_types:
        return None
    lhs_ops, rhs_ops = list(leader.ops), list(other.ops)
    if len(lhs_ops) != len(rhs_ops):
        return None
    mismatched: list[tuple[int, int]] = []
    for index, (lhs, rhs) in enumerate(zip(lhs_ops, rhs_ops)):
        if not _ops_equivalent(lhs, rhs):
            return None
        for position, (a, b) in enumerate(zip(lhs.operands, rhs.operands)):
            if a is b:
                continue
            if a.type != b.type:
                return None
            a_inside, b_inside = _block_of(a) is leader, _block_of(b) is other
            if a_inside != b_inside:
                return None
            if not a_inside:
                for block, value in ((leader, a), (other, b)):
                    owner_block = _block_of(value)
                    if (
                        isinstance(value, OpResult)
                        and owner_block is not None
                        and value.owner is owner_block.last_op
                        and owner_block in block.predecessors()
                    ):
                        return None
                mismatched.append((index, position))
                continue
            if _value_order(leader, a) != _value_order(other, b):
                return None
        if any(_used_outside(r, other) for r in rhs.results) or any(
            _used_outside(r, leader) for r in lhs.results
        ):
            return None
    return mismatched


def _merge_cluster(
    leader: Block,
    members: list[Block],
    operands: set[tuple[int, int]],
    listener: PatternRewriterListener,
) -> bool:
    if not members:
        return False
    if operands:
        for block in (leader, *members):
            if not all(_is_branch(op) for op, _ in _predecessor_edges(block)):
                return False
        blocks = [leader, *members]
        op_lists = [list(b.ops) for b in blocks]
        num_old = len(leader.args)
        new_arguments: list[list[SSAValue]] = [[] for _ in blocks]
        for op_index, position in sorted(operands):
            for i, ops in enumerate(op_lists):
                op = ops[op_index]
                value = op.operands[position]
                new_arguments[i].append(value)
                if i == 0:
                    arg = leader.insert_arg(value.type, len(leader.args))
                    op.operands = [*op.operands[:position], arg, *op.operands[position + 1 :]]
        new_arguments = _prune_redundant_arguments(new_arguments, num_old, leader)
        for i, block in enumerate(blocks):
            for term, succ_index in _predecessor_edges(block):
                current = _successor_operands(term, succ_index)
                assert current is not None
                _set_successor_operands(term, {succ_index: [*current, *new_arguments[i]]}, listener)
    for block in members:
        for term, succ_index in _predecessor_edges(block):
            successors = list(term.successors)
            successors[succ_index] = leader
            term.successors = successors
        for op in reversed(list(block.ops)):
            listener.handle_operation_removal(op)
        region = block.parent
        assert region is not None
        region.detach_block(block)
        block.erase(safe_erase=False)
    return True


def _prune_redundant_arguments(
    new_arguments: list[list[SSAValue]], num_old: int, leader: Block
) -> list[list[SSAValue]]:
    """Drop new arguments that repeat an earlier one in every list."""
    if not new_arguments or not new_arguments[0]:
        return new_arguments
    count = len(new_arguments[0])
    first_index: dict[SSAValue, int] = {}
    for j, value in enumerate(new_arguments[0]):
        first_index.setdefault(value, j)
    replacement: dict[int, int] = {}
    for j in range(count):
        k = first_index[new_arguments[0][j]]
        if k == j:
            continue
        if all(lst[k] is lst[j] for lst in new_arguments[1:]):
            replacement[j] = k
    pruned = [[lst[j] for j in range(count) if j not in replacement] for lst in new_arguments]
    args = leader.args
    for j, k in replacement.items():
        args[num_old + j].replace_all_uses_with(args[num_old + k])
    for j in sorted(replacement, reverse=True):
        leader.erase_arg(leader.args[num_old + j])
    return pruned


def merge_identical_blocks(region: Region, listener: PatternRewriterListener) -> bool:
    """MLIR's `mergeIdenticalBlocks` on one region."""
    blocks = list(region.blocks)
    if len(blocks) < 2:
        return False
    groups: dict[tuple[int, ...], list[Block]] = {}
    for block in blocks[1:]:
        term = block.last_op
        key = tuple(id(b) for b in term.successors) if term is not None else ()
        groups.setdefault(key, []).append(block)
    merged = False
    for group in groups.values():
        if len(group) == 1:
            continue
        clusters: list[tuple[Block, list[Block], set[tuple[int, int]]]] = []
        for block in group:
            if any(r.blocks for op in block.ops for r in op.regions):
                continue
            if any(_used_outside(arg, block) for arg in block.args):
                continue
            for leader, members, operands in clusters:
                found = _mismatches(leader, block)
                if found is not None:
                    members.append(block)
                    operands.update(found)
                    break
            else:
                clusters.append((block, [], set()))
        for leader, members, operands in clusters:
            merged |= _merge_cluster(leader, members, operands, listener)
    return merged


def drop_redundant_arguments(block: Block, listener: PatternRewriterListener) -> bool:
    """MLIR's `dropRedundantArguments`: an argument every predecessor gives the
    same value is replaced by that value."""
    edges = _predecessor_edges(block)
    to_erase: list[int] = []
    for index, arg in enumerate(block.args):
        common: SSAValue | None = None
        same = True
        for term, succ_index in edges:
            operands = _successor_operands(term, succ_index)
            if operands is None:
                same = False
                break
            value = operands[index]
            if common is None:
                common = value
            elif value is not common:
                same = False
                break
        if common is not None and same:
            to_erase.append(index)
            arg.replace_all_uses_with(common)
    for index in reversed(to_erase):
        block.erase_arg(block.args[index])
        for term, succ_index in _predecessor_edges(block):
            operands = list(_successor_operands(term, succ_index) or ())
            del operands[index]
            _set_successor_operands(term, {succ_index: operands}, listener)
    return bool(to_erase)


def _all_regions(region: Region) -> list[Region]:
    found = [region]
    for block in region.blocks:
        for op in block.ops:
            for nested in op.regions:
                found.extend(_all_regions(nested))
    return found


def simplify_regions_aggressively(region: Region, listener: PatternRewriterListener) -> bool:
    """MLIR's `simplifyRegions` at the aggressive level (what
    `applyPatternsGreedily` does by default): xgpu's normal simplification,
    then identical blocks merged, then redundant block arguments dropped."""
    changed = simplify_regions(region, listener)
    worklist = [region]
    while worklist:
        current = worklist.pop()
        if merge_identical_blocks(current, listener):
            worklist.append(current)
            changed = True
        for block in current.blocks:
            for op in block.ops:
                worklist.extend(op.regions)
    for current in _all_regions(region):
        for block in list(current.blocks):
            changed |= drop_redundant_arguments(block, listener)
    return changed


class BottomUpDriver(GreedyDriver):
    """The greedy driver with MLIR's default (bottom-up) worklist order: ops are
    queued in post-order, each with its ancestors, and the last one queued is
    processed first."""

    def _populate(self, region: Region) -> None:
        from xgpu.transforms.constants import ConstantFolder

        folder = ConstantFolder(self) if self.config.cse_constants else None
        add = self.add_to_worklist

        def visit_block(block: Block) -> None:
            for op in list(block.ops):
                if op.parent is not block:  # moved by the constant folder
                    continue
                for nested in op.regions:
                    for nested_block in list(nested.blocks):
                        visit_block(nested_block)
                if folder is not None and op.results and constant_value(op) is not None:
                    if not folder.insert_known_constant(op):
                        continue
                add(op)

        for block in list(region.blocks):
            visit_block(block)

    def simplify_function(self, function: Operation) -> bool:
        """Rewrite each region of `function` to a fixpoint; True if all converged.

        The driver's scope is the region holding `function` (a single block,
        which the driver's rewriters need; a function body may have several):
        besides the function's ops, only the function op itself is ever
        queued, and it has no folder nor pattern."""
        scope = function.parent_region()
        assert scope is not None
        converged = True
        for region in function.regions:
            if not region.blocks:
                continue
            self.scope = scope
            for _ in range(self.config.max_iterations):
                self.worklist = Worklist()
                self._populate(region)
                changed = self._process()
                if self.config.region_simplify:
                    changed |= simplify_regions_aggressively(region, self.listener)
                self.changed_anything |= changed
                if not changed:
                    break
            else:
                converged = False
        return converged


def eliminate_barriers(function: Operation) -> bool:
    """Run the rewrite on the regions of `function`; True if it converged."""
    return BottomUpDriver(_BarrierPatterns(), GreedyConfig()).simplify_function(function)


def _targets(module: ModuleOp, gpu_funcs: bool) -> list[Operation]:
    targets: list[Operation] = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    if gpu_funcs:
        targets += [op for op in module.walk() if isinstance(op, GpuFuncOp)]
    return targets


@dataclass(frozen=True)
class GpuEliminateBarriersPass(ModulePass):
    """Erase unnecessary barriers, as `mlir-opt --gpu-eliminate-barriers` does.

    `gpu-funcs=true` also runs it on every `gpu.func` (see the module's docstring)."""

    name = "gpu-eliminate-barriers"

    gpu_funcs: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for target in _targets(op, self.gpu_funcs):
            eliminate_barriers(target)
