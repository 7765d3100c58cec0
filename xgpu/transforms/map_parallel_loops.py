"""`gpu-map-parallel-loops`: annotate `scf.parallel` loops with a greedy GPU mapping.

What `mlir-opt --gpu-map-parallel-loops` (MLIR 22) does, on the same ops:

* the pass runs on each `func.func` directly inside the top-level module (MLIR
  anchors it on `func.func`; functions in nested modules or in `gpu.module`
  ops are not visited);
* every `scf.parallel` without a `mapping` attribute and without an enclosing
  `scf.parallel` starts a mapping at the grid level: its dimensions get
  `block_x`, `block_y`, `block_z` (`outermost-first`: dimension 0 is x;
  `innermost-first`: the last of the first three dimensions is x), further
  dimensions `sequential`;
* the `scf.parallel` ops immediately in its body (not those nested deeper, e.g.
  inside an `scf.for`) get the thread level the same way, and the ones in
  theirs all `sequential`; a loop that already has a `mapping` is left alone,
  and so is everything nested in it;
* each entry is `#gpu.loop_dim_map<processor = P, map = (d0) -> (d0),
  bound = (d0) -> (d0)>`.

Option `mapping-policy` (`outermost-first`, the default, or `innermost-first`;
case and surrounding blanks are ignored, as in MLIR). Another value is an error,
"Invalid mapping policy specified.", reported at each function.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from xgpu import diagnostics
from xgpu.dialects import scf
from xgpu.dialects.gpu.attributes import LoopDimMapAttr, Processor

MAPPING_ATTR = "mapping"

_GRID, _BLOCK, _SEQUENTIAL = 0, 1, 2
_NUM_HARDWARE_IDS = 3
_HARDWARE_IDS = {
    _GRID: (Processor.BLOCK_X, Processor.BLOCK_Y, Processor.BLOCK_Z),
    _BLOCK: (Processor.THREAD_X, Processor.THREAD_Y, Processor.THREAD_Z),
}


def _processor(level: int, dim: int) -> Processor:
    if level == _SEQUENTIAL or dim >= _NUM_HARDWARE_IDS:
        return Processor.SEQUENTIAL
    return _HARDWARE_IDS[level][dim]


def _has_parallel_ancestor(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ParallelOp):
            return True
        parent = parent.parent_op()
    return False


def map_parallel_op(
    loop: scf.ParallelOp, level: int = _GRID, innermost_first: bool = False
) -> None:
    """Annotate `loop` (and the parallel loops immediately in its body) as MLIR's
    `mapParallelOp` does."""
    if MAPPING_ATTR in loop.attributes or (level == _GRID and _has_parallel_ancestor(loop)):
        return
    num_loops = len(loop.lowerBound)
    to_map = min(num_loops, _NUM_HARDWARE_IDS)
    identity = AffineMap.identity(1)
    entries = []
    for i in range(num_loops):
        hw = _NUM_HARDWARE_IDS
        if i < to_map:
            hw = to_map - 1 - i if innermost_first else i
        entries.append(LoopDimMapAttr(_processor(level, hw), identity, identity))
    loop.attributes[MAPPING_ATTR] = ArrayAttr(entries)
    next_level = min(level + 1, _SEQUENTIAL)
    for op in loop.body.block.ops:
        if isinstance(op, scf.ParallelOp):
            map_parallel_op(op, next_level, innermost_first)


@dataclass(frozen=True)
class GpuMapParallelLoopsPass(ModulePass):
    """Greedily map `scf.parallel` loops to GPU hardware dimensions."""

    name = "gpu-map-parallel-loops"

    mapping_policy: str = "outermost-first"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        policy = self.mapping_policy.strip().lower()
        valid = policy in ("outermost-first", "innermost-first")
        for function in op.body.block.ops:
            if not isinstance(function, func.FuncOp):
                continue
            if not valid:
                diagnostics.emit(function, "error", "Invalid mapping policy specified.")
                continue
            for region in function.regions:
                for nested in list(region.walk()):
                    if isinstance(nested, scf.ParallelOp):
                        map_parallel_op(nested, _GRID, policy == "innermost-first")
