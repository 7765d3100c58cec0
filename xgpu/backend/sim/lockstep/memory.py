"""The lockstep engine's memory accesses, masks and barriers.

A `Batch` is what one call of a lockstep kernel runs: `L` lanes (one block,
or many blocks of a kernel without barriers), their subgroup ids, the
block's dynamic shared memory, the barrier epoch and the race recorder.

`_ld`/`_st` are `memref.load`/`memref.store` over the active lanes: the
positions are computed with numpy (indices that are the same for every lane
stay Python ints), and every check of the work-item engine is made over the
whole vector: indices within the sizes, the position within the storage,
memory not freed and usable by the device, elements written before they are
read. A check that fails raises `NeedsReplay`: the launch is run again from
its start by the work-item engine, which reports the failure exactly as it
always has (the first failing work-item in its order, with its message), so
this module never words an error.

A store where several lanes write one position leaves the value of the last
lane in linear order (what running them one after the other gives; with
different values it is a data race, which `--detect-races` reports).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from xgpu.backend.sim.lockstep.vector import NeedsReplay
from xgpu.runtime.memref import MemRef


class Batch:
    __slots__ = ("L", "lane", "sg", "sgn", "nsg", "dsm", "epoch", "rec", "blk0", "n")

    def __init__(self, L: int, n: int, sg_size: int, dsm: Any, rec: Any, blk0: int):
        self.L = L
        self.n = n
        self.lane, self.sg, self.sgn = subgroup_tables(L, n, sg_size)
        self.nsg = (n + sg_size - 1) // sg_size
        self.dsm = dsm
        self.epoch = 0
        #: the race recorder (`races.Recorder`), or None
        self.rec = rec
        #: the linear id of the batch's first block
        self.blk0 = blk0


@functools.lru_cache(maxsize=16)
def subgroup_tables(L: int, n: int, sg_size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per lane of a batch of `L` lanes in blocks of `n`: its lane in its
    subgroup, its subgroup and that subgroup's size. Made once per batch
    shape (every batch of a launch but the last has the same), read-only."""
    lid = np.arange(L, dtype=np.int64) % n
    lane = lid % sg_size
    sg = lid // sg_size
    sgn = np.minimum(sg_size, n - sg * sg_size)
    return frozen(lane), frozen(sg), frozen(sgn)


def frozen(a: np.ndarray) -> np.ndarray:
    """`a`, made read-only (it is shared between batches)."""
    a.flags.writeable = False
    return a


class BatchMemRef(MemRef):
    """The workgroup memory of every block of a batch: one storage of
    `blocks` copies, each lane addressing its block's (`lane_base`)."""

    __slots__ = ("lane_base", "extent")


def batch_memory(dtype: Any, shape: tuple, label: str, blocks: int, n: int) -> BatchMemRef:
    from xgpu.backend.sim.kernel import new_memory

    one = 1
    for s in shape:
        one *= s
    flat = new_memory(dtype, (blocks * one,), "workgroup", label, " (workgroup memory)")
    m = BatchMemRef(flat.storage, dtype, 0, tuple(shape), _strides(shape))
    m.lane_base = (np.arange(blocks * n, dtype=np.int64) // n) * one
    m.extent = one
    return m


def _strides(shape: tuple) -> tuple:
    from xgpu.runtime.memref import row_major_strides

    return row_major_strides(tuple(shape))


def _positions(m: Any, mref: Any, idx: tuple, sel: Any) -> Any:
    """The storage positions of an access by the lanes `sel` (None: all),
    after the bounds checks."""
    pos: Any = mref.offset
    for d, i in enumerate(idx):
        size = mref.sizes[d]
        if isinstance(i, np.ndarray):
            if sel is not None:
                i = i[sel]
            if i.size and (i.min() < 0 or i.max() >= size):
                raise NeedsReplay
        elif not 0 <= i < size:
            raise NeedsReplay
        pos = pos + i * mref.strides[d]
    base = getattr(mref, "lane_base", None)
    extent = mref.extent if base is not None else mref.storage.nbytes // mref.dtype.itemsize
    if isinstance(pos, np.ndarray):
        if pos.size and (pos.min() < 0 or pos.max() >= extent):
            raise NeedsReplay
    elif not 0 <= pos < extent:
        raise NeedsReplay
    if base is not None:
        pos = pos + (base if sel is None else base[sel])
    return pos


def _storage(mref: Any) -> tuple[Any, Any]:
    st = mref.storage
    if st.released:
        raise NeedsReplay
    data = st.buf if st.buf is not None else st.host
    if data is None:
        raise NeedsReplay
    init = st.init
    return data, (np.frombuffer(init, np.uint8) if init is not None else None)


def _ld(S: Batch, m: Any, op: Any, mref: Any, dt: np.dtype, *idx: Any) -> np.ndarray:
    data, init = _storage(mref)
    sel = None if m is None else np.flatnonzero(m)
    pos = _positions(m, mref, idx, sel)
    if init is not None:
        flags = init[pos]
        if not (flags.all() if isinstance(flags, np.ndarray) else flags):
            raise NeedsReplay
    if S.rec is not None:
        S.rec.access(S, mref.storage, pos, sel, False, op)
    if not isinstance(pos, np.ndarray):
        return np.full(S.L, data[pos], dt)
    values = data[pos]
    if sel is None:
        return values if values.dtype == dt else values.astype(dt)
    out = np.zeros(S.L, dt)
    out[sel] = values
    return out


def _st(S: Batch, m: Any, op: Any, mref: Any, value: Any, *idx: Any) -> None:
    data, init = _storage(mref)
    sel = None if m is None else np.flatnonzero(m)
    pos = _positions(m, mref, idx, sel)
    if S.rec is not None:
        S.rec.access(S, mref.storage, pos, sel, True, op)
    if isinstance(value, np.ndarray) and sel is not None:
        value = value[sel]
    if not isinstance(pos, np.ndarray):
        if isinstance(value, np.ndarray):
            # Every lane writes one element: the last lane's value stays.
            if value.size == 0:
                return
            value = value[-1]
        data[pos] = value
    else:
        data[pos] = value
    if init is not None:
        init[pos] = 1


def _bar(S: Batch, m: Any) -> None:
    """gpu.barrier: every lane of the batch must be here (all its blocks:
    the barrier epochs of a batch stay one count)."""
    if m is not None and not m.all():
        raise NeedsReplay
    if S.rec is not None:
        S.rec.barrier(S)
    S.epoch += 1


def _bc(x: Any, dt: np.dtype, n: int) -> np.ndarray:
    if isinstance(x, np.ndarray):
        return x if x.dtype == dt else x.astype(dt)
    return np.full(n, x, dt)


def _merge(c: Any, a: Any, b: Any, dt: np.dtype, n: int) -> np.ndarray:
    if a is None:
        a, b = b, a
        c = ~c
    if a is None:
        return np.zeros(n, dt)
    if b is None:
        return _bc(a, dt, n)
    out = np.where(c, a, b)
    return out if out.dtype == dt else out.astype(dt)


def _and(m: Any, c: Any) -> np.ndarray:
    c = np.asarray(c, dtype=bool)
    return c if m is None else m & c


def _andnot(m: Any, c: Any) -> np.ndarray:
    c = ~np.asarray(c, dtype=bool)
    return c if m is None else m & c


def _all(m: Any, n: int) -> np.ndarray:
    return np.ones(n, bool) if m is None else m


def _stepchk(m: np.ndarray, step: Any) -> None:
    if isinstance(step, np.ndarray):
        if np.any(step[m] <= 0):
            raise NeedsReplay
    elif step <= 0:
        raise NeedsReplay


def _assert(m: Any, c: np.ndarray) -> None:
    if not np.all(c if m is None else c[m]):
        raise NeedsReplay


HELPERS = {
    "_ld": _ld,
    "_st": _st,
    "_bar": _bar,
    "_bc": _bc,
    "_merge": _merge,
    "_and": _and,
    "_andnot": _andnot,
    "_all": _all,
    "_stepchk": _stepchk,
    "_assert": _assert,
}
