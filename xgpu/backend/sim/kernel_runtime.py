"""What the work-item engine's generated kernels use at run time (`kernel`):
the context parameters of every function (`CTX`), the small exceptions
its memory accesses raise (`workgroup` maps them to the op), the
unpacking of a memref's descriptor into locals and the zeroed memory of
workgroup and private buffers and allocas.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import SSAValue

from xgpu.runtime.memref import (
    MemRef,
    RuntimeFailure,
    Storage,
    zeros,
)

CTX = "_w, _tx, _ty, _tz, _bx, _by, _bz, _nx, _ny, _nz, _gx, _gy, _gz"


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


def _value_label(value: SSAValue) -> str:
    hint = value.name_hint
    return f"%{hint}" if hint else "a buffer"
