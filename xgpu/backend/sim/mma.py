"""The `gpu.subgroup_mma_*` ops in the simulator's work-item engine (the
lockstep engine leaves kernels with MMA matrices to it).

An MMA matrix is one numpy array per subgroup (`xgpu.semantics.mma`: what
the ops compute): each op is a subgroup collective, a yield to the block's
scheduler (`workgroup`), which runs it once every lane of the subgroup has
reached the same op and reports a divergence otherwise (as for
`gpu.subgroup_reduce`). The lanes must give the same operands (memref,
indices, matrices, constant); a difference is an error at the op.

Memory: the window is shared out as hardware shares a fragment: lane `l`
of a subgroup of `n` lanes reads (before a load's collective) or writes
(after a store's) the elements whose row-major index in the matrix is `l`
modulo `n`, with the bounds and never-written checks, and under
`--detect-races` the accesses, of that lane. (So loading C and storing
A x B + C in place involves no two lanes on one element; the OpenCL
lowering orders its reads and writes with barriers instead.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from xgpu.runtime.compile_host import HostCompileError
from xgpu.runtime.memref import MemRef, RuntimeFailure
from xgpu.semantics import SemanticsError
from xgpu.semantics import mma as msem

#: the ops that yield to the scheduler (`kernel.SYNC_OPS` includes them)
SYNC_OPS = msem.COLLECTIVE_OPS


def _fragment(op: Operation, t: Any) -> msem.Fragment:
    try:
        return msem.fragment(t)
    except SemanticsError as err:
        raise HostCompileError(op, f"'{op.name}' op {err}") from None


def _memory_fragment(op: Operation, mtype: MemRefType, t: Any) -> msem.Fragment:
    f = _fragment(op, t)
    error = msem.memory_error(op.name, mtype.element_type, t)
    if error is not None:
        raise HostCompileError(op, error)
    return f


class _Window:
    """The positions a load or store touches, checked against the memory."""

    def __init__(self, op: Operation, f: msem.Fragment, kacc: Any):
        self.op = op
        self.f = f
        self.lead = msem.lead_dimension(op)
        self.transpose = msem.is_transposed(op)
        self.kacc = kacc

    def positions(self, m: MemRef, indices: Sequence[int]) -> np.ndarray:
        for d, (i, n) in enumerate(zip(indices, m.sizes)):
            if not 0 <= i < n:
                raise RuntimeFailure(msem.indices_message(self.op.name, indices, m.sizes, d))
        base = m.offset + sum(i * s for i, s in zip(indices, m.strides))
        pos = msem.positions(base, self.f, self.lead, self.transpose)
        st = m.storage
        if st.released:
            raise RuntimeFailure(f"{self.op.name} uses freed memory")
        extent = st.nbytes // m.dtype.itemsize
        flat = pos.reshape(-1)
        outside = flat[(flat < 0) | (flat >= extent)]
        if outside.size:  # the first in row-major order, as on OpenCL
            raise RuntimeFailure(msem.window_message(self.op, int(outside[0]), extent, indices))
        return pos

    @staticmethod
    def data(m: MemRef) -> tuple[Any, Any]:
        from xgpu.backend.sim.kernel import unpack

        d = unpack(m)
        return d[0], d[1]


class Load(_Window):
    """A lane's read of its part of the window: (where, lane, lanes, values)
    for the collective, which puts the parts together."""

    def __call__(self, w: Any, m: MemRef, indices: tuple) -> tuple:
        pos = self.positions(m, indices)
        data, init = self.data(m)
        flat = pos.reshape(-1)[w.lane :: w.sgn].tolist()
        shadow = m.storage.shadow
        if self.kacc is not None and shadow is not None:
            for p in flat:
                self.kacc(shadow, p, False, w, self.op)
        for p in flat:
            if not init[p]:
                raise RuntimeFailure(f"{self.op.name} reads never-written element {p} of memory")
        values = data[np.asarray(flat, dtype=np.int64)].astype(self.f.dtype)
        return (m.storage, int(pos[0, 0])), w.lane, w.sgn, values, self.f


class Store(_Window):
    """A lane's part of a store, once the subgroup has reached it."""

    def __call__(self, w: Any, m: MemRef, pos: np.ndarray, value: np.ndarray) -> None:
        data, init = self.data(m)
        flat = pos.reshape(-1)[w.lane :: w.sgn].tolist()
        vals = value.reshape(-1)[w.lane :: w.sgn].tolist()
        shadow = m.storage.shadow
        for p, v in zip(flat, vals):
            if self.kacc is not None and shadow is not None:
                self.kacc(shadow, p, True, w, self.op, v)
            init[p] = 1
            data[p] = v


def _uniform(name: str, payloads: list, what: str) -> Any:
    """The lanes' common payload; an error when a lane gives another."""
    first = payloads[0]
    for lane, p in enumerate(payloads):
        if not _same(p, first):
            raise RuntimeFailure(
                f"{name}: lane {lane} of the subgroup gives other {what} than lane 0 "
                "(every lane must give the same)"
            )
    return first


def _same(a: Any, b: Any) -> bool:
    """Tuples element by element, numbers by value (NaN is NaN), anything
    else (memory, matrices) by identity."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (a != a and b != b)
    return a is b


def _gather_load(payloads: list) -> list:
    _uniform(msem.LOAD, [p[0] for p in payloads], "memory or indices")
    f = payloads[0][4]
    value = np.zeros(f.size, dtype=f.dtype)
    for _, lane, lanes, part, _ in payloads:
        value[lane::lanes] = part
    value = value.reshape(f.rows, f.cols)
    value.flags.writeable = False
    return [value] * len(payloads)


def _sync_store(payloads: list) -> list:
    _uniform(msem.STORE, payloads, "memory, indices or matrix")
    return [None] * len(payloads)


def _compute_fn(payloads: list) -> list:
    a, b, c = _uniform(msem.COMPUTE, payloads, "matrices")
    d = msem.compute(a, b, c)
    d.flags.writeable = False
    return [d] * len(payloads)


def _constant_fn(f: msem.Fragment):
    def run(payloads: list) -> list:
        value = _uniform(msem.CONSTANT, payloads, "values")
        d = msem.constant(value, f)
        d.flags.writeable = False
        return [d] * len(payloads)

    return run


def _elementwise_fn(op_type: str, f: msem.Fragment):
    def run(payloads: list) -> list:
        args = _uniform(msem.ELEMENTWISE_OP, payloads, "matrices")
        d = msem.elementwise(op_type, args, f)
        d.flags.writeable = False
        return [d] * len(payloads)

    return run


def _kacc(c: Any) -> Any:
    return c.hooks.kernel_access if c.options.detect_races else None


def h_load(c: Any, op: Operation) -> None:
    f = _memory_fragment(op, op.src_memref.type, op.res.type)
    fn = c.bind(Load(op, f, _kacc(c)), "mld")
    g = c.bind(_gather_load, "mgl")
    idx = "(" + "".join(i + ", " for i in c.vs(op.indices)) + ")"
    oid = c.op_id(op)
    c.w(f"_mp = {fn}(_w, {c.v(op.src_memref)}, {idx})", op)
    c.w(f"{c.v(op.res)} = yield ('subgroup', {oid}, {g}, _mp)", op)


def h_store(c: Any, op: Operation) -> None:
    f = _memory_fragment(op, op.dst_memref.type, op.src.type)
    st = Store(op, f, _kacc(c))
    pos_fn = c.bind(st.positions, "mpos")
    fn = c.bind(st, "mst")
    sync = c.bind(_sync_store, "msy")
    idx = "(" + "".join(i + ", " for i in c.vs(op.indices)) + ")"
    m, d = c.v(op.dst_memref), c.v(op.src)
    oid = c.op_id(op)
    c.w(f"_mp = {pos_fn}({m}, {idx})", op)
    c.w(f"yield ('subgroup', {oid}, {sync}, ({m}.storage, int(_mp[0, 0]), {d}))", op)
    c.w(f"{fn}(_w, {m}, _mp, {d})", op)


def h_compute(c: Any, op: Operation) -> None:
    a, b, acc = (_fragment(op, v.type) for v in (op.op_a, op.op_b, op.op_c))
    try:
        msem.check_compute(a, b, acc)
    except SemanticsError as err:
        raise HostCompileError(op, f"'{op.name}' op {err}") from None
    fn = c.bind(_compute_fn, "mmc")
    oid = c.op_id(op)
    args = ", ".join(c.vs([op.op_a, op.op_b, op.op_c]))
    c.w(f"{c.v(op.res)} = yield ('subgroup', {oid}, {fn}, ({args}))", op)


def h_constant(c: Any, op: Operation) -> None:
    f = _fragment(op, op.res.type)
    fn = c.bind(_constant_fn(f), "mcst")
    oid = c.op_id(op)
    c.w(f"{c.v(op.res)} = yield ('subgroup', {oid}, {fn}, {c.v(op.value)})", op)


def h_elementwise(c: Any, op: Operation) -> None:
    f = _fragment(op, op.res.type)
    op_type = op.op_type.data.value
    try:
        msem.elementwise_semantics(op_type, [_fragment(op, a.type).elem for a in op.args], f.elem)
    except SemanticsError as err:
        raise HostCompileError(op, f"'{op.name}' op {err}") from None
    fn = c.bind(_elementwise_fn(op_type, f), "mew")
    oid = c.op_id(op)
    args = "(" + "".join(a + ", " for a in c.vs(op.args)) + ")"
    c.w(f"{c.v(op.res)} = yield ('subgroup', {oid}, {fn}, {args})", op)


HANDLERS = {
    msem.LOAD: h_load,
    msem.STORE: h_store,
    msem.COMPUTE: h_compute,
    msem.CONSTANT: h_constant,
    msem.ELEMENTWISE_OP: h_elementwise,
}
