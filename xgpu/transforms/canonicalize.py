"""`canonicalize`: MLIR 22's canonicalizer on xgpu's IR.

Runs `xgpu.transforms.greedy.GreedyDriver` over each region of the module with
the patterns and folders of `xgpu.transforms.canonicalization`, which hold what
MLIR registers for the gpu dialect and for the arith, memref, scf and func ops
GPU programs use.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xgpu.transforms.canonicalization import CANONICALIZATION
from xgpu.transforms.greedy import GreedyConfig, GreedyDriver


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Canonicalize ops as `mlir-opt --canonicalize` does."""

    name = "canonicalize"

    max_iterations: int = 10
    region_simplify: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        canonicalize(op, self.max_iterations, self.region_simplify)


def canonicalize(op: ModuleOp, max_iterations: int = 10, region_simplify: bool = True) -> bool:
    """Canonicalize `op` in place; True if the rewrite converged."""
    config = GreedyConfig(max_iterations=max_iterations, region_simplify=region_simplify)
    converged = True
    for region in op.regions:
        converged &= GreedyDriver(CANONICALIZATION, config).simplify(region)
    return converged
