"""Memref descriptors of the host runtime.

A memref value of a running host function is a `MemRef`: a view (element
`offset`, `sizes`, `strides`, all in elements, as MLIR's strided descriptor)
over a `Storage`, the allocation. A `Storage` has

- `host`: a 1-D numpy array of the elements when the memory is reachable from
  the host (`memref.alloc`, a numpy array passed in, `gpu.alloc host_shared`);
- `buf`: the `cl.Buffer` the device uses, when there is one: device memory of
  `gpu.alloc`; for `gpu.alloc host_shared` and after `gpu.host_register`, the
  host array itself (`CL_MEM_USE_HOST_PTR`) on devices with unified host
  memory, else a device copy kept coherent with it (`mirror`, see
  `xgpu.runtime.coherence`).

Views made by `memref.cast`, `memref.subview`, `memref.reinterpret_cast`, ...
share the storage, so registering one view registers the memory of all.
Descriptors are immutable; an unranked memref is the same descriptor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute

from xgpu.diagnostics import symbol_text

DYNAMIC = -9223372036854775808  # MLIR's ShapedType::kDynamic


#: how to make host memory usable by kernels and copies (the end of the
#: error both runtimes give for a launch operand that is plain host memory)
HOST_MEMORY_FIX = (
    "gpu.host_register it, or copy it to gpu.alloc memory; an argument of the entry "
    "function can be registered for the run: xgpu-run --register-host-memory, "
    "xgpu.run(..., register_host_memory=True)"
)


#: the attribute xgpu-run puts on a kernel it outlined from a `gpu.launch`:
#: how messages name it (`kernel_name`)
OUTLINED_FROM = "xgpu.outlined_from"


def kernel_name(module_op: Any, func_op: Any) -> str:
    """How messages name a kernel: `@module::@func`, or for one xgpu-run
    outlined, the `gpu.launch` it came from (a name the user did not write
    is never shown)."""
    from xdsl.dialects.builtin import StringAttr

    from xgpu.diagnostics import symbol_text

    origin = func_op.attributes.get(OUTLINED_FROM)
    if isinstance(origin, StringAttr):
        return origin.data
    return f"{symbol_text(module_op.sym_name.data)}::{symbol_text(func_op.sym_name.data)}"


class RuntimeFailure(Exception):
    """An error of the running program (reported at the op being run)."""


class OpFailure(RuntimeFailure):
    """An error of the running program at a known op (an op of a simulated
    kernel, or an async GPU op that failed after the host issued it), with
    notes `(op, text)`."""

    def __init__(self, op: Any, message: str, notes: list | None = None):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes: list = list(notes or [])


# How bad views are worded, by the host, the simulator and the OpenCL
# runtime's bounds checks alike.


def subview_bounds_message(d: int, size_d: int, offset: int, size: int, stride: int) -> str:
    return (
        f"memref.subview out of bounds: dimension {d} of size {size_d}, "
        f"offset {offset}, size {size}, stride {stride}"
    )


def reinterpret_bounds_message(lo: int, hi: int, n: int) -> str:
    return f"memref.reinterpret_cast outside its buffer: elements [{lo}, {hi}) of {n}"


def negative_size_message(what: str, d: int, size: int) -> str:
    return f"{what} with a negative size {size} in dimension {d}"


def view_bounds_message(n: int, dtype: Any, shift: int, size: int) -> str:
    return (
        f"memref.view of {n} x {np.dtype(dtype)} at byte {shift} outside (or misaligned in) "
        f"its {size}-byte buffer"
    )


def checked_view(
    m: MemRef, offset: int, sizes: tuple[int, ...], strides: tuple[int, ...], what: str
) -> MemRef:
    """A view of `m`'s storage (`memref.reinterpret_cast`), which must stay
    inside the storage (an error otherwise)."""
    for d, s in enumerate(sizes):
        if s < 0:
            raise RuntimeFailure(negative_size_message(what, d, s))
    view = m.view(offset, tuple(sizes), tuple(strides))
    lo, hi = view.span()
    n = m.storage.nbytes // m.dtype.itemsize
    if hi > lo and (lo < 0 or hi > n):
        raise RuntimeFailure(reinterpret_bounds_message(lo, hi, n))
    return view


def allocation_label(op: Any) -> str | None:
    """How reports name the memory `op` (a `gpu.alloc`) allocates: `%name`,
    or `the buffer of gpu.alloc`."""
    if op is None or not op.results:
        return None
    hint = op.results[0].name_hint
    return f"%{hint}" if hint else f"the buffer of {op.name}"


def cast_mismatch_message(what: str, d: int | None, actual: int, expected: int) -> str:
    where = f" in dimension {d}" if d is not None else ""
    return f"memref.cast of a memref of {what} {actual}{where} to {what} {expected}"


def checked_cast(
    m: MemRef,
    shape: tuple[int | None, ...],
    strides: tuple[int | None, ...] | str | None,
    offset: int | None,
) -> MemRef:
    """`memref.cast` to a type whose static sizes, strides and offset (None
    where dynamic; strides "row-major" for the identity layout) must be the
    memref's (MLIR: undefined behavior otherwise; the compiled kernels would
    trust the type)."""
    if strides == "row-major":
        strides = row_major_strides(tuple(m.sizes))
    for d, (s, actual) in enumerate(zip(shape, m.sizes)):
        if s is not None and s != actual:
            raise RuntimeFailure(cast_mismatch_message("size", d, actual, s))
    if strides is not None:
        for d, (s, actual, n) in enumerate(zip(strides, m.strides, m.sizes)):  # type: ignore[arg-type]
            if s is not None and s != actual and n > 1:
                raise RuntimeFailure(cast_mismatch_message("stride", d, actual, s))
    if offset is not None and offset != m.offset and m.num_elements > 0:
        raise RuntimeFailure(cast_mismatch_message("offset", None, m.offset, offset))
    return m


def copy_overlap_message(what: str) -> str:
    return f"{what} between overlapping views of the same memory (undefined behavior)"


def overlapping(a: MemRef, b: MemRef) -> bool:
    """Whether two views share an element."""
    if a.storage is not b.storage or a.num_elements == 0 or b.num_elements == 0:
        return False
    lo_a, hi_a = a.span()
    lo_b, hi_b = b.span()
    if hi_a <= lo_b or hi_b <= lo_a:
        return False
    if a.is_contiguous() and b.is_contiguous():
        return True
    # Strided views with interleaved spans: compare the element positions.
    return bool(np.intersect1d(_positions(a), _positions(b), assume_unique=False).size)


def _positions(m: MemRef) -> np.ndarray:
    pos = np.array([m.offset], dtype=np.int64)
    for size, stride in zip(m.sizes, m.strides):
        pos = np.add.outer(pos, np.arange(size, dtype=np.int64) * stride).reshape(-1)
    return pos


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """The numpy type of one element of `element_type` in memory: the dtype of
    its `xgpu.semantics` scalar (i1 is a byte holding 0 or 1, index is int64)."""
    from xgpu.semantics import SemanticsError, scalar

    try:
        return scalar(element_type).dtype
    except SemanticsError as err:
        raise RuntimeFailure(f"memrefs of {element_type}: {err}") from None


def row_major_strides(sizes: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    running = 1
    for size in reversed(sizes):
        strides.append(running)
        running *= size
    return tuple(reversed(strides))


def static_layout(memref_type: MemRefType) -> tuple[int | None, tuple[int | None, ...] | None]:
    """(offset, strides) of a memref type, None where dynamic; (0, row-major) for
    the identity layout; (None, None) for a layout that is not strided."""
    shape = tuple(memref_type.get_shape())
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        if any(s == DYNAMIC or s < 0 for s in shape[1:]):
            # Row-major strides of a dynamic shape are only known at run time.
            return 0, None
        return 0, row_major_strides(shape)
    if isinstance(layout, StridedLayoutAttr):
        offset = layout.get_offset()
        strides = layout.get_strides()
        return (
            None if offset is None else int(offset),
            tuple(None if s is None else int(s) for s in strides),
        )
    try:
        offset = memref_type.get_offset()
        strides = memref_type.get_strides()
    except Exception:
        return None, None
    if strides is None:
        return None, None
    return offset, tuple(strides)


class Storage:
    """One allocation: host elements and/or a device buffer (see module doc)."""

    __slots__ = (
        "host",
        "buf",
        "nbytes",
        "kind",
        "released",
        "init",
        "shadow",
        "name",
        "shape",
        "where",
        "freed_by",
        "host_proxy",
        "mirror",
        "__weakref__",
    )

    def __init__(self, host: np.ndarray | None, buf: Any, nbytes: int, kind: str):
        self.host = host
        self.buf = buf
        self.nbytes = nbytes
        #: "host" (memref.alloc, numpy argument), "device" (gpu.alloc),
        #: "shared" (gpu.alloc host_shared), "global" (memref.global),
        #: "workgroup"/"private" (the simulator's kernel memory)
        self.kind = kind
        self.released = False
        #: simulator only: per element, whether it was ever written (a
        #: bytearray; None: every element counts as written)
        self.init: bytearray | None = None
        #: simulator only: the race detector's record of accesses (or None)
        self.shadow: Any = None
        #: how reports name the allocation (`%dA`), and its shape then
        self.name: str | None = None
        self.shape: tuple[int, ...] | None = None
        #: for memory of one block or work-item: which (" of block (0, 0, 0)")
        self.where = ""
        #: the op that freed it (the simulator's use-after-free reports)
        self.freed_by: Any = None
        #: what host loads and stores go through instead of `host` (the
        #: simulator's checked shared memory), or None
        self.host_proxy: Any = None
        #: on devices without unified host memory, the device copy of
        #: registered or shared host memory (`xgpu.runtime.coherence`), or None
        self.mirror: Any = None


class _DeviceOnly:
    """Stands for the host array of device memory: any host access is an error."""

    __slots__ = ()

    def _fail(self, *args: Any) -> Any:
        raise RuntimeFailure(
            "host access to device memory (allocated by gpu.alloc without host_shared)"
        )

    __getitem__ = __setitem__ = item = itemset = _fail


DEVICE_ONLY = _DeviceOnly()


class MemRef:
    """A strided view over a `Storage` (see the module docstring)."""

    __slots__ = ("host", "storage", "dtype", "offset", "sizes", "strides")

    def __init__(
        self,
        storage: Storage,
        dtype: np.dtype,
        offset: int,
        sizes: tuple[int, ...],
        strides: tuple[int, ...],
    ):
        self.storage = storage
        #: the storage's host array, or DEVICE_ONLY (kept here for fast loads/stores)
        if storage.host_proxy is not None:
            self.host = storage.host_proxy
        else:
            self.host = storage.host if storage.host is not None else DEVICE_ONLY
        self.dtype = dtype
        self.offset = offset
        self.sizes = sizes
        self.strides = strides

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def num_elements(self) -> int:
        n = 1
        for s in self.sizes:
            n *= s
        return n

    def view(self, offset: int, sizes: tuple[int, ...], strides: tuple[int, ...]) -> MemRef:
        return MemRef(self.storage, self.dtype, offset, sizes, strides)

    def is_contiguous(self) -> bool:
        """True when the view's elements are one row-major run of the storage."""
        expected = 1
        for size, stride in zip(reversed(self.sizes), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True

    def span(self) -> tuple[int, int]:
        """(first, last + 1) element positions the view touches (empty: (o, o))."""
        if self.num_elements == 0:
            return self.offset, self.offset
        lo = hi = self.offset
        for size, stride in zip(self.sizes, self.strides):
            if stride >= 0:
                hi += (size - 1) * stride
            else:
                lo += (size - 1) * stride
        return lo, hi + 1

    def host_view(self) -> np.ndarray:
        """A numpy view of the elements (host memory only)."""
        host = self.storage.host
        if host is None:
            raise RuntimeFailure(
                "host access to device memory (allocated by gpu.alloc without host_shared)"
            )
        item = host.itemsize
        if self.num_elements == 0:
            return np.empty(self.sizes, dtype=self.dtype)
        return np.lib.stride_tricks.as_strided(
            host[self.offset :],
            shape=self.sizes,
            strides=tuple(s * item for s in self.strides),
            writeable=True,
        )

    def data_address(self) -> int:
        """The allocation's base address, as MLIR prints it (`base@ = 0x...`)."""
        host = self.storage.host
        if host is not None:
            return host.ctypes.data
        return 0

    def __repr__(self) -> str:
        return (
            f"MemRef<{self.dtype}, {self.storage.kind}, offset={self.offset}, "
            f"sizes={list(self.sizes)}, strides={list(self.strides)}>"
        )


def zeros(n: int, dtype: np.dtype, what: str) -> np.ndarray:
    """`max(n, 1)` zeroed elements of host memory (an error at the op when
    the host has not that much)."""
    try:
        return np.zeros(max(n, 1), dtype=dtype)
    except (MemoryError, ValueError):
        raise RuntimeFailure(
            f"{what} of {n * np.dtype(dtype).itemsize} bytes: out of host memory"
        ) from None


def host_alloc(dtype: np.dtype, sizes: tuple[int, ...], kind: str = "host") -> MemRef:
    """A new zero-filled row-major host memref."""
    for s in sizes:
        if s < 0:
            raise RuntimeFailure(f"negative memref size {s}")
    n = 1
    for s in sizes:
        n *= s
    host = zeros(n, dtype, "memref.alloc")
    storage = Storage(host, None, n * dtype.itemsize, kind)
    return MemRef(storage, dtype, 0, tuple(sizes), row_major_strides(tuple(sizes)))


def from_numpy(array: np.ndarray) -> MemRef:
    """A memref over a numpy array's memory (no copy). Non-contiguous arrays are
    described by their strides when these are multiples of the item size."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected a numpy array, got {type(array).__name__}")
    item = array.itemsize
    if array.size == 0 or array.flags.c_contiguous:
        flat = array.reshape(-1) if array.size else np.zeros(1, dtype=array.dtype)
        storage = Storage(flat, None, array.nbytes, "host")
        return MemRef(storage, array.dtype, 0, array.shape, row_major_strides(array.shape))
    if any(s % item for s in array.strides):
        raise TypeError("numpy array strides must be multiples of its item size")
    strides = tuple(s // item for s in array.strides)
    # The lowest address the view touches is its base; the offset is the distance
    # from there to element [0, ..., 0].
    low = sum((n - 1) * s for n, s in zip(array.shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(array.shape, strides) if s > 0)
    base = (
        np.lib.stride_tricks.as_strided(
            array, shape=(high - low + 1,), strides=(item,), writeable=True
        )
        if low == 0
        else None
    )
    if base is None:
        raise TypeError("numpy arrays with negative strides are not supported")
    storage = Storage(base, None, (high - low + 1) * item, "host")
    return MemRef(storage, array.dtype, 0, array.shape, strides)


def memref_type_of(value_type: Attribute) -> MemRefType | UnrankedMemRefType | None:
    if isinstance(value_type, MemRefType | UnrankedMemRefType):
        return value_type
    return None


def find_kernel(module: Any, ref: Any) -> tuple[Any, Any]:
    """The gpu.module and gpu.func a `gpu.launch_func` names (`RuntimeFailure`
    when there is none)."""
    from xgpu.dialects.gpu.func import GPUFuncOp
    from xgpu.dialects.gpu.module import GPUModuleOp

    mod_name = ref.root_reference.data
    func_name = ref.nested_references.data[0].data if ref.nested_references.data else None
    for op in module.body.block.ops:
        if isinstance(op, GPUModuleOp) and op.sym_name.data == mod_name:
            for inner in op.body.block.ops:
                if isinstance(inner, GPUFuncOp) and inner.sym_name.data == func_name:
                    return op, inner
            break
    raise RuntimeFailure(f"no kernel {symbol_text(mod_name)}::{symbol_text(func_name)}")


def global_memref(op: Any) -> MemRef:
    """The host memory of a `memref.global` (its initial value, or zeros)."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    from xgpu.ir.splats import splat_value

    mtype = op.type
    dtype = numpy_dtype(mtype.element_type)
    shape = tuple(mtype.get_shape())
    init = op.initial_value
    data = np.zeros(shape, dtype=dtype)
    if isinstance(init, DenseIntOrFPElementsAttr):
        # A splat fills the array without a list of its elements.
        splat = splat_value(init) if data.size != 1 else None
        if splat is not None:
            data[...] = splat
        else:
            data[...] = np.array(init.get_values(), dtype=dtype).reshape(shape)
    m = from_numpy(data)
    m.storage.kind = "global"
    m.storage.name = symbol_text(op.sym_name.data)
    m.storage.shape = shape
    return m
