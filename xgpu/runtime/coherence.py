"""Registered and shared host memory on devices without unified host memory.

CUDA's `gpu.host_register` and `gpu.alloc host_shared` give memory that the
host and the device both use: device work sees what the host wrote before the
work started, and the host sees what the device wrote once it has waited for
that work. On a device with unified host memory (PoCL's CPU device, integrated
GPUs) xgpu-run gets this for free: the device buffer is the host memory
(`CL_MEM_USE_HOST_PTR`) and nothing is copied. A discrete GPU's OpenCL driver
(and Oclgrind) report no unified memory: there a `HostMirror` keeps a device
copy of the memory coherent with the host's, copying only what changed.

Each mirrored `Storage` has its host array `H` (what host code reads and
writes), its device buffer `D` (what kernels and copies use) and a twin `T`:
for every element, the value `D` held the last time the two sides agreed.
So `H != T` (bit for bit) are exactly the elements the host wrote since, and
device writes are tracked as `pending` entries: the view a device op may
write and the events of that op.

- Before device work uses the memory (a launch with it as an operand, a copy
  or fill from or to it), the elements the host changed are copied to `D`
  (one copy of the range from the first to the last changed element) and the
  work waits for that copy (`before`). Nothing is copied when the host wrote
  nothing (`host_written`: set by host stores, `memref.copy`, host-side
  copies). A pending device write that overlaps the range is merged first.
- After device work that may write the memory (kernel arguments the kernel
  body writes, per `xgpu.analysis.async_hazards.KernelEffects`; copy and fill
  destinations), its view and events are recorded (`after`).
- When the host touches the memory (loads, stores, `memref.copy`, runner
  utilities such as `printMemrefF32`, results returned to Python, the end of
  the run), every pending write whose events are complete is merged into `H`:
  the view is read back and each element the host did not change since takes
  the device's value (`host_access`). Reading the device's writes only once
  they are complete is what CUDA promises after a blocking `gpu.wait` or a
  synchronous op; before that, a host access races with the device work and
  may see either value.
- `gpu.host_unregister` waits for the device writes still pending, merges
  them and drops the device copy; `gpu.dealloc` of host_shared memory drops it.

Views (`memref.cast`, `subview`, ...) share the storage and so its mirror.
Element bits are compared, so NaNs and -0.0 are tracked exactly.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pyopencl as cl

from xgpu.runtime.memref import MemRef, RuntimeFailure, Storage
from xgpu.runtime.tokens import COLLAPSE_AT, union

_COMPLETE = cl.command_execution_status.COMPLETE
_mf = cl.mem_flags

#: pending entries kept per storage before complete ones are folded together
MAX_PENDING = 32


def _done(events: tuple) -> bool:
    return all(e.command_execution_status == _COMPLETE for e in events)


def _strided(array: np.ndarray, offset: int, m: MemRef) -> np.ndarray:
    """The elements of view `m` in `array` (a 1-D array of the storage's
    elements starting at element `offset`)."""
    item = array.itemsize
    return np.lib.stride_tricks.as_strided(
        array[m.offset - offset :],
        shape=m.sizes,
        strides=tuple(s * item for s in m.strides),
        writeable=True,
    )


def _bits(a: np.ndarray) -> np.ndarray:
    """`a` as unsigned integers of its item size (or bytes), for exact compares."""
    item = a.dtype.itemsize
    if item in (1, 2, 4, 8):
        return a.view(np.dtype(f"u{item}"))
    return a.view(np.uint8)


def _changed(h: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per element, whether `h` and `t` differ in any bit."""
    item = h.dtype.itemsize
    if item in (1, 2, 4, 8):
        return _bits(h) != _bits(t)
    hb = np.ascontiguousarray(h).view(np.uint8).reshape(h.shape + (item,))
    tb = np.ascontiguousarray(t).view(np.uint8).reshape(t.shape + (item,))
    return (hb != tb).any(axis=-1)


class HostMirror:
    """The device copy of one registered or shared allocation."""

    __slots__ = ("owner", "storage", "buf", "twin", "pending", "uploads", "host_written", "count")

    def __init__(self, owner: HostCoherence, storage: Storage, buf: cl.Buffer, count: int):
        #: the `HostCoherence` of the run
        self.owner = owner
        self.storage = storage
        self.buf = buf
        #: elements of the storage (the host array may hold one more for size 0)
        self.count = count
        self.twin = np.array(storage.host[:count], copy=True)
        #: (events, view) of device work that may have written the memory and
        #: whose writes the host has not merged yet, in issue order
        self.pending: list[tuple[tuple, MemRef]] = []
        #: copies to the device that later device work must wait for
        self.uploads: tuple = ()
        #: whether the host may have written the memory since the last upload
        self.host_written = False


class HostCoherence:
    """The mirrors of one run (see the module docstring); `gpu` is its
    `GpuRuntime` (queue and tracer)."""

    def __init__(self, gpu: Any):
        self.gpu = gpu
        self.queue = gpu.queue
        self.mirrors: dict[int, HostMirror] = {}
        #: what was copied, for tests and `--verbose`: [uploads, downloads]
        #: (the copy that fills a new device copy is not counted)
        self.copies = [0, 0]
        #: how many allocations got a device copy
        self.mirrors_made = 0

    # -- memory ------------------------------------------------------------ #

    def register(self, storage: Storage) -> None:
        """`gpu.host_register`: a device copy of the memory, filled from it."""
        host = storage.host
        count = storage.nbytes // host.itemsize if host.itemsize else 0
        buf = cl.Buffer(
            self.gpu.context,
            _mf.READ_WRITE | _mf.COPY_HOST_PTR,
            hostbuf=host[: max(count, 1)],
        )
        self._attach(storage, buf, count)

    def alloc_shared(self, storage: Storage) -> None:
        """`gpu.alloc host_shared`: `storage.host` (zeros) and a device copy."""
        self.register(storage)

    def _attach(self, storage: Storage, buf: cl.Buffer, count: int) -> None:
        mirror = HostMirror(self, storage, buf, count)
        self.mirrors_made += 1
        storage.buf = buf
        storage.mirror = mirror
        self.mirrors[id(storage)] = mirror

    def unregister(self, storage: Storage) -> None:
        """`gpu.host_unregister`: the device's pending writes are waited for and
        merged, then the device copy goes."""
        mirror = storage.mirror
        if mirror is None:
            return
        for events, _ in mirror.pending:
            self.gpu.tokens.wait(events, "gpu.host_unregister")
        self._merge(mirror, complete_only=False)
        self.release(storage)

    def release(self, storage: Storage) -> None:
        """Forget the mirror (host_unregister, gpu.dealloc of host_shared)."""
        mirror = storage.mirror
        if mirror is None:
            return
        self.mirrors.pop(id(storage), None)
        storage.mirror = None
        if storage.buf is not None:
            storage.buf.release()
            storage.buf = None
        mirror.pending.clear()
        mirror.uploads = ()

    # -- device side ------------------------------------------------------- #

    def before(self, deps: tuple, memrefs: tuple) -> tuple:
        """`deps` plus what device work on `memrefs` must wait for: the copies
        of what the host changed in mirrored memory."""
        extra: tuple = ()
        for m in memrefs:
            mirror = getattr(m.storage, "mirror", None) if isinstance(m, MemRef) else None
            if mirror is None:
                continue
            if mirror.host_written:
                self._upload(mirror)
            if mirror.uploads:
                mirror.uploads = tuple(
                    e for e in mirror.uploads if e.command_execution_status != _COMPLETE
                )
                extra += mirror.uploads
        if not extra:
            return deps
        return union(tuple(deps), extra)

    def after(self, events: tuple, memrefs: tuple) -> None:
        """Device work with `events` may have written the views `memrefs`."""
        for m in memrefs:
            mirror = getattr(m.storage, "mirror", None) if isinstance(m, MemRef) else None
            if mirror is None or m.num_elements == 0:
                continue
            mirror.pending.append((tuple(events), m))
            if len(mirror.pending) > MAX_PENDING:
                self._fold(mirror)

    def _upload(self, mirror: HostMirror) -> None:
        n = mirror.count
        host = mirror.storage.host[:n]
        changed = np.flatnonzero(_changed(host, mirror.twin))
        if changed.size == 0:
            mirror.host_written = False
            return
        lo, hi = int(changed[0]), int(changed[-1]) + 1
        if self.gpu.dctx.whole_writes:  # see `DeviceContext.whole_writes`
            lo, hi = 0, n
        overlapping = [p for p in mirror.pending if _overlaps(p[1], lo, hi)]
        if overlapping:
            # Device writes inside the range: merge them first, so that the
            # copy below carries the device's values where the host kept them.
            for events, _ in overlapping:
                self.gpu.tokens.wait(events, "host memory coherence")
            self._merge(mirror, complete_only=True)
        mirror.host_written = False
        snapshot = np.array(host[lo:hi], copy=True)
        item = host.itemsize
        t0 = time.perf_counter_ns()
        event = cl.enqueue_copy(
            self.queue,
            mirror.buf,
            snapshot,
            dst_offset=lo * item,
            wait_for=mirror.uploads or None,
            is_blocking=False,
        )
        self.gpu._record(event, "coherence H2D", "copy", t0, bytes=(hi - lo) * item)
        self.copies[0] += 1
        mirror.twin[lo:hi] = snapshot
        mirror.uploads = mirror.uploads + (event,)

    def _fold(self, mirror: HostMirror) -> None:
        """Too many pending entries: the complete ones become one entry over
        their whole span (merging more than was written is harmless: the twin
        says which elements the host changed); if none is complete, all of
        them become one entry waiting for all their events."""
        done = [p for p in mirror.pending if _done(p[0])]
        rest = [p for p in mirror.pending if not _done(p[0])]
        group, keep = (done, rest) if done else (rest, [])
        lo = min(p[1].span()[0] for p in group)
        hi = max(p[1].span()[1] for p in group)
        events = union(*(p[0] for p in group))
        if len(events) > COLLAPSE_AT:
            events = (cl.enqueue_marker(self.queue, wait_for=list(events)),)
        whole = MemRef(mirror.storage, mirror.storage.host.dtype, lo, (hi - lo,), (1,))
        mirror.pending = [*keep, (events, whole)]

    # -- host side --------------------------------------------------------- #

    def host_access(self, m: MemRef, write: bool) -> None:
        """The host is about to read (or write) view `m` of mirrored memory."""
        mirror = m.storage.mirror
        if mirror is None:
            return
        if mirror.pending:
            self._merge(mirror, complete_only=True)
        if write:
            mirror.host_written = True

    def finish(self) -> None:
        """The end of the run (all device work complete): merge every device
        write into host memory."""
        for mirror in list(self.mirrors.values()):
            self._merge(mirror, complete_only=False)

    def _merge(self, mirror: HostMirror, complete_only: bool) -> None:
        """Merge the pending writes (the complete ones, or all of them: the
        caller waited) into host memory: one copy of their view, or of the
        span that covers them all when there are several."""
        keep, ready = [], []
        for entry in mirror.pending:
            (keep if complete_only and not _done(entry[0]) else ready).append(entry)
        mirror.pending = keep
        if len(ready) == 1:
            self._download(mirror, ready[0][1])
        elif ready:
            lo = min(view.span()[0] for _, view in ready)
            hi = max(view.span()[1] for _, view in ready)
            dtype = mirror.storage.host.dtype
            self._download(mirror, MemRef(mirror.storage, dtype, lo, (hi - lo,), (1,)))

    def _download(self, mirror: HostMirror, view: MemRef) -> None:
        lo, hi = view.span()
        host = mirror.storage.host
        if hi <= lo:
            return
        if lo < 0 or hi > mirror.count:
            raise RuntimeFailure("a view of registered host memory lies outside its allocation")
        tmp = np.empty(hi - lo, dtype=host.dtype)
        t0 = time.perf_counter_ns()
        event = cl.enqueue_copy(
            self.queue, tmp, mirror.buf, src_offset=lo * host.itemsize, is_blocking=True
        )
        self.gpu._record(event, "coherence D2H", "copy", t0, bytes=tmp.nbytes)
        self.copies[1] += 1
        device = _strided(tmp, lo, view)
        h = _strided(host, 0, view)
        t = _strided(mirror.twin, 0, view)
        if mirror.host_written:
            h[...] = np.where(_changed(h, t), h, device)
        else:
            h[...] = device
        t[...] = device


def _overlaps(view: MemRef, lo: int, hi: int) -> bool:
    a, b = view.span()
    return a < hi and lo < b
