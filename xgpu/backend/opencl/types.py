"""MLIR types as OpenCL C types.

Scalars come from `xgpu.semantics.scalar` (`index` -> `long`, `i1` -> `uchar`,
`i8` -> `char`, ..., `f32` -> `float`, `f64` -> `double`; `f16` -> `half`
where the device has cl_khr_fp16, else f16 values are floats and f16 memory
`half` through vload_half/vstore_half: `xgpu.backend.opencl.half`). A memref is a pointer to its element
type in an address space:

| memory space                                  | OpenCL C     |
| --------------------------------------------- | ------------ |
| none, `#gpu.address_space<global>`, 0, 1      | `__global`   |
| `#gpu.address_space<workgroup>`, 3            | `__local`    |
| `#gpu.address_space<private>`, 5              | `__private`  |
| a `memref.global` constant                    | `__constant` |
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute

from xgpu.backend.opencl.half import HALF_VALUE
from xgpu.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from xgpu.semantics import Scalar, SemanticsError, scalar

GLOBAL = "__global"
LOCAL = "__local"
PRIVATE = "__private"
CONSTANT = "__constant"


class UnsupportedType(Exception):
    """A type the backend cannot represent (the emitter reports an EmitError)."""


def c_scalar(t: Attribute, allow_fp16: bool = False, storage: bool = False) -> Scalar:
    """The `Scalar` of a value of type `t` (of a memory element: `storage`).
    Without cl_khr_fp16 (`allow_fp16` False) an f16 value is a float
    (`half.HALF_VALUE`) and f16 memory stays `half` (`xgpu.backend.opencl.half`)."""
    try:
        s = scalar(t)
    except SemanticsError as err:
        raise UnsupportedType(str(err)) from None
    if s.is_float and s.width == 16 and not allow_fp16 and not storage:
        return HALF_VALUE
    return s


def address_space(t: MemRefType) -> str:
    space = t.memory_space
    if isinstance(space, NoneAttr):
        return GLOBAL
    if isinstance(space, AddressSpaceAttr):
        return {
            AddressSpace.GLOBAL: GLOBAL,
            AddressSpace.WORKGROUP: LOCAL,
            AddressSpace.PRIVATE: PRIVATE,
        }[space.data]
    if isinstance(space, IntegerAttr):
        value = space.value.data
        if value in (0, 1):
            return GLOBAL
        if value == 3:
            return LOCAL
        if value == 5:
            return PRIVATE
    raise UnsupportedType(f"unsupported memory space {space} (use #gpu.address_space<...>)")


@dataclass(frozen=True)
class MemRefInfo:
    """What the emitter knows statically about a memref type (None: dynamic)."""

    elem: Scalar
    shape: tuple[int | None, ...]
    strides: tuple[int | None, ...]
    offset: int | None
    space: str

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def identity(self) -> bool:
        """Row-major contiguous with offset 0 (a static identity layout)."""
        return self.offset == 0 and self.strides == _row_major(self.shape)


def _row_major(shape: tuple[int | None, ...]) -> tuple[int | None, ...]:
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.append(running)
        running = None if running is None or size is None else running * size
    return tuple(reversed(strides))


def memref_info(t: Attribute, allow_fp16: bool = False) -> MemRefInfo:
    if not isinstance(t, MemRefType):
        raise UnsupportedType(f"expected a memref type, got {t}")
    elem = c_scalar(t.element_type, allow_fp16, storage=True)
    shape = tuple(None if d == DYNAMIC_INDEX or d < 0 else d for d in t.get_shape())
    layout = t.layout
    if isinstance(layout, NoneAttr):
        strides = _row_major(shape)
        offset: int | None = 0
    elif isinstance(layout, StridedLayoutAttr):
        strides = tuple(
            None if s is None or s == DYNAMIC_INDEX else s for s in layout.get_strides()
        )
        off = layout.get_offset()
        offset = None if off is None or off == DYNAMIC_INDEX else off
    else:
        got = t.get_strides()
        if got is None:
            raise UnsupportedType(f"unsupported memref layout {layout}: only strided layouts")
        strides = tuple(None if s is None or s == DYNAMIC_INDEX else s for s in got)
        offset = 0
    return MemRefInfo(elem, shape, strides, offset, address_space(t))
