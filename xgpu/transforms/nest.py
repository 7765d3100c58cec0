"""`xgpu-nest`: a pipeline run on the ops an MLIR pass pipeline anchors it to.

`--pass-pipeline='builtin.module(func.func(canonicalize))'` runs canonicalize
on each `func.func` of the module only (not on a `gpu.module` beside them);
xgpu-opt spells it `xgpu-nest{anchor="func.func" pipeline="canonicalize"}`.
The anchor is a `/`-separated path of op names (`gpu.module/gpu.func`), each
step the ops of that name directly inside the previous one (`any` matches
every op).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline


def anchored_ops(root: Operation, path: list[str]) -> list[Operation]:
    """The ops that `path` names under `root`."""
    ops = [root]
    for step in path:
        ops = [
            child
            for op in ops
            for region in op.regions
            for block in region.blocks
            for child in block.ops
            if step == "any" or child.name == step
        ]
    return ops


@dataclass(frozen=True)
class NestPass(ModulePass):
    """Run `pipeline` (xgpu-opt's -p syntax) on each op `anchor` names."""

    name = "xgpu-nest"

    anchor: str = "any"
    pipeline: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xgpu.tools.xgpu_opt import pass_registry

        passes = PassPipeline.parse_spec(pass_registry(), self.pipeline).passes
        for target in anchored_ops(op, [s for s in self.anchor.split("/") if s]):
            for inner in passes:
                inner.apply(ctx, target)  # pyright: ignore[reportArgumentType]
