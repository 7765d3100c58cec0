"""A run's values at its boundary: the entry function's arguments
(`convert_arg`: numpy arrays, scalars, tokens, checked against the types)
and results in device memory (`read_device`, OpenCL)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, NoneAttr, UnrankedMemRefType
from xdsl.ir import Operation

from xgpu.runtime.memref import (
    MemRef,
    Storage,
    from_numpy,
    numpy_dtype,
    row_major_strides,
    static_layout,
)


def read_device(gpu: Any, m: MemRef) -> np.ndarray:
    import pyopencl as cl

    lo, hi = m.span()
    tmp = np.empty(max(hi - lo, 1), dtype=m.dtype)
    if hi > lo:
        cl.enqueue_copy(gpu.queue, tmp, m.storage.buf, src_offset=lo * m.dtype.itemsize)
    view = MemRef(
        Storage(tmp, None, tmp.nbytes, "host"), m.dtype, m.offset - lo, m.sizes, m.strides
    )
    return np.array(view.host_view())


def convert_arg(value: Any, arg_type: Any, func: Operation, i: int, sources) -> Any:
    """The run's value of argument `i` of `func` (a `RunError` at `func` when
    it does not fit its type)."""
    from xgpu.runtime.api import _error

    if isinstance(arg_type, MemRefType | UnrankedMemRefType):
        if isinstance(value, MemRef):
            return value
        if not isinstance(value, np.ndarray):
            raise _error(func, f"argument {i} must be a numpy array (for {arg_type})", sources)
        dtype = numpy_dtype(arg_type.element_type)
        if value.dtype != dtype and not (dtype == np.uint8 and value.dtype == np.bool_):
            raise _error(
                func,
                f"argument {i}: array of {value.dtype}, expected {dtype} for {arg_type}",
                sources,
            )
        if isinstance(arg_type, MemRefType):
            shape = arg_type.get_shape()
            if len(shape) != value.ndim or any(
                s >= 0 and s != n for s, n in zip(shape, value.shape)
            ):
                raise _error(
                    func, f"argument {i}: array of shape {value.shape} for {arg_type}", sources
                )
        try:
            m = from_numpy(value)
        except TypeError as err:
            raise _error(func, f"argument {i}: {err}", sources) from None
        if isinstance(arg_type, MemRefType) and value.size > 1:
            # The compiled code uses the static offset and strides of the type:
            # the array must have them (a strided view for an identity layout
            # would be read and written as if contiguous).
            offset, strides = static_layout(arg_type)
            if strides is None and isinstance(arg_type.layout, NoneAttr):
                strides = row_major_strides(tuple(m.sizes))
            if (offset is not None and offset != m.offset) or (
                strides is not None
                and any(
                    s is not None and n > 1 and s != actual
                    for s, n, actual in zip(strides, m.sizes, m.strides)
                )
            ):
                raise _error(
                    func,
                    f"argument {i}: array of strides {tuple(m.strides)} (in elements) "
                    f"for {arg_type} (np.ascontiguousarray makes a contiguous copy)",
                    sources,
                )
        return m
    from xgpu.dialects.gpu.types import AsyncTokenType
    from xgpu.semantics import SemanticsError, scalar

    if isinstance(arg_type, AsyncTokenType):
        # A token: None (no work), an event, or events (a token another run returned).
        if value is None:
            return ()
        return tuple(value) if isinstance(value, tuple | list) else (value,)
    try:
        return scalar(arg_type).norm(value)
    except SemanticsError:
        raise _error(func, f"argument {i} of type {arg_type} is not supported", sources) from None
    except (TypeError, ValueError):
        raise _error(func, f"argument {i}: {value!r} is not a {arg_type}", sources) from None
