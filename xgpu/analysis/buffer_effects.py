"""How ops use buffers (`KernelEffects`): a kernel from its body, gpu ops and
host ops; the access modes of `xgpu.analysis.async_hazards`.

Its own module so that the runtime can ask which arguments a kernel writes
without importing the hazard analysis (nor `scf` and the gpu host ops it
matches). The gpu ops are matched through `xgpu.ir.loaded`: while a gpu
module is not imported, no op is one of its classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
    UnrankedMemRefType,
    UnregisteredOp,
)
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator, MemoryEffectKind, get_effects

from xgpu.diagnostics import op_name
from xgpu.ir.loaded import is_instance
from xgpu.ir.symbols import lookup_nested_symbol

if TYPE_CHECKING:
    from xgpu.dialects.gpu.launch import LaunchOp
    from xgpu.dialects.gpu.launch_func import LaunchFuncOp

_GPU = "xgpu.dialects.gpu."

# ---------------------------------------------------------------------------
# Access modes
# ---------------------------------------------------------------------------

READ = 1
WRITE = 2
ALLOC = 4
"""An async `gpu.alloc` creating the buffer: nothing may use it before it completes."""
FREE = 8
UNREGISTER = 16
RW = READ | WRITE
WRITE_LIKE = WRITE | ALLOC | FREE | UNREGISTER


_LOADS = frozenset(
    {
        "memref.load",
        "affine.load",
        "affine.vector_load",
        "vector.load",
        "vector.transfer_read",
        "vector.maskedload",
        "vector.gather",
        "vector.expandload",
        "gpu.subgroup_mma_load_matrix",
    }
)
_STORES = frozenset(
    {
        "memref.store",
        "affine.store",
        "affine.vector_store",
        "vector.store",
        "vector.transfer_write",
        "vector.maskedstore",
        "vector.scatter",
        "vector.compressstore",
        "gpu.subgroup_mma_store_matrix",
    }
)
_READ_WRITES = frozenset({"memref.atomic_rmw", "memref.generic_atomic_rmw"})
_NO_ACCESS = frozenset(
    {
        "memref.dim",
        "memref.rank",
        "memref.extract_aligned_pointer_as_index",
        "memref.alloc",
        "memref.alloca",
        "memref.prefetch",
    }
)
_ALIASES = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.transpose",
        "memref.memory_space_cast",
        "memref.reshape",
        "memref.extract_strided_metadata",
        "memref.assume_alignment",
        "builtin.unrealized_conversion_cast",
    }
)
_SPARSE_COMPUTE = frozenset(
    {
        "gpu.spmv",
        "gpu.spmm",
        "gpu.sddmm",
        "gpu.spgemm_work_estimation_or_compute",
        "gpu.spgemm_copy",
    }
)
"""Sparse ops that read and write the memory behind their handles; the other
sparse ops (create_*, destroy_*, *_buffer_size, ...) touch no buffer contents."""


def is_buffer(v: SSAValue) -> bool:
    return isinstance(v.type, MemRefType | UnrankedMemRefType)


def is_token(v: SSAValue) -> bool:
    return is_instance(v.type, _GPU + "types", "AsyncTokenType")


# ---------------------------------------------------------------------------
# Effects of ops on buffers
# ---------------------------------------------------------------------------


class KernelEffects:
    """How ops use buffers: kernels (from their body), gpu ops and host ops."""

    def __init__(self) -> None:
        self._kernels: dict[Operation, tuple[int, ...]] = {}

    # ------------------------------------------------------- one use
    def use_mode(
        self, user: Operation, index: int, value: SSAValue, within: Operation | None
    ) -> int:
        """The accesses `user` makes to the buffer `value`, its operand #index;
        for a view, those of the view's uses (inside `within` when given)."""
        name = op_name(user)
        if name in _LOADS:
            return READ
        if name in _STORES:
            return WRITE
        if name in _READ_WRITES:
            return RW
        if name == "memref.copy":
            return READ if index == 0 else WRITE
        if name in _NO_ACCESS:
            return 0
        if name == "memref.dealloc":
            return FREE
        if user.regions or user.successors or is_terminator(user):
            return RW
        if self.is_alias(user):
            mode = 0
            for r in user.results:
                if is_buffer(r):
                    mode |= self.value_mode(r, within)
            return mode
        effects = get_effects(user)
        if effects is None:
            return RW
        mode = 0
        for e in effects:
            if e.value is not None and e.value is not value:
                continue
            if e.kind == MemoryEffectKind.READ:
                mode |= READ
            elif e.kind == MemoryEffectKind.WRITE:
                mode |= WRITE
            elif e.kind == MemoryEffectKind.FREE:
                mode |= FREE
        return mode

    def value_mode(self, value: SSAValue, within: Operation | None) -> int:
        """The accesses of every use of `value` (inside `within` when given)."""
        mode = 0
        for use in value.uses:
            user = use.operation
            if within is not None and not within.is_ancestor(user):
                continue
            mode |= self.use_mode(user, use.index, value, within)
        return mode

    @staticmethod
    def is_alias(op: Operation) -> bool:
        """Whether the buffer results of `op` are views of its buffer operands."""
        if op.regions or not any(is_buffer(r) for r in op.results):
            return False
        if not any(is_buffer(v) for v in op.operands):
            return False
        if op_name(op) in _ALIASES:
            return True
        effects = get_effects(op)
        return effects is not None and not effects

    # ------------------------------------------------------- kernels
    def kernel_modes(self, kernel: Operation) -> tuple[int, ...] | None:
        """Per argument of a `gpu.func` (or a function in a `gpu.module`), the
        accesses its body makes; None without a body."""
        cached = self._kernels.get(kernel)
        if cached is not None:
            return cached
        if not kernel.regions or not kernel.regions[0].blocks:
            return None
        entry = kernel.regions[0].blocks[0]
        modes = tuple(self.value_mode(a, None) if is_buffer(a) else 0 for a in entry.args)
        self._kernels[kernel] = modes
        return modes

    def launch_func_accesses(self, op: LaunchFuncOp) -> list[tuple[SSAValue, int]]:
        operands = list(op.kernel_operands)
        kernel = lookup_kernel(op, op.kernel)
        modes = self.kernel_modes(kernel) if kernel is not None else None
        if modes is None or len(modes) != len(operands):
            return [(v, RW) for v in operands if is_buffer(v)]
        return [(v, m) for v, m in zip(operands, modes, strict=True) if m and is_buffer(v)]

    def launch_accesses(self, op: LaunchOp) -> list[tuple[SSAValue, int]]:
        """The buffers defined above a `gpu.launch` that its body uses, and how."""
        seen: dict[SSAValue, int] = {}
        for inner in op.body.walk():
            for v in inner.operands:
                if v in seen or not is_buffer(v):
                    continue
                owner = v.owner
                defining = owner if isinstance(owner, Operation) else owner.parent_op()
                if defining is not None and op.is_ancestor(defining) and defining is not op:
                    continue
                seen[v] = self.value_mode(v, op)
        return [(v, m) for v, m in seen.items() if m]

    # ------------------------------------------------------- gpu ops
    def gpu_accesses(self, op: Operation) -> list[tuple[SSAValue, int]]:
        """The buffers a gpu op (other than `gpu.wait` and `gpu.alloc`) accesses."""
        if is_instance(op, _GPU + "host", "MemcpyOp"):
            return [(op.dst, WRITE), (op.src, READ)]
        if is_instance(op, _GPU + "host", "MemsetOp"):
            return [(op.dst, WRITE)]
        if is_instance(op, _GPU + "host", "DeallocOp"):
            return [(op.memref, FREE)]
        if is_instance(op, _GPU + "launch_func", "LaunchFuncOp"):
            return self.launch_func_accesses(op)
        if is_instance(op, _GPU + "launch", "LaunchOp"):
            return self.launch_accesses(op)
        name = op.name
        if name == "gpu.host_unregister":
            return [(op.operands[0], UNREGISTER)]
        if name in ("gpu.host_register", "gpu.set_default_device"):
            return []
        if name in _SPARSE_COMPUTE:
            return [(v, RW) for v in op.operands if not is_token(v)]
        if is_instance(op, _GPU + "async_interface", "AsyncOpInterface") and name.startswith(
            ("gpu.create_", "gpu.destroy_")
        ):
            return []
        if name.endswith("_buffer_size") or name in (
            "gpu.spmat_get_size",
            "gpu.set_csr_pointers",
            "gpu.spgemm_create_descr",
            "gpu.spgemm_destroy_descr",
        ):
            return []
        return [(v, RW) for v in op.operands if is_buffer(v)]

    # ------------------------------------------------------- host ops
    def host_accesses(self, op: Operation) -> list[tuple[SSAValue, int]]:
        """The buffers a host op (not a view, not a region op) accesses."""
        out: list[tuple[SSAValue, int]] = []
        for i, v in enumerate(op.operands):
            if is_buffer(v):
                mode = self.use_mode(op, i, v, None)
                if mode:
                    out.append((v, mode))
        return out


def is_terminator(op: Operation) -> bool:
    return not isinstance(op, UnregisteredOp) and op.has_trait(IsTerminator)


def lookup_kernel(op: Operation, ref: SymbolRefAttr) -> Operation | None:
    """The kernel `ref` names, from the nearest enclosing symbol table that has it."""
    table = op.parent_op()
    while table is not None:
        if isinstance(table, ModuleOp) or table.name == "gpu.module":
            found = lookup_nested_symbol(table, ref)
            if found is not None:
                return found
        table = table.parent_op()
    return None
