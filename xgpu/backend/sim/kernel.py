"""gpu.module -> Python: the simulator's kernels.

Each `gpu.func` (and `func.func`) of a `gpu.module` becomes one Python
function, generated as source by the host compiler's machinery
(`xgpu.runtime.compile_host.HostCompiler`: the same translation of scf and
cf control flow, the same `xgpu.semantics` table for arith and math, so host
code, simulated kernels and OpenCL C compute alike). A function runs one
work-item:

    def k_NAME(_w, _tx, _ty, _tz, _bx, _by, _bz, _nx, _ny, _nz, _gx, _gy, _gz,
               *arguments, *workgroup_buffers)

(`_w`: the work-item's `WorkItem`; thread ids, block ids, block and grid
sizes). A function that reaches a `gpu.barrier`, `gpu.all_reduce` or a
subgroup op (itself or through calls) is a generator: at each such op it
yields a request `(scope, op index, combine, payload)` to the block's
scheduler (`workgroup`), which resumes the work-items together once all of
them (scope "block") or all of their subgroup (scope "subgroup") have reached
the same op, sending each its result. Calls of such functions are `yield from`.

Memory: a memref value is an `xgpu.runtime.memref.MemRef`; where it is
defined, its descriptor is unpacked into locals (`V_d` data array, `V_i` the
per-element written flags, `V_h` the race detector's shadow, `V_o` offset,
`V_nK` sizes, `V_sK` strides, `V_e` the storage's element count), so a load
is a bounds check, one position computation and its check against the
storage, one written-flag test and one array read. Failures raise the
small exceptions of `kernel_runtime`; `workgroup` maps them to the op (by the
generated line) and reads the indices from the frame's locals.

Here: the compiler (`KernelCompiler`), what it produces (`KernelProgram`) and
the table of its op handlers (`KERNEL_HANDLERS`); the handlers are in
`kernel_memref` (memref ops) and `kernel_gpu` (gpu ops, func.call), what the
generated code calls at run time in `kernel_runtime`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue

from xgpu.analysis.calls import functions_reaching
from xgpu.backend.sim import asserts, atomics
from xgpu.backend.sim import mma as sim_mma
from xgpu.backend.sim.kernel_gpu import (  # noqa: F401  (re-exported)
    _all_reduce_combine,
    _broadcast_fn,
    _combine_fn,
    _h_all_reduce,
    _h_barrier,
    _h_broadcast,
    _h_call,
    _h_id,
    _h_printf,
    _h_rotate,
    _h_shuffle,
    _h_subgroup_query,
    _h_subgroup_reduce,
    _printer,
    _reduce_kind,
    _rotate_fn,
    _shuffle_fn,
    _subgroup_reduce_fn,
    write_output,
)
from xgpu.backend.sim.kernel_memref import (  # noqa: F401  (re-exported)
    _byte_view,
    _device_global,
    _h_alias,
    _h_alloca,
    _h_assume_alignment,
    _h_dim,
    _h_dsm,
    _h_get_global,
    _h_load,
    _h_metadata,
    _h_reinterpret,
    _h_store,
    _h_subview,
    _h_view,
    _reinterpret_checked,
    memref_access,
)
from xgpu.backend.sim.kernel_runtime import (  # noqa: F401  (re-exported)
    CTX,
    FREED,
    Freed,
    OutOfBounds,
    Uninitialized,
    _FreedMemory,
    _oob,
    _uninit,
    _value_label,
    new_memory,
    unpack,
)
from xgpu.mangle import Namer
from xgpu.runtime import flat
from xgpu.runtime.compile_host import (
    _EXIT_TERMINATORS,
    HostCompileError,
    HostCompiler,
    handlers,
)
from xgpu.runtime.memref import (
    MemRef,
    RuntimeFailure,
    numpy_dtype,
)

SYNC_OPS = frozenset(
    [
        "gpu.barrier",
        "gpu.all_reduce",
        "gpu.subgroup_reduce",
        "gpu.shuffle",
        "gpu.rotate",
        "gpu.subgroup_broadcast",
        *sim_mma.SYNC_OPS,
    ]
)


# --------------------------------------------------------------------------- #
# The compiled program


@dataclass
class KernelProgram:
    """The Python functions of one gpu.module."""

    functions: dict[str, Callable[..., Any]]
    generators: frozenset[str]
    source: str
    filename: str
    line_ops: dict[int, Operation]
    #: per memref.load/store/... op: the local names of its memref and indices
    access_names: dict[Operation, tuple[str, list[str]]]
    func_ops: dict[str, Operation]
    op_ids: list[Operation] = field(default_factory=list)
    #: the module's device globals by name (shared by both engines)
    device_globals: dict[str, MemRef] = field(default_factory=dict)
    #: per kernel: the lockstep engine's (function, batched), or None
    lockstep: dict[str, Any] = field(default_factory=dict)
    #: the options it was compiled with (`SimOptions`; the lockstep engine's too)
    options: Any = None
    #: the functions with a spin loop, themselves or through calls (`is_spin_loop`)
    spinning: frozenset[str] = frozenset()

    def op_at(self, line: int) -> Operation | None:
        while line > 0:
            op = self.line_ops.get(line)
            if op is not None:
                return op
            line -= 1
        return None


@dataclass(frozen=True)
class SimOptions:
    subgroup_size: int = 32
    detect_races: bool = False
    reduction: str = "fold"  # the order of reductions: "fold" or "tree" (`gsem.REDUCTIONS`)


class KernelCompiler(HostCompiler):
    """Generates the Python functions of one gpu.module (see the module doc)."""

    def __init__(self, gpu_module: Operation, options: SimOptions, hooks: Any):
        super().__init__(gpu_module, hooks)
        self.gpu_module = gpu_module
        self.options = options
        self.handlers = KERNEL_HANDLERS
        self.exit_terminators = _EXIT_TERMINATORS | {
            "gpu.return",
            "gpu.yield",
            "memref.atomic_yield",
        }
        self.instrument = False
        self.unpacked: dict[SSAValue, str] = {}
        self.access_names: dict[Operation, tuple[str, list[str]]] = {}
        self.generators: set[str] = set()
        self.op_ids: list[Operation] = []
        self.context_params = [CTX]
        self.yield_memo: dict[Operation, bool] = {}
        self.device_globals: dict[str, MemRef] = {}

    # -- memrefs --------------------------------------------------------- #

    def unpack_value(self, value: SSAValue) -> None:
        """Emit the unpacking of a ranked memref value's descriptor."""
        t = value.type
        if not isinstance(t, MemRefType):
            return
        v = self.v(value)
        names = _descriptor_names(v, len(t.get_shape()))
        self.ns.setdefault("_unpack", unpack)
        self.w(f"{', '.join(names)}, = _unpack({v})")
        self.unpacked[value] = v

    def value_names(self, value: SSAValue) -> list[str]:
        names = [self.v(value)]
        if value in self.unpacked:
            names += _descriptor_names(names[0], len(value.type.get_shape()))
        return names

    def yields(self, op: Operation) -> bool:
        def summary(current: Operation) -> bool:
            return self._syncs(current) or any(
                self._syncs(inner) or (bool(inner.regions) and self.yield_memo[inner])
                for region in current.regions
                for block in region.blocks
                for inner in block.ops
            )

        return flat.summarize(op, self.yield_memo, summary)

    def _syncs(self, op: Operation) -> bool:
        """Whether `op` itself yields: a barrier, a collective, a spin loop, a
        call of a generator."""
        return (
            op.name in SYNC_OPS
            or is_spin_loop(op)
            or (op.name == "func.call" and op.callee.root_reference.data in self.generators)
        )

    def loop_top(self, op: Operation) -> None:
        if is_spin_loop(op):
            self.w(f"yield {self.bind(SPIN, 'spin')}", op)

    def op_id(self, op: Operation) -> int:
        self.op_ids.append(op)
        return len(self.op_ids) - 1

    # -- entry ------------------------------------------------------------- #

    def compile(self) -> KernelProgram:  # type: ignore[override]
        from xgpu.runtime import compile_host

        compile_host._counter += 1
        filename = f"<xgpu-sim-{compile_host._counter}>"
        funcs = [
            op for op in self.gpu_module.body.block.ops if op.name in ("gpu.func", "func.func")
        ]
        py_name = Namer("k")
        for op in funcs:
            self.funcs[op.sym_name.data] = op
            if op.body.blocks:
                self.func_names[op.sym_name.data] = py_name(op.sym_name.data)
        for op in self.gpu_module.body.block.ops:
            if op.name == "memref.global":
                self.globals[op.sym_name.data] = op
        self.generators = _yielding_functions(self.funcs)
        self.ns.update(
            _oob=_oob,
            _uninit=_uninit,
            _new=new_memory,
            _RuntimeFailure=RuntimeFailure,
            _MemRef=MemRef,
            **asserts.HELPERS,
        )
        for op in funcs:
            if op.body.blocks:
                self.function(op)
        flat.emit_outlined(self)
        source = "\n".join(self.w.lines) + "\n"
        code = compile(source, filename, "exec")
        exec(code, self.ns)
        functions = {name: self.ns[py] for name, py in self.func_names.items()}
        return KernelProgram(
            functions,
            frozenset(self.generators),
            source,
            filename,
            self.w.line_ops,
            self.access_names,
            self.funcs,
            self.op_ids,
            self.device_globals,
            options=self.options,
            spinning=frozenset(
                name
                for name in self.generators
                if name in self.funcs and _spins(self.funcs[name], self.funcs)
            ),
        )

    def function(self, op: Operation) -> None:
        entry = op.body.blocks[0]
        n_inputs = len(op.function_type.inputs.data)
        args = list(entry.args)
        inputs = args[:n_inputs]
        n_wg = op.num_workgroup_attributions if op.name == "gpu.func" else 0
        wg = args[n_inputs : n_inputs + n_wg]
        private = args[n_inputs + n_wg :]
        params = [CTX, *self.vs(inputs), *self.vs(wg)]
        self.w(f"def {self.func_names[op.sym_name.data]}({', '.join(params)}):", op)
        self.w.indent += 1
        for value in private:
            t = value.type
            dtype = self.bind(numpy_dtype(t.element_type), "dt")
            sizes = tuple(t.get_shape())
            name = repr(_value_label(value))
            self.w(f"{self.v(value)} = _new({dtype}, {sizes!r}, 'private', {name})", op)
        for value in args:
            self.unpack_value(value)
        self.region(op.body, self.t_return)
        if op.sym_name.data in self.generators:
            # A generator even when no path reaches a yield.
            self.w("if False:")
            self.w("    yield")
        self.w.indent -= 1
        self.w("")

    def block_ops(self, block: Block, on_exit, machine) -> None:  # type: ignore[override]
        if block.parent is not None and block is not block.parent.blocks.first:
            for arg in block.args:
                self.unpack_value(arg)
        elif block.parent is not None and block.parent.parent is not None:
            parent_op = block.parent.parent
            if parent_op.name not in ("gpu.func", "func.func"):
                for arg in block.args:
                    self.unpack_value(arg)
        super().block_ops(block, on_exit, machine)

    def op(self, op: Operation) -> None:
        super().op(op)
        for result in op.results:
            self.unpack_value(result)

    def unsupported_message(self, op: Operation) -> str:
        return f"'{op.name}' is not supported in kernels by the simulator"

    def t_return(self, op: Operation) -> None:
        if op.name not in ("gpu.return", "func.return"):
            raise HostCompileError(op, f"unexpected terminator '{op.name}' in a function")
        values = self.vs(op.operands)
        if not values:
            self.w("return", op)
        elif len(values) == 1:
            self.w(f"return {values[0]}", op)
        else:
            self.w(f"return ({', '.join(values)})", op)


def _descriptor_names(v: str, rank: int) -> list[str]:
    """The locals a memref `v` of rank `rank` is unpacked into (see the module
    doc; `_e`: the storage's element count)."""
    names = [f"{v}_d", f"{v}_i", f"{v}_h", f"{v}_o"]
    names += [f"{v}_n{d}" for d in range(rank)]
    names += [f"{v}_s{d}" for d in range(rank)]
    names.append(f"{v}_e")
    return names


#: what a work-item's code yields at each iteration of a spin loop
SPIN = ("spin",)

#: ops whose value may change while a work-item spins on it
_SPIN_READS = frozenset({"memref.atomic_rmw", "memref.generic_atomic_rmw", "memref.load"})


def is_spin_loop(op: Operation) -> bool:
    """An `scf.while` whose condition reads memory: it may wait for another
    work-item or another kernel (concurrent kernels), so each iteration
    yields (`SPIN`) and the engine can run others meanwhile."""
    return op.name == "scf.while" and any(
        inner.name in _SPIN_READS for inner in op.before_region.walk()
    )


def _spins(func: Operation, funcs: dict[str, Operation], seen: set[str] | None = None) -> bool:
    """Whether `func` has a spin loop, itself or in a function it calls."""
    seen = set() if seen is None else seen
    for o in func.walk():
        if is_spin_loop(o):
            return True
        if o.name == "func.call":
            callee = o.callee.root_reference.data
            if callee in funcs and callee not in seen:
                seen.add(callee)
                if _spins(funcs[callee], funcs, seen):
                    return True
    return False


def _yielding_functions(funcs: dict[str, Operation]) -> set[str]:
    """Functions that reach a synchronizing op or a spin loop, themselves or
    through calls."""
    found = functions_reaching(funcs, SYNC_OPS)
    found |= {name for name, f in funcs.items() if any(is_spin_loop(o) for o in f.walk())}
    changed = True
    while changed:
        changed = False
        for name, f in funcs.items():
            if name not in found and any(
                o.name == "func.call" and o.callee.root_reference.data in found for o in f.walk()
            ):
                found.add(name)
                changed = True
    return found


# --------------------------------------------------------------------------- #
# Handlers (`kernel_memref`, `kernel_gpu`, `asserts`, `atomics`, `mma`)

_SHARED = (
    "arith.constant",
    "scf.for",
    "scf.if",
    "scf.while",
    "scf.index_switch",
    "scf.execute_region",
    "scf.parallel",
)

KERNEL_HANDLERS: dict[str, Callable[[Any, Operation], None]] = {
    name: handlers()[name] for name in _SHARED
}
KERNEL_HANDLERS.update(
    {
        "gpu.thread_id": _h_id,
        "gpu.block_id": _h_id,
        "gpu.block_dim": _h_id,
        "gpu.grid_dim": _h_id,
        "gpu.global_id": _h_id,
        "gpu.lane_id": _h_subgroup_query,
        "gpu.subgroup_id": _h_subgroup_query,
        "gpu.num_subgroups": _h_subgroup_query,
        "gpu.subgroup_size": _h_subgroup_query,
        "gpu.barrier": _h_barrier,
        "gpu.printf": _h_printf,
        "gpu.dynamic_shared_memory": _h_dsm,
        "gpu.all_reduce": _h_all_reduce,
        "gpu.subgroup_reduce": _h_subgroup_reduce,
        "gpu.shuffle": _h_shuffle,
        "gpu.rotate": _h_rotate,
        "gpu.subgroup_broadcast": _h_broadcast,
        "memref.load": _h_load,
        "memref.store": _h_store,
        "memref.cast": handlers()["memref.cast"],
        "memref.memory_space_cast": _h_alias,
        "memref.assume_alignment": _h_assume_alignment,
        "memref.subview": _h_subview,
        "memref.reinterpret_cast": _h_reinterpret,
        "memref.view": _h_view,
        "memref.alloca": _h_alloca,
        "memref.dim": _h_dim,
        "memref.get_global": _h_get_global,
        "memref.extract_strided_metadata": _h_metadata,
        "func.call": _h_call,
        "cf.assert": asserts.h_assert,
        **atomics.HANDLERS,
        **sim_mma.HANDLERS,
    }
)
