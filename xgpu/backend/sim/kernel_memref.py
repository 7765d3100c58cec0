"""The work-item engine's handlers of the memref ops in kernels (`kernel`
registers them): bounds-checked loads and stores, aliases, subviews,
reinterpret casts, byte views, allocas, dims, metadata, globals and
gpu.dynamic_shared_memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.ir import Operation

from xgpu.backend.sim.kernel_runtime import Freed, _value_label
from xgpu.diagnostics import symbol_text
from xgpu.runtime import flat
from xgpu.runtime.compile_host import HostCompileError
from xgpu.runtime.host_memref import _rank_reduction, _static_and_dynamic
from xgpu.runtime.memref import (
    DYNAMIC,
    MemRef,
    RuntimeFailure,
    Storage,
    checked_view,
    numpy_dtype,
    view_bounds_message,
)

if TYPE_CHECKING:
    from xgpu.backend.sim.kernel import KernelCompiler


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
