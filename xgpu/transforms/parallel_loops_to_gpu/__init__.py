"""`convert-parallel-loops-to-gpu`: mapped `scf.parallel` nests become `gpu.launch` ops.

What `mlir-opt --convert-parallel-loops-to-gpu` (MLIR 22, SCFToGPU) does, on
the same ops. Every `scf.parallel` with a `mapping` attribute (as
`gpu-map-parallel-loops` writes it) and no enclosing `scf.parallel`, anywhere
in the module, is replaced by a `gpu.launch` built in front of it:

* `%c1 = arith.constant 1 : index` is the size of every grid and block
  dimension no loop is mapped to;
* a dimension mapped to a hardware id (`block_x` ... `thread_z`) gets, before
  the launch, its size `affine.apply BOUND∘((d0 - s0) ceildiv s1)(ub)[lb, step]`
  and, in the body, its index `affine.apply MAP∘(d0 * s0 + s1)(id)[step, lb]`
  (MAP and BOUND are the `map` and `bound` of its `#gpu.loop_dim_map`);
* a `sequential` dimension becomes an `scf.for` in the body;
* the `scf.parallel` ops directly in the body are mapped the same way (their
  sizes are computed before the launch: bounds must be defined outside the
  launch or be constants, which are copied there); an upper bound computed
  inside the nest is replaced by a static bound derived from an `arith.constant`
  index, a constant result of `affine.min`, `arith.minsi` of those or
  `arith.muli` of two of those of the same sign, and the body is guarded by
  `scf.if %index < %ub`;
* the other ops of the bodies are copied in. Side effects (MLIR's
  `isMemoryEffectFree`; an op with regions counts as one) are checked as MLIR
  22 checks them (llvm/llvm-project#164978): a copied op that writes memory it
  does not name (`gpu.printf`, `vector.print`, `cf.assert`) makes the
  conversion fail; after a side effect, a nested `scf.parallel` in which any
  op (at any depth) reads or writes memory that LocalAliasAnalysis does not
  prove distinct from memory written so far (the memrefs of the copies'
  write effects; ops without an effect interface, like `scf.for` or
  `func.call`, record nothing), or memory it does not name, makes it fail;
  after leaving an `scf.for`/`scf.if` scope, any side effect makes it fail;
* a loop with one reduction (`scf.reduce` of a signless integer or float whose
  region uses no outer value) yields a `gpu.all_reduce` with that region
  (`scf.reduce.return` becomes `gpu.yield`); its initial value is not used, as
  in MLIR;
* the discardable attributes of the loops but `mapping` go onto the launch,
  with `SCFToGPU_visited` (set on the outermost loop).

LocalAliasAnalysis, as reproduced here: values are followed through views
and `scf.if`/`scf.for` results and iteration arguments; equal values alias;
two allocations (`memref.alloc`, `memref.alloca`, `gpu.alloc`) do not; an
allocation does not alias a value defined outside its allocation scope (the
enclosing function, or for `memref.alloca` the enclosing automatic allocation
scope) nor an entry argument of that scope; anything else may alias
(`llvm.noalias` plays no part).

A loop nest that cannot be converted is left as it is (MLIR's pattern fails
and its changes are rolled back): a mapping entry that is not a
`#gpu.loop_dim_map` (reported: "expected mapping attribute for lowering to
GPU"), a `mapping` that is not an array, more than one reduction, two
dimensions mapped to one hardware id, a bound that cannot be computed before
the launch, a side effect where it is not allowed, or a copied op that holds a
mapped `scf.parallel` (MLIR's conversion driver does not apply the pattern
again inside its own rewrite).

Where mlir-opt 22 fails after converting, xgpu reports an error instead:
a result of the outermost `scf.parallel` that is still used ("failed to
legalize unresolved materialization ...", as MLIR), and an induction variable
with no mapping entry that is used (MLIR: "null operand found").

The pass and its driver (`convert_parallel_loops`) are here; the rest by
concern: `conversion` (one application of the pattern to a loop nest),
`affine_exprs` (MLIR's affine expression builders), `alias` (LocalAliasAnalysis
and the side-effect check of nested loops), `common` (value and region
queries).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xgpu.dialects import scf
from xgpu.transforms.parallel_loops_to_gpu.affine_exprs import (
    LOWER_AND_STEP,
    TRIP_COUNT,
    add,
    ceil_div,
    compose,
    floor_div,
    mod,
    mul,
    replace_dims_and_symbols,
)
from xgpu.transforms.parallel_loops_to_gpu.alias import constant_like, no_alias
from xgpu.transforms.parallel_loops_to_gpu.conversion import (
    MAPPING_ATTR,
    VISITED_ATTR,
    _Conversion,
    _Failed,
)


def _has_parallel_ancestor(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ParallelOp):
            return True
        parent = parent.parent_op()
    return False


def convert_parallel_loops(module: ModuleOp) -> None:
    """Convert every mapped `scf.parallel` nest of `module` (in pre-order)."""
    for op in list(module.walk()):
        if not isinstance(op, scf.ParallelOp) or op.parent is None:
            continue
        if MAPPING_ATTR not in op.attributes or VISITED_ATTR in op.attributes:
            continue
        if _has_parallel_ancestor(op):
            continue
        conversion = _Conversion(op)
        op.attributes[VISITED_ATTR] = UnitAttr()
        try:
            conversion.run()
            conversion.commit()
        except _Failed:
            conversion.rollback()
    for op in module.walk():
        if isinstance(op, scf.ParallelOp):
            op.attributes.pop(VISITED_ATTR, None)


@dataclass(frozen=True)
class ConvertParallelLoopsToGpuPass(ModulePass):
    """Convert mapped `scf.parallel` ops to `gpu.launch` ops, as MLIR 22 does."""

    name = "convert-parallel-loops-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_parallel_loops(op)


__all__ = [
    "ConvertParallelLoopsToGpuPass",
    "LOWER_AND_STEP",
    "MAPPING_ATTR",
    "TRIP_COUNT",
    "VISITED_ATTR",
    "add",
    "ceil_div",
    "compose",
    "constant_like",
    "convert_parallel_loops",
    "floor_div",
    "mod",
    "mul",
    "no_alias",
    "replace_dims_and_symbols",
]
