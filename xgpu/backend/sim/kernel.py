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
small exceptions below; `workgroup` maps them to the op (by the generated
line) and reads the indices from the frame's locals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    MemRefType,
    UnitAttr,
)
from xdsl.ir import Block, Operation, SSAValue

from xgpu.analysis.calls import functions_reaching
from xgpu.backend.sim import asserts, atomics
from xgpu.backend.sim import mma as sim_mma
from xgpu.diagnostics import symbol_text
from xgpu.mangle import Namer
from xgpu.runtime import flat
from xgpu.runtime.compile_host import (
    _EXIT_TERMINATORS,
    HostCompileError,
    HostCompiler,
    handlers,
)
from xgpu.runtime.host_memref import _rank_reduction, _static_and_dynamic
from xgpu.runtime.memref import (
    DYNAMIC,
    MemRef,
    RuntimeFailure,
    Storage,
    checked_view,
    numpy_dtype,
    view_bounds_message,
    zeros,
)
from xgpu.semantics import gpu as gsem
from xgpu.semantics.printf import Printf, PrintfError, compile_printf

CTX = "_w, _tx, _ty, _tz, _bx, _by, _bz, _nx, _ny, _nz, _gx, _gy, _gz"

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
# What failures the generated code raises


class OutOfBounds(Exception):
    pass


class Uninitialized(Exception):
    pass


class Freed(Exception):
    pass


def _oob() -> None:
    raise OutOfBounds


def _uninit() -> None:
    raise Uninitialized


class _FreedMemory:
    """Stands for the data and written flags of deallocated memory."""

    __slots__ = ()

    def _fail(self, *args: Any) -> Any:
        raise Freed

    __getitem__ = __setitem__ = item = _fail


FREED = _FreedMemory()


def unpack(m: MemRef) -> tuple:
    """(data, written flags, shadow, offset, *sizes, *strides, extent) of a
    kernel memref (extent: the storage's element count)."""
    st = m.storage
    extent = st.nbytes // m.dtype.itemsize
    if st.released:
        # The shadow stays: the race detector sees the access (a use after
        # a free it is not ordered after) before the use fails.
        return (FREED, FREED, st.shadow, m.offset, *m.sizes, *m.strides, extent)
    data = st.buf if st.buf is not None else st.host
    if data is None:
        raise RuntimeFailure("a kernel uses memory the device cannot use")
    init = st.init
    if init is None:
        init = st.init = bytearray(b"\x01") * max(len(data), 1)
    return (data, init, st.shadow, m.offset, *m.sizes, *m.strides, extent)


def new_memory(
    dtype: np.dtype, sizes: tuple[int, ...], kind: str, name: str | None, where: str = ""
) -> MemRef:
    """Zeroed memory whose elements count as never written (workgroup,
    private, alloca)."""
    from xgpu.runtime.memref import row_major_strides

    n = 1
    for s in sizes:
        n *= s
    data = zeros(n, dtype, "memory of a kernel")
    st = Storage(None, data, n * dtype.itemsize, kind)
    st.init = bytearray(max(n, 1))
    st.name = name
    st.shape = tuple(sizes)
    st.where = where
    return MemRef(st, dtype, 0, tuple(sizes), row_major_strides(tuple(sizes)))


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


def _value_label(value: SSAValue) -> str:
    hint = value.name_hint
    return f"%{hint}" if hint else "a buffer"


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
# Handlers


def _h_id(c: KernelCompiler, op: Operation) -> None:
    dim = op.dimension.data.value
    expr = {
        "gpu.thread_id": f"_t{dim}",
        "gpu.block_id": f"_b{dim}",
        "gpu.block_dim": f"_n{dim}",
        "gpu.grid_dim": f"_g{dim}",
        "gpu.global_id": f"_b{dim} * _n{dim} + _t{dim}",
    }[op.name]
    c.w(f"{c.v(op.result)} = {expr}", op)


def _h_subgroup_query(c: KernelCompiler, op: Operation) -> None:
    attr = {
        "gpu.lane_id": "lane",
        "gpu.subgroup_id": "sg",
        "gpu.num_subgroups": "nsg",
        "gpu.subgroup_size": "sgn",
    }[op.name]
    c.w(f"{c.v(op.result)} = _w.{attr}", op)


def _h_barrier(c: KernelCompiler, op: Operation) -> None:
    req = c.bind(("block", c.op_id(op), None, None), "bar")
    c.w(f"yield {req}", op)


def memref_access(c: KernelCompiler, op: Operation, write: bool, value: str | None = None) -> str:
    """Emit the bounds check and position of `op`'s access (`value`: what a
    store writes, for the race detector's uniform writes); returns the
    memref's local prefix."""
    mval = op.memref
    if mval not in c.unpacked:
        raise HostCompileError(op, "memref of unknown layout in a kernel")
    m = c.unpacked[mval]
    indices = c.vs(op.indices)
    c.access_names[op] = (m, indices)
    if indices:
        cond = " and ".join(f"0 <= {i} < {m}_n{d}" for d, i in enumerate(indices))
        c.w(f"if not ({cond}): _oob()", op)
    pos = flat.chain([f"{m}_o", *(f"{i} * {m}_s{d}" for d, i in enumerate(indices))], " + ")
    c.w(f"_p = {pos}", op)
    # A descriptor cannot reach outside its memory (as on OpenCL).
    c.w(f"if not 0 <= _p < {m}_e: _oob()", op)
    if c.options.detect_races:
        oid = c.bind(op, "op")
        c.ns.setdefault("_kacc", c.hooks.kernel_access)
        stored = f", {value}" if value is not None else ""
        c.w(f"if {m}_h is not None: _kacc({m}_h, _p, {write}, _w, {oid}{stored})", op)
    return m


def _h_load(c: KernelCompiler, op: Operation) -> None:
    m = memref_access(c, op, False)
    c.w(f"if not {m}_i[_p]: _uninit()", op)
    c.w(f"{c.v(op.res)} = {m}_d.item(_p)", op)


def _h_store(c: KernelCompiler, op: Operation) -> None:
    m = memref_access(c, op, True, c.v(op.value))
    c.w(f"{m}_i[_p] = 1", op)
    c.w(f"{m}_d[_p] = {c.v(op.value)}", op)


def _h_alias(c: KernelCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.results[0])} = {c.v(op.operands[0])}", op)


def _h_assume_alignment(c: KernelCompiler, op: Operation) -> None:
    if op.results:
        _h_alias(c, op)
    else:
        c.w("pass", op)


def _h_subview(c: KernelCompiler, op: Operation) -> None:
    from xgpu.runtime.host_memref import subview

    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    source_rank = len(op.static_sizes.get_values())
    keep = _rank_reduction(op, op.static_sizes.get_values(), op.result.type, source_rank)
    fn = c.bind(subview, "sv")
    c.w(
        f"{c.v(op.result)} = {fn}({c.v(op.source)}, {offsets}, {sizes}, {strides}, "
        f"{c.bind(keep, 'keep')})",
        op,
    )


def _reinterpret_checked(m: MemRef, offset: int, sizes, strides) -> MemRef:
    return checked_view(m, offset, tuple(sizes), tuple(strides), "memref.reinterpret_cast")


def _h_reinterpret(c: KernelCompiler, op: Operation) -> None:
    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    fn = c.bind(_reinterpret_checked, "ri")
    c.w(f"{c.v(op.result)} = {fn}({c.v(op.source)}, {offsets}[0], {sizes}, {strides})", op)


_VIEWS: Any = None


def _byte_view(m: MemRef, shift: int, dtype: np.dtype, sizes: tuple[int, ...]) -> MemRef:
    """`memref.view`: elements of `dtype` over the bytes of an i8 memref from
    byte `shift`. Views of the same bytes share one storage (and so their
    written flags and race records)."""
    import weakref

    from xgpu.runtime.memref import row_major_strides

    global _VIEWS
    if _VIEWS is None:
        _VIEWS = weakref.WeakKeyDictionary()
    st = m.storage
    if st.released:
        raise Freed
    base = st.buf if st.buf is not None else st.host
    n = 1
    for s in sizes:
        n *= s
    start = m.offset + shift
    stop = start + n * dtype.itemsize
    if (
        any(s < 0 for s in sizes)
        or shift < 0
        or stop > m.offset + m.sizes[0]
        or stop > st.nbytes
        or start % dtype.itemsize
    ):
        raise RuntimeFailure(view_bounds_message(n, dtype, shift, m.sizes[0]))
    cache = _VIEWS.setdefault(st, {})
    key = (start, dtype.str, n)
    view_st = cache.get(key)
    if view_st is None:
        data = base[start:stop].view(dtype)
        view_st = Storage(None, data, n * dtype.itemsize, st.kind)
        view_st.init = bytearray(max(n, 1)) if st.kind != "host" else None
        view_st.shadow = st.shadow.__class__() if st.shadow is not None else None
        view_st.name = st.name
        view_st.where = st.where
        view_st.shape = (n,)
        cache[key] = view_st
    return MemRef(view_st, dtype, 0, tuple(sizes), row_major_strides(tuple(sizes)))


def _h_view(c: KernelCompiler, op: Operation) -> None:
    t = op.results[0].type
    dtype = c.bind(numpy_dtype(t.element_type), "dt")
    dyn = iter(c.vs(op.sizes))
    sizes = [next(dyn) if s == DYNAMIC or s < 0 else str(s) for s in t.get_shape()]
    fn = c.bind(_byte_view, "bv")
    c.w(
        f"{c.v(op.results[0])} = {fn}({c.v(op.source)}, {c.v(op.byte_shift)}, {dtype}, "
        f"({''.join(s + ', ' for s in sizes)}))",
        op,
    )


def _h_alloca(c: KernelCompiler, op: Operation) -> None:
    t = op.memref.type
    dtype = c.bind(numpy_dtype(t.element_type), "dt")
    dyn = iter(c.vs(op.dynamic_sizes))
    sizes = [next(dyn) if s == DYNAMIC or s < 0 else str(s) for s in t.get_shape()]
    label = repr(_value_label(op.memref))
    c.w(
        f"{c.v(op.memref)} = _new({dtype}, ({''.join(s + ', ' for s in sizes)}), 'private', "
        f"{label})",
        op,
    )


def _h_dim(c: KernelCompiler, op: Operation) -> None:
    from xgpu.runtime.host_memref import _dim

    c.w(f"{c.v(op.result)} = {c.bind(_dim, 'dim')}({c.v(op.source)}, {c.v(op.index)})", op)


def _h_metadata(c: KernelCompiler, op: Operation) -> None:
    """`memref.extract_strided_metadata`: the 0-d base buffer, offset, sizes
    and strides of the descriptor."""
    src = c.v(op.source)
    c.w(f"{c.v(op.base_buffer)} = {src}.view(0, (), ())", op)
    c.w(f"{c.v(op.offset)} = {src}.offset", op)
    for d, r in enumerate(op.sizes):
        c.w(f"{c.v(r)} = {src}.sizes[{d}]", op)
    for d, r in enumerate(op.strides):
        c.w(f"{c.v(r)} = {src}.strides[{d}]", op)


def _h_get_global(c: KernelCompiler, op: Operation) -> None:
    name = op.name_.root_reference.data
    glob = c.globals.get(name)
    if glob is None:
        raise HostCompileError(
            op, f"no memref.global named '{symbol_text(name)}' in this gpu.module"
        )
    memrefs = c.device_globals
    if name not in memrefs:
        memrefs[name] = _device_global(glob)
    c.w(f"{c.v(op.memref)} = {c.bind(memrefs[name], 'g')}", op)


def _device_global(op: Operation) -> MemRef:
    from xgpu.runtime.memref import global_memref

    m = global_memref(op)
    m.storage.buf = m.storage.host
    return m


def _h_dsm(c: KernelCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.result_memref)} = _w.bs.dsm", op)


def write_output(out: Any, data: bytes) -> None:
    """Write the bytes `data` to the text stream `out` (to its binary buffer
    when it has one, after what was written before; else decoded, invalid
    UTF-8 kept as surrogate escapes)."""
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(data)
        buffer.flush()
    else:
        out.write(data.decode("utf-8", "surrogateescape"))


def _printer(pf: Printf) -> Callable[[tuple, Any], None]:
    fmt = pf.format

    def run(values: tuple, out: Any) -> None:
        write_output(out, fmt(values))

    return run


def _h_printf(c: KernelCompiler, op: Operation) -> None:
    try:
        pf = compile_printf(op.format_text, [v.type for v in op.args])
    except PrintfError as err:
        raise HostCompileError(op, f"'gpu.printf' op {err}") from None
    fn = c.bind(_printer(pf), "pf")
    values = "(" + "".join(a + ", " for a in c.vs(op.args)) + ")"
    c.w(f"{fn}({values}, _w.out)", op)


def _combine_fn(c: KernelCompiler, op: Operation, kind: str | None) -> str:
    """A name bound to the binary combining function of a reduction."""
    if kind is not None:
        return c.bind(gsem.combiner(kind, op.operands[0].type).py, "cmb")
    # The region form: a nested function.
    region = op.body
    block = region.blocks.first
    name = c.fresh("comb")
    lhs, rhs = c.vs(block.args)
    c.w(f"def {name}({lhs}, {rhs}):", op)
    c.w.indent += 1

    def on_exit(term: Operation) -> None:
        if term.name != "gpu.yield":
            raise HostCompileError(term, "gpu.all_reduce's region must end with gpu.yield")
        c.w(f"return {c.v(term.operands[0])}", term)

    saved = c.handlers
    c.region(region, on_exit)
    c.handlers = saved
    c.w.indent -= 1
    return name


def _all_reduce_combine(
    combine: Callable[[Any, Any], Any], order: str = "fold"
) -> Callable[[list], list]:
    reduce = gsem.REDUCTIONS[order]

    def run(values: list) -> list:
        result = reduce(values, combine)
        return [result] * len(values)

    return run


def _h_all_reduce(c: KernelCompiler, op: Operation) -> None:
    kind = op.op.data.value if op.op is not None else None
    comb = _combine_fn(c, op, kind)
    make = c.bind(_all_reduce_combine, "mk")
    oid = c.op_id(op)
    order = c.options.reduction
    c.w(
        f"{c.v(op.result)} = yield ('block', {oid}, {make}({comb}, {order!r}), {c.v(op.value)})", op
    )


def _reduce_kind(op: Operation) -> str:
    return op.op.data.value


def _subgroup_reduce_fn(combine, size: int | None, stride: int, order: str = "fold"):
    reduce = gsem.REDUCTIONS[order]

    def run(values: list) -> list:
        if size is None:
            r = reduce(values, combine)
            return [r] * len(values)
        return gsem.cluster_reduce(values, combine, size, stride, order)

    return run


def _h_subgroup_reduce(c: KernelCompiler, op: Operation) -> None:
    kind = _reduce_kind(op)
    comb = gsem.combiner(kind, op.value.type).py
    size = op.cluster_size.value.data if op.cluster_size is not None else None
    stride = op.cluster_stride.value.data if op.cluster_stride is not None else 1
    fn = c.bind(_subgroup_reduce_fn(comb, size, stride, c.options.reduction), "sgr")
    oid = c.op_id(op)
    c.w(f"{c.v(op.result)} = yield ('subgroup', {oid}, {fn}, {c.v(op.value)})", op)


def _shuffle_fn(mode: str):
    def run(payloads: list) -> list:
        values = [p[0] for p in payloads]
        offsets = [p[1] for p in payloads]
        width = payloads[0][2]
        return gsem.shuffle(values, offsets, width, mode)

    return run


def _h_shuffle(c: KernelCompiler, op: Operation) -> None:
    mode = op.mode.data.value
    fn = c.bind(_shuffle_fn(mode), "shf")
    oid = c.op_id(op)
    payload = f"({c.v(op.value)}, {c.v(op.offset)}, {c.v(op.width)})"
    c.w(
        f"{c.v(op.shuffle_result)}, {c.v(op.valid)} = yield ('subgroup', {oid}, {fn}, {payload})",
        op,
    )


def _rotate_fn(offset: int, width: int):
    def run(values: list) -> list:
        return gsem.rotate(values, offset, width)

    return run


def _h_rotate(c: KernelCompiler, op: Operation) -> None:
    fn = c.bind(_rotate_fn(op.offset.value.data, op.width.value.data), "rot")
    oid = c.op_id(op)
    c.w(
        f"{c.v(op.rotate_result)}, {c.v(op.valid)} = yield ('subgroup', {oid}, {fn}, "
        f"{c.v(op.value)})",
        op,
    )


def _broadcast_fn(payloads: list) -> list:
    values = [p[0] for p in payloads]
    lane = payloads[0][1]
    if not 0 <= lane < len(values):
        raise RuntimeFailure(
            f"gpu.subgroup_broadcast from lane {lane} of a subgroup of {len(values)} lanes"
        )
    return gsem.broadcast(values, lane)


def _h_broadcast(c: KernelCompiler, op: Operation) -> None:
    lane = c.v(op.lane) if op.lane is not None else "0"
    oid = c.op_id(op)
    fn = c.bind(_broadcast_fn, "bc")
    c.w(
        f"{c.v(op.result)} = yield ('subgroup', {oid}, {fn}, ({c.v(op.src)}, {lane}))",
        op,
    )


def _h_call(c: KernelCompiler, op: Operation) -> None:
    callee = op.callee.root_reference.data
    target = c.func_names.get(callee)
    if target is None or op.callee.nested_references.data:
        raise HostCompileError(op, f"calls @{callee}, which is not a function of this gpu.module")
    fop = c.funcs[callee]
    if fop.name == "gpu.func" and isinstance(fop.attributes.get("gpu.kernel"), UnitAttr):
        raise HostCompileError(op, f"calls the kernel @{callee}")
    args = ", ".join([CTX, *c.vs(op.arguments)])
    call = f"{target}({args})"
    if callee in c.generators:
        call = f"(yield from {call})"
    results = c.vs(op.results)
    c.call_into(results, call, op)


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
