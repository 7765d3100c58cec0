"""`gpu-async-region`: make the gpu ops of host code asynchronous, as MLIR 22 does.

MLIR's pass runs on each `func.func` directly inside the top-level module
(funcs of nested modules are not visited) and has three phases:

1. Token threading, block by block. Blocks are visited in post-order (the
   blocks nested in a block's ops before the block itself), keeping one
   "current token" for the whole function:
   - `gpu.launch` is an error: "replace with gpu.launch_func first";
   - a `gpu.wait` gets the current token as a dependency (if there is one),
     and its own token (none for a blocking wait) becomes the current one;
   - any other async op (AsyncOpInterface) first gets a current token (a new
     `%t = gpu.wait async` in front of it when there is none), takes it as
     its first dependency, and its own token becomes the current one; a
     synchronous op is re-created with a `!gpu.async.token` result for that;
   - before a terminator, or an op with memory effects (looking into the
     regions of ops with recursive effects, as MLIR's `isMemoryEffectFree`;
     an op without effect information has effects), a blocking
     `gpu.wait [%current]` is inserted and the chain ends.
   Every block ends with a terminator, so each block (a loop body, an
   `scf.if` branch, a cf block) gets its own chain, closed before its
   terminator.
2. Deferral of the trailing blocking `gpu.wait` of an `async.execute` body to
   the users of its token, and 3. duplication of `!async.value<!gpu.async.token>`
   results used more than once: see `xgpu.transforms.async_region_execute`.

MLIR 22's effect information is used where xDSL 0.75 has none or differs
(`_EFFECT_FREE`, `_RECURSIVE_EFFECTS`, linalg structured ops).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnregisteredOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator, MemoryEffect, RecursiveMemoryEffect

from xgpu import diagnostics
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.transforms.async_region_execute import rewrite_async_executes

# Ops that MLIR 22 declares free of memory effects (Pure / NoMemoryEffect) but
# xDSL 0.75 declares nothing for (which would mean "has effects").
_EFFECT_FREE = frozenset(
    {
        "affine.min",
        "arith.extsi",
        "arith.remui",
        "cf.br",
        "cf.cond_br",
        "linalg.index",
        "linalg.yield",
        "llvm.intr.fabs",
        "memref.alloca_scope.return",
        "tensor.yield",
        "vector.bitcast",
        "vector.create_mask",
        "vector.reduction",
    }
)

# Ops that MLIR 22 gives recursive memory effects (the effects of the ops in
# their regions) but xDSL 0.75 declares nothing for.
_RECURSIVE_EFFECTS = frozenset({"affine.for", "affine.parallel", "scf.execute_region"})


def _name(op: Operation) -> str:
    return diagnostics.op_name(op)


def is_terminator(op: Operation) -> bool:
    """MLIR's `mightHaveTrait<IsTerminator>`: true for an op MLIR does not know."""
    if isinstance(op, UnregisteredOp):
        return True
    return op.has_trait(IsTerminator)


def is_memory_effect_free(op: Operation) -> bool:
    """MLIR's `isMemoryEffectFree`: no effects of its own and, for an op with
    recursive effects, none in the ops of its regions."""
    pending = [op]
    while pending:
        cur = pending.pop()
        recursive = _own_effects_free(cur)
        if recursive is None:
            return False
        if recursive:
            for region in cur.regions:
                for block in region.blocks:
                    pending.extend(block.ops)
    return True


def _own_effects_free(op: Operation) -> bool | None:
    """None: the op has effects (or nothing is known of them); otherwise it has
    none of its own, and True says its regions' ops count as its effects."""
    name = _name(op)
    if isinstance(op, UnregisteredOp):
        return None
    if name.startswith("linalg.") and op.regions and name not in _EFFECT_FREE:
        # Structured linalg ops read/write their memref operands only.
        if any(isinstance(v.type, MemRefType) for v in op.operands):
            return None
        return False
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits:
        if name in _EFFECT_FREE:
            return False
        if name in _RECURSIVE_EFFECTS:
            return True
        return None
    recursive = False
    for trait in traits:
        if isinstance(trait, RecursiveMemoryEffect):
            recursive = True
            continue
        effects = trait.get_effects(op)
        if effects is None or effects:
            return None
    return recursive


def has_side_effects(op: Operation) -> bool:
    return not is_memory_effect_free(op)


@dataclass(frozen=True)
class GpuAsyncRegionPass(ModulePass):
    """Thread async tokens through the gpu ops of each function (see the module doc)."""

    name = "gpu-async-region"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # MLIR anchors the pass on func.func: the funcs directly in the module.
        for func in list(op.body.ops):
            if isinstance(func, FuncOp):
                if _TokenThreader().run(func):
                    rewrite_async_executes(func, is_terminator, has_side_effects)


# ---------------------------------------------------------------------------
# Phase 1: token threading
# ---------------------------------------------------------------------------


def _walk_blocks_post_order(op: Operation, callback: Callable[[Block], bool]) -> bool:
    """Call `callback` on every block nested in `op`, nested blocks first, as
    MLIR's post-order block walk; stop (returning False) when it returns False."""
    for region in op.regions:
        for block in list(region.blocks):
            for nested in list(block.ops):
                if nested.regions and not _walk_blocks_post_order(nested, callback):
                    return False
            if not callback(block):
                return False
    return True


class _TokenThreader:
    """MLIR's ThreadTokenCallback: one current token for a whole function."""

    def __init__(self) -> None:
        self.current: SSAValue | None = None

    def run(self, func: FuncOp) -> bool:
        return _walk_blocks_post_order(func, self._visit_block)

    def _visit_block(self, block: Block) -> bool:
        for op in list(block.ops):
            if not self._visit(op):
                return False
        return True

    def _visit(self, op: Operation) -> bool:
        if isinstance(op, LaunchOp):
            diagnostics.emit(
                op, "error", diagnostics.op_message(op, "replace with gpu.launch_func first")
            )
            return False
        if isinstance(op, WaitOp):
            if self.current is not None:
                op.add_async_dependency(self.current)
            self.current = op.async_token
            return True
        if isinstance(op, AsyncOpInterface):
            self._make_async(op)
            return True
        if self.current is None:
            return True
        if is_terminator(op) or has_side_effects(op):
            self._insert_wait(op, is_async=False, deps=[self.current])
            self.current = None
        return True

    def _insert_wait(self, before: Operation, is_async: bool, deps: list[SSAValue]) -> WaitOp:
        wait = WaitOp(deps, is_async=is_async)
        wait.location = before.location
        block = before.parent_block()
        assert block is not None
        block.insert_op_before(wait, before)
        return wait

    def _make_async(self, op: Operation) -> None:
        assert isinstance(op, AsyncOpInterface)
        if self.current is None:
            self.current = self._insert_wait(op, is_async=True, deps=[]).async_token
        op.add_async_dependency(self.current)
        if op.token is not None:
            self.current = op.token
            return
        # Re-create the op with a token as its last result.
        new = type(op).create(
            operands=list(op.operands),
            result_types=[r.type for r in op.results] + [AsyncTokenType()],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            successors=list(op.successors),
            regions=[op.detach_region(r) for r in list(op.regions)],
        )
        new.location = op.location
        for old_result, new_result in zip(op.results, new.results):
            if old_result.name_hint is not None:
                new_result.name_hint = old_result.name_hint
            old_result.replace_all_uses_with(new_result)
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(new, op)
        block.erase_op(op)
        self.current = new.results[-1]
