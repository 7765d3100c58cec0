"""The greedy driver in MLIR's bottom-up order (`BottomUpDriver`), the rewrite
on one function (`eliminate_barriers`) and the pass
(`GpuEliminateBarriersPass`)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.utils.worklist import Worklist

from xgpu.dialects.gpu.func import GPUFuncOp as GpuFuncOp
from xgpu.transforms.constants import constant_value
from xgpu.transforms.eliminate_barriers.aggressive_simplify import simplify_regions_aggressively
from xgpu.transforms.eliminate_barriers.patterns import _BarrierPatterns
from xgpu.transforms.greedy import GreedyConfig, GreedyDriver


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
