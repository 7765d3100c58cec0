"""Host code: the memref ops (see `compile_host` for the compiler).

Each handler writes the Python of one op; the helpers at the end are what
that Python calls (bound into the generated module by `HostCompiler.compile`).
Host accesses are bounds-checked, views are checked against their storage,
and under the race detector or with device copies of registered memory each
access also tells the runtime (`_record_host_access`, `_sync_host`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import DenseArrayBase, MemRefType
from xdsl.ir import Operation

from xgpu.diagnostics import symbol_text
from xgpu.runtime import flat
from xgpu.runtime.compile_host import (
    HostCompileError,
    HostCompiler,
    _coherent,
    _dtype_of,
    _name_storage,
    _sizes_expr,
)
from xgpu.runtime.memref import (
    DYNAMIC,
    MemRef,
    RuntimeFailure,
    checked_cast,
    checked_view,
    subview_bounds_message,
)


def _h_memref_alloc(c: HostCompiler, op: Operation) -> None:
    mtype = op.memref.type
    dtype = c.bind(_dtype_of(op, mtype), "dt")
    sizes = _sizes_expr(c, mtype, op.dynamic_sizes)
    c.w(f"{c.v(op.memref)} = _halloc({dtype}, {sizes})", op)
    _name_storage(c, op, op.memref)


def _h_memref_dealloc(c: HostCompiler, op: Operation) -> None:
    c.w("pass", op)


def _index_expr(c: HostCompiler, m: str, indices: list[str]) -> str:
    terms = [f"{m}.offset"]
    for d, i in enumerate(indices):
        terms.append(f"{i} * {m}.strides[{d}]")
    return flat.chain(terms, " + ")


def _bounds_check(c: HostCompiler, op: Operation, m: str, indices: list[str]) -> None:
    """Host accesses are bounds-checked (kernels' are not: OpenCL cannot)."""
    if not indices:
        return
    cond = " and ".join(f"0 <= {i} < {m}.sizes[{d}]" for d, i in enumerate(indices))
    c.w(f"if not ({cond}):", op)
    c.w(f"    _oob({m}, ({', '.join(indices)},))", op)


def _record_host_access(c: HostCompiler, op: Operation, m: str, pos: str, write: bool) -> None:
    """Under the race detector: tell it about a host access to element `pos`."""
    if c.instrument:
        fn = c.ns.get("_hacc")
        if fn is None:
            c.ns["_hacc"] = c.hooks.host_access
        c.w(f"_hacc({m}, {pos}, {write}, {c.bind(op, 'op')})", op)


def _sync_host(c: HostCompiler, op: Operation, m: str, write: bool) -> None:
    """Before a host access to `m`: merge the device's writes to registered
    memory (and note a host write)."""
    if _coherent(c):
        c.w(f"if {m}.storage.mirror is not None: _hsync({m}, {write})", op)


def _h_memref_load(c: HostCompiler, op: Operation) -> None:
    m = c.v(op.memref)
    indices = c.vs(op.indices)
    _bounds_check(c, op, m, indices)
    pos = _index_expr(c, m, indices)
    _record_host_access(c, op, m, pos, False)
    _sync_host(c, op, m, False)
    c.w(f"{c.v(op.res)} = {m}.host.item({pos})", op)


def _h_memref_store(c: HostCompiler, op: Operation) -> None:
    m = c.v(op.memref)
    indices = c.vs(op.indices)
    _bounds_check(c, op, m, indices)
    pos = _index_expr(c, m, indices)
    _record_host_access(c, op, m, pos, True)
    _sync_host(c, op, m, True)
    c.w(f"{m}.host[{pos}] = {c.v(op.value)}", op)


def _h_alias(c: HostCompiler, op: Operation) -> None:
    """Ops whose result is the same descriptor (casts, alignment facts)."""
    c.w(f"{c.v(op.results[0])} = {c.v(op.operands[0])}", op)


def _h_memref_cast(c: HostCompiler, op: Operation) -> None:
    """`memref.cast`: where the result type makes a size, stride or offset
    static, the memref must have it (checked; an alias otherwise)."""
    from xgpu.runtime.memref import static_layout

    src_t, dst_t = op.source.type, op.dest.type
    if not isinstance(dst_t, MemRefType) or not isinstance(src_t, MemRefType):
        _h_alias(c, op)
        return
    shape = tuple(None if s == DYNAMIC or s < 0 else s for s in dst_t.get_shape())
    offset, strides = static_layout(dst_t)
    if isinstance(dst_t.layout, builtin.NoneAttr):
        strides = "row-major"  # type: ignore[assignment]
    src_shape = tuple(None if s == DYNAMIC or s < 0 else s for s in src_t.get_shape())
    src_offset, src_strides = static_layout(src_t)
    if isinstance(src_t.layout, builtin.NoneAttr):
        src_strides = "row-major"  # type: ignore[assignment]
    if (shape, strides, offset) == (src_shape, src_strides, src_offset):
        _h_alias(c, op)
        return
    fn = c.bind(checked_cast, "cast")
    c.w(
        f"{c.v(op.dest)} = {fn}({c.v(op.source)}, {shape!r}, {strides!r}, {offset!r})",
        op,
    )


def _h_assume_alignment(c: HostCompiler, op: Operation) -> None:
    if op.results:
        _h_alias(c, op)
    else:
        c.w("pass", op)


def _static_and_dynamic(c: HostCompiler, static: DenseArrayBase, dynamic: Any) -> str:
    dyn = iter(c.vs(dynamic))
    parts = [next(dyn) if v == DYNAMIC else str(v) for v in static.get_values()]
    return "(" + "".join(p + ", " for p in parts) + ")"


def _h_memref_subview(c: HostCompiler, op: Operation) -> None:
    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    source_rank = len(op.static_sizes.get_values())
    result_type = op.result.type
    keep = _rank_reduction(op, op.static_sizes.get_values(), result_type, source_rank)
    keep_name = c.bind(keep, "keep")
    c.w(
        f"{c.v(op.result)} = _subview({c.v(op.source)}, {offsets}, {sizes}, {strides}, "
        f"{keep_name})",
        op,
    )


def _rank_reduction(op, static_sizes, result_type, source_rank) -> tuple[int, ...] | None:
    """The source dimensions a rank-reducing subview keeps (None: all of them):
    source sizes are matched to the result's left to right, and unmatched
    dimensions of size 1 are dropped (MLIR's computeRankReductionMask)."""
    shape = list(result_type.get_shape())
    if len(shape) == source_rank:
        return None
    keep: list[int] = []
    for d, size in enumerate(static_sizes):
        j = len(keep)
        spare = (source_rank - d) - (len(shape) - j)  # source dims that must go
        if size == 1 and spare > 0 and (j >= len(shape) or shape[j] != 1):
            continue
        if j < len(shape) and (size == shape[j] or size == DYNAMIC or shape[j] < 0):
            keep.append(d)
        elif size != 1:
            raise HostCompileError(op, "cannot infer which dimensions the subview drops")
    if len(keep) != len(shape):
        raise HostCompileError(op, "cannot infer which dimensions the subview drops")
    return tuple(keep)


def _h_memref_reinterpret_cast(c: HostCompiler, op: Operation) -> None:
    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    c.w(
        f"{c.v(op.result)} = _reinterpret({c.v(op.source)}, {offsets}[0], {sizes}, {strides})",
        op,
    )


def _h_memref_reshape(c: HostCompiler, op: Operation) -> None:
    result_type = op.result.type
    if op.name == "memref.expand_shape":
        sizes = _static_and_dynamic(c, op.static_output_shape, op.output_shape)
    else:
        shape = result_type.get_shape()
        groups = [list(g) for g in _reassociation(op)]
        src = c.v(op.src)
        parts = []
        for d, size in enumerate(shape):
            if size >= 0:
                parts.append(str(size))
            else:
                parts.append(flat.chain([f"{src}.sizes[{i}]" for i in groups[d]], " * ") or "1")
        sizes = "(" + "".join(p + ", " for p in parts) + ")"
    c.w(f"{c.v(op.result)} = _reshape({c.v(op.src)}, {sizes})", op)


def _reassociation(op: Operation) -> list[list[int]]:
    return [[int(x.value.data) for x in group.data] for group in op.reassociation.data]


def _h_memref_copy(c: HostCompiler, op: Operation) -> None:
    if c.instrument:
        c.ns.setdefault("_hview", c.hooks.host_view_access)
        opn = c.bind(op, "op")
        c.w(f"_hview({c.v(op.source)}, False, {opn})", op)
        c.w(f"_hview({c.v(op.destination)}, True, {opn})", op)
    _sync_host(c, op, c.v(op.source), False)
    _sync_host(c, op, c.v(op.destination), True)
    c.w(f"_mcopy({c.v(op.source)}, {c.v(op.destination)})", op)


def _h_memref_dim(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.result)} = _dim({c.v(op.source)}, {c.v(op.index)})", op)


def _h_memref_rank(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.results[0])} = len({c.v(op.operands[0])}.sizes)", op)


def _h_memref_get_global(c: HostCompiler, op: Operation) -> None:
    name = op.name_.root_reference.data
    glob = c.globals.get(name)
    if glob is None:
        raise HostCompileError(op, f"no memref.global named '{symbol_text(name)}'")
    bound = c.bind(c.hooks.global_memref(glob), "g")
    c.w(f"{c.v(op.memref)} = {bound}", op)


def _h_memref_atomic(c: HostCompiler, op: Operation) -> None:
    """`memref.atomic_rmw` / `generic_atomic_rmw` in host code: host code runs
    on one thread, so a read then a write (`xgpu.semantics.atomics`); the
    op's value is the element's old value."""
    from xgpu.semantics import SemanticsError
    from xgpu.semantics.atomics import kind_of, update

    m = c.v(op.memref)
    indices = c.vs(op.indices)
    _bounds_check(c, op, m, indices)
    pos = _index_expr(c, m, indices)
    _record_host_access(c, op, m, pos, False)
    _record_host_access(c, op, m, pos, True)
    _sync_host(c, op, m, True)
    old = c.v(op.result)
    c.w(f"{old} = {m}.host.item({pos})", op)
    if op.name == "memref.atomic_rmw":
        try:
            sem = update(kind_of(op), op.result.type)
        except SemanticsError as err:
            raise HostCompileError(op, str(err)) from None
        value = c.v(op.value)
        new = value if sem is None else f"{c.bind(sem.py, 'atom')}({old}, {value})"
        c.w(f"{m}.host[{pos}] = {new}", op)
        return
    block = op.atomic_body.block
    c.w(f"{c.v(block.args[0])} = {old}", op)

    def on_exit(term: Operation) -> None:
        if term.name != "memref.atomic_yield":
            raise HostCompileError(
                term, "memref.generic_atomic_rmw's region must end with memref.atomic_yield"
            )
        c.w(f"{m}.host[{pos}] = {c.v(term.operands[0])}", term)

    saved = c.exit_terminators
    c.exit_terminators = saved | {"memref.atomic_yield"}
    try:
        c.region(op.atomic_body, on_exit)
    finally:
        c.exit_terminators = saved


HANDLERS = {
    "memref.atomic_rmw": _h_memref_atomic,
    "memref.generic_atomic_rmw": _h_memref_atomic,
    "memref.alloc": _h_memref_alloc,
    "memref.alloca": _h_memref_alloc,
    "memref.dealloc": _h_memref_dealloc,
    "memref.load": _h_memref_load,
    "memref.store": _h_memref_store,
    "memref.cast": _h_memref_cast,
    "memref.memory_space_cast": _h_alias,
    "memref.assume_alignment": _h_assume_alignment,
    "memref.subview": _h_memref_subview,
    "memref.reinterpret_cast": _h_memref_reinterpret_cast,
    "memref.expand_shape": _h_memref_reshape,
    "memref.collapse_shape": _h_memref_reshape,
    "memref.copy": _h_memref_copy,
    "memref.dim": _h_memref_dim,
    "memref.rank": _h_memref_rank,
    "memref.get_global": _h_memref_get_global,
}


# --------------------------------------------------------------------------- #
# Memref helpers the generated code calls


def _host_alloc(dtype: np.dtype, sizes: tuple[int, ...]) -> MemRef:
    from xgpu.runtime.memref import host_alloc

    return host_alloc(dtype, sizes)


def _out_of_bounds(m: MemRef, indices: tuple[int, ...]) -> None:
    raise RuntimeFailure(
        f"out-of-bounds access at [{', '.join(map(str, indices))}] of a memref of sizes "
        f"[{', '.join(map(str, m.sizes))}]"
    )


def _dim(m: MemRef, index: int) -> int:
    if not 0 <= index < len(m.sizes):
        raise RuntimeFailure(f"memref.dim index {index} out of range for rank {len(m.sizes)}")
    return m.sizes[index]


def subview(
    m: MemRef,
    offsets: tuple[int, ...],
    sizes: tuple[int, ...],
    strides: tuple[int, ...],
    keep: tuple[int, ...] | None,
) -> MemRef:
    """`memref.subview`: offsets, sizes and strides relative to the source."""
    offset = m.offset
    for o, s in zip(offsets, m.strides):
        offset += o * s
    new_strides = tuple(st * s for st, s in zip(strides, m.strides))
    for d, (o, size, st) in enumerate(zip(offsets, sizes, strides)):
        last = o + (size - 1) * st
        if size < 0 or o < 0 or (size > 0 and not 0 <= last < m.sizes[d]):
            raise RuntimeFailure(subview_bounds_message(d, m.sizes[d], o, size, st))
    if keep is not None:
        sizes = tuple(sizes[d] for d in keep)
        new_strides = tuple(new_strides[d] for d in keep)
    return m.view(offset, tuple(sizes), new_strides)


def reinterpret(m: MemRef, offset: int, sizes: tuple[int, ...], strides: tuple[int, ...]) -> MemRef:
    """`memref.reinterpret_cast`: a view that must stay inside the storage."""
    return checked_view(m, offset, sizes, strides, "memref.reinterpret_cast")


def reshape(m: MemRef, sizes: tuple[int, ...]) -> MemRef:
    """`memref.expand_shape` / `collapse_shape` of a contiguous view."""
    if not m.is_contiguous():
        raise RuntimeFailure("expand_shape/collapse_shape of a non-contiguous view")
    n = 1
    for s in sizes:
        if s < 0:
            raise RuntimeFailure(f"expand_shape/collapse_shape to a negative size {s}")
        n *= s
    if n != m.num_elements:
        raise RuntimeFailure(
            f"expand_shape/collapse_shape of {m.num_elements} elements to {n} "
            f"(sizes [{', '.join(map(str, sizes))}])"
        )
    from xgpu.runtime.memref import row_major_strides

    return m.view(m.offset, tuple(sizes), row_major_strides(tuple(sizes)))


def memref_copy(src: MemRef, dst: MemRef) -> None:
    """`memref.copy` on the host."""
    if src.sizes != dst.sizes:
        raise RuntimeFailure(f"memref.copy between shapes {list(src.sizes)} and {list(dst.sizes)}")
    from xgpu.runtime.memref import copy_overlap_message, overlapping

    if overlapping(src, dst):
        raise RuntimeFailure(copy_overlap_message("memref.copy"))
    dst.host_view()[...] = src.host_view()


#: what the generated code calls, by the names it uses
RUNTIME = {
    "_subview": subview,
    "_reinterpret": reinterpret,
    "_reshape": reshape,
    "_mcopy": memref_copy,
    "_halloc": _host_alloc,
    "_dim": _dim,
    "_oob": _out_of_bounds,
}
