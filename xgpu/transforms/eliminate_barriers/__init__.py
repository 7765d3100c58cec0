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

The code, by concern (modules of this package):

- `memory_effects`: the effect model;
- `effect_scope`: the effects before and after a barrier;
- `aliasing`: aliasing, conflicting effects, whether a barrier is needed;
- `patterns`: the barrier pattern, trivially dead ops and the fold hooks;
- `aggressive_simplify`: region simplification at MLIR's aggressive level;
- `driver`: the bottom-up greedy driver, `eliminate_barriers` and the pass.
"""

from __future__ import annotations

from xgpu.transforms.eliminate_barriers.aggressive_simplify import (
    drop_redundant_arguments,
    merge_identical_blocks,
    simplify_regions_aggressively,
)
from xgpu.transforms.eliminate_barriers.aliasing import (
    barrier_is_needed,
    get_base,
    have_conflicting_effects,
    may_alias_values,
    maybe_captured,
)
from xgpu.transforms.eliminate_barriers.driver import (
    BottomUpDriver,
    GpuEliminateBarriersPass,
    eliminate_barriers,
)
from xgpu.transforms.eliminate_barriers.effect_scope import (
    collect_effects,
    effects_after,
    effects_before,
)
from xgpu.transforms.eliminate_barriers.memory_effects import (
    ALL_EFFECTS,
    ALLOCATE,
    FREE,
    READ,
    WRITE,
    Effect,
    has_recursive_effects,
    is_memory_effect_free,
    mlir_effects,
    would_be_trivially_dead,
)
from xgpu.transforms.eliminate_barriers.patterns import BarrierElimination, EraseTriviallyDead

__all__ = [
    "ALLOCATE",
    "ALL_EFFECTS",
    "BarrierElimination",
    "BottomUpDriver",
    "Effect",
    "EraseTriviallyDead",
    "FREE",
    "GpuEliminateBarriersPass",
    "READ",
    "WRITE",
    "barrier_is_needed",
    "collect_effects",
    "drop_redundant_arguments",
    "effects_after",
    "effects_before",
    "eliminate_barriers",
    "get_base",
    "has_recursive_effects",
    "have_conflicting_effects",
    "is_memory_effect_free",
    "may_alias_values",
    "maybe_captured",
    "merge_identical_blocks",
    "mlir_effects",
    "simplify_regions_aggressively",
    "would_be_trivially_dead",
]
