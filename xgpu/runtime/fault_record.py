"""The error record of bounds-checked OpenCL kernels, read by the host.

A run of checked kernels (`xgpu.backend.opencl.guards`) has one record: a
zero-filled buffer of `RECORD_BYTES` bytes that every launch gets, into
which the first failed check of the run writes what failed (the layout is in
`guards`). The host reads it at every blocking point (`watch.Watch.check`)
and reports the failure as the simulator reports the same failure:

    F:9:7: error: out-of-bounds access to %d[4] (sizes [4]) by work-item
    (4, 0, 0) of block (0, 0, 0) of @k::@f

at the op that failed (a `memref.load`, `memref.store`, `memref.subview`,
`memref.reinterpret_cast` or `memref.view` of the kernel), with the words of
`xgpu.backend.sim.workgroup` and `xgpu.runtime.memref`. The memory is named
as the simulator names it: a kernel argument by the allocation it views
(`%d` for `%d = gpu.alloc`), workgroup memory by its attribution and the
block, ... When several work-items fail, the one reported is the first to
claim the record (the simulator, which runs work-items in order, reports
the first in that order).

On a device with unified host memory the record is host memory the kernel
writes (`CL_MEM_USE_HOST_PTR`), read in place once the device work is
complete; elsewhere it is read back with a blocking copy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyopencl as cl

from xgpu.backend.opencl.guards import HEADER, RECORD_BYTES, RECORD_LONGS, BufferName
from xgpu.runtime.memref import (
    MemRef,
    OpFailure,
    cast_mismatch_message,
    negative_size_message,
    numpy_dtype,
    reinterpret_bounds_message,
    subview_bounds_message,
    view_bounds_message,
)


class FaultRecord:
    """The record of one run (see the module docstring)."""

    def __init__(self, context: cl.Context, queue: cl.CommandQueue, unified: bool):
        self.queue = queue
        self.host = np.zeros(RECORD_LONGS, dtype=np.int64)
        self.unified = unified
        mf = cl.mem_flags
        if unified:
            self.buffer = cl.Buffer(context, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=self.host)
        else:
            self.buffer = cl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=self.host)

    def claimed(self) -> bool:
        """Whether a kernel has recorded a failure (the record may still be
        being written while that kernel runs)."""
        if not self.unified:
            cl.enqueue_copy(self.queue, self.host[:1], self.buffer, is_blocking=True)
        return bool(self.host.view(np.int32)[0])

    def read(self) -> np.ndarray:
        """The record, once the kernel that wrote it is complete."""
        if not self.unified:
            cl.enqueue_copy(self.queue, self.host, self.buffer, is_blocking=True)
        return self.host.copy()


def failure(record: np.ndarray, launches: dict[int, Any]) -> OpFailure:
    """The error a record describes. `launches`: launch id -> (`LaunchSite`,
    operands) of the launches that may have written it."""
    site_id, launch_id, buf_id = (int(x) for x in record[1:4])
    local = [int(x) for x in record[4:7]]
    group = [int(x) for x in record[7:10]]
    count = int(record[10])
    values = [int(x) for x in record[HEADER : HEADER + count]]
    entry = launches.get(launch_id)
    if entry is None:  # pragma: no cover - launches stay listed until checked
        return OpFailure(None, "a kernel made an out-of-bounds access (its launch is unknown)")
    launch, operands = entry
    program = launch.program
    site = program.sites[site_id]
    from xgpu.backend.sim.workgroup import (
        element_text,
        failure_message,
        out_of_bounds_message,
        who_text,
    )

    who = who_text(local, group)
    if site.kind == "access":
        rank = count // 2
        label = _label(program.buffers[buf_id], operands, group)
        elem = element_text(label, values[:rank])
        return OpFailure(site.op, out_of_bounds_message(elem, values[rank:], who, launch.symbol))
    if site.kind == "subview":
        message = subview_bounds_message(*values[:5])
    elif site.kind == "reinterpret":
        if values[0] == 1:
            message = negative_size_message("memref.reinterpret_cast", values[1], values[2])
        else:
            message = reinterpret_bounds_message(*values[1:4])
    elif site.kind == "cast":
        what = ("size", "stride", "offset")[values[0]]
        d = values[1] if values[0] != 2 else None
        message = cast_mismatch_message(what, d, values[2], values[3])
    elif site.kind == "mma":
        from xgpu.semantics import mma as msem

        rank = (count - 3) // 2
        indices, sizes = values[3 : 3 + rank], values[3 + rank :]
        if values[0] == 0:
            message = msem.indices_message(site.op.name, indices, sizes, values[1])
        else:
            message = msem.window_message(site.op, values[1], values[2], indices)
    elif site.kind == "assert":
        from xgpu.backend.sim.asserts import message_of

        message = f"assertion failed: {message_of(site.op)}"
    else:  # view
        dtype = numpy_dtype(site.op.results[0].type.element_type)
        message = view_bounds_message(values[0], dtype, values[1], values[2])
    return OpFailure(site.op, failure_message(message, who, launch.symbol))


def _label(name: BufferName, operands: tuple, group: list[int]) -> str:
    """How the simulator names the memory (`%d{}`, `{}` where the indices go)."""
    from xgpu.backend.sim.workgroup import block_label

    if name.kind == "arg":
        value = operands[name.index] if name.index is not None else None
        if isinstance(value, MemRef) and value.storage.name:
            return value.storage.name + "{}" + value.storage.where
        return "memory{}"
    if name.kind in ("workgroup", "dsm"):
        return name.label + "{}" + block_label(name.kind, group)
    return name.label + "{}"


__all__ = ["RECORD_BYTES", "FaultRecord", "failure"]
