"""`gpu-launch-sink-index-computations`: copy cheap index computations into launches.

What MLIR 22 does (and this pass does, in the same order):

- every `gpu.launch` is visited in a post-order walk (a nested launch before
  the launch around it);
- the values the launch body uses but that are defined above it are listed in
  first-use order (`used_values_defined_above`: a post-order walk of the body,
  so the operands of ops nested in an op's regions come before the op's own);
- for each such value with a defining op, that op is sunk when it is a
  constant (a `ConstantLike` op: `arith.constant`, `llvm.mlir.constant`,
  `llvm.mlir.zero`/`undef`/`poison`, `ub.poison`, `complex.constant`, ...),
  `memref.dim`, `arith.select` or
  `arith.cmpi`, and each of its operands is either already used in the body or
  defined by an op that can itself be sunk (checked recursively, operands first);
  an op whose operands do not all qualify stays outside, but the operand ops
  that did qualify while it was being checked are still sunk (MLIR's behaviour:
  they end up unused in the body);
- the ops to sink are cloned, operands first, at the start of the body's entry
  block, and the uses inside the body (at any depth) are replaced by the clones.
  The originals stay where they are. `arith.addi`, `arith.index_cast`,
  `affine.apply` and anything else are never sunk.

`sink_operations_into_launch` is the reusable entry point (with the predicate
as a parameter, as MLIR's `sinkOperationsIntoLaunchOp`);
`used_values_defined_above` is shared with the kernel outliner. MLIR 22's
`gpu-kernel-outlining` does not sink by itself: run this pass first
(`-p gpu-launch-sink-index-computations,gpu-kernel-outlining`), as MLIR's own
tests do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.passes import ModulePass

from xgpu.diagnostics import op_name
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.transforms.constants import constant_value

SINKABLE_OP_NAMES = frozenset({"memref.dim", "arith.select", "arith.cmpi"})
"""Ops that are sunk besides constants (MLIR's `isLikelyAnIndexComputation`)."""

MLIR_CONSTANT_LIKE_OP_NAMES = frozenset(
    {
        "arith.constant",
        "complex.constant",
        "index.constant",
        "index.bool.constant",
        "llvm.mlir.constant",
        "llvm.mlir.zero",
        "llvm.mlir.undef",
        "llvm.mlir.poison",
        "spirv.Constant",
        "ub.poison",
    }
)
"""Ops MLIR 22 treats as constants (`ConstantLike`, folding to their value) that
xDSL may not mark so; checked by name, an op parsed as unregistered included."""


def _defining_region(value: SSAValue) -> Region | None:
    if isinstance(value, OpResult):
        block = value.op.parent
    elif isinstance(value, BlockArgument):
        block = value.block
    else:  # pragma: no cover - every SSA value is one of the two
        return None
    return block.parent if block is not None else None


def used_values_defined_above(region: Region) -> list[SSAValue]:
    """The values used in `region` (at any depth) but defined in a region that
    encloses it, without repetition, in MLIR's order (`getUsedValuesDefinedAbove`:
    a post-order walk of the ops, each op's operands in order)."""
    ancestors: set[Region] = set()
    op = region.parent
    while op is not None:
        block = op.parent
        parent_region = block.parent if block is not None else None
        if parent_region is None:
            break
        ancestors.add(parent_region)
        op = parent_region.parent
    seen: set[SSAValue] = set()
    values: list[SSAValue] = []
    for op in region.walk(region_first=True):
        for operand in op.operands:
            if operand in seen:
                continue
            if _defining_region(operand) in ancestors:
                seen.add(operand)
                values.append(operand)
    return values


def is_likely_an_index_computation(op: Operation) -> bool:
    """Whether `op` is worth sinking into a kernel (and free of side effects):
    a constant, `memref.dim`, `arith.select` or `arith.cmpi`."""
    name = op_name(op)
    return (
        name in SINKABLE_OP_NAMES
        or name in MLIR_CONSTANT_LIKE_OP_NAMES
        or constant_value(op) is not None
    )


def _extract_beneficiary_ops(
    op: Operation,
    existing: set[SSAValue],
    to_sink: dict[Operation, None],
    available: set[SSAValue],
    is_beneficiary: Callable[[Operation], bool],
) -> bool:
    """Whether `op` can be sunk without new kernel arguments; if so it is added
    to `to_sink` after the ops its operands need (MLIR's `extractBeneficiaryOps`)."""
    if op in to_sink:
        return True
    if not is_beneficiary(op):
        return False
    for operand in op.operands:
        if operand in available:
            continue
        owner = operand.op if isinstance(operand, OpResult) else None
        if (
            owner is None
            or not _extract_beneficiary_ops(owner, existing, to_sink, available, is_beneficiary)
        ) and operand not in existing:
            return False
    to_sink[op] = None
    available.update(op.results)
    return True


def replace_uses_in_region(value: SSAValue, new: SSAValue, region: Region) -> None:
    """Replace the uses of `value` by ops nested (at any depth) in `region`."""
    for use in tuple(value.uses):
        if region.is_ancestor(use.operation):
            use.operation.operands[use.index] = new


def sink_operations_into_launch(
    launch: LaunchOp,
    is_beneficiary: Callable[[Operation], bool] = is_likely_an_index_computation,
) -> list[Operation]:
    """Clone into `launch`'s body the ops defining values it uses from above that
    `is_beneficiary` accepts and whose operands are available in the body (see the
    module notes). Returns the clones, in the order they were inserted."""
    body = launch.body
    entry = body.blocks.first
    if entry is None:
        return []
    candidates = used_values_defined_above(body)
    existing = set(candidates)
    to_sink: dict[Operation, None] = {}
    available: set[SSAValue] = set()
    for value in candidates:
        if isinstance(value, OpResult):
            _extract_beneficiary_ops(value.op, existing, to_sink, available, is_beneficiary)

    mapping: dict[SSAValue, SSAValue] = {}
    clones: list[Operation] = []
    anchor = entry.first_op
    for op in to_sink:
        clone = op.clone(mapping)
        if anchor is None:
            entry.add_op(clone)
        else:
            entry.insert_op_before(clone, anchor)
        clones.append(clone)
        for old, new in zip(op.results, clone.results, strict=True):
            replace_uses_in_region(old, new, body)
    return clones


def launch_ops_post_order(root: Operation | Block | Region) -> list[LaunchOp]:
    """The `gpu.launch` ops nested in `root`, in post-order (inner launches first)."""
    return [op for op in root.walk(region_first=True) if isinstance(op, LaunchOp)]


@dataclass(frozen=True)
class GpuLaunchSinkIndexComputationsPass(ModulePass):
    """Sink constants, `memref.dim`, `arith.select` and `arith.cmpi` into the
    `gpu.launch` bodies that use them (MLIR's `gpu-launch-sink-index-computations`)."""

    name = "gpu-launch-sink-index-computations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for launch in launch_ops_post_order(op):
            sink_operations_into_launch(launch)
