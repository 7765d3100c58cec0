"""Memref descriptors and the memref ops.

A memref value becomes a `Desc`: a C pointer to its element type in an address
space, an element offset, and per dimension a size and a stride. Each part is
an `int` when known statically (it folds into the code) or the name of a
`long` C variable. Element (i0, ..., in) of the memref is
`ptr[offset + i0 * stride0 + ... + in * striden]`.

A memref argument of a kernel or device function is passed as
`(T *ptr, long offset, long size_0, ..., long size_{r-1}, long stride_0, ...,
long stride_{r-1})`: the pointer is the start of the buffer (the memref's
aligned pointer), the offset the memref descriptor's offset. Every size and
stride is passed, also where the type makes it static; the body uses the
static value then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, NoneAttr
from xdsl.ir import Operation, SSAValue

from xgpu.backend.opencl.types import CONSTANT, LOCAL, PRIVATE, MemRefInfo
from xgpu.semantics import Scalar, paren

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter

Ix = int | str


def ix_text(v: Ix) -> str:
    """An index part as a C `long` expression."""
    if isinstance(v, int):
        text = str(v) if -(2**31) < v < 2**31 else f"{v}L"
        return f"({text})" if v < 0 else text
    return v


def ix_add(a: Ix, b: Ix) -> Ix:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if a == 0:
        return b
    if b == 0:
        return a
    return f"{ix_text(a)} + {paren(ix_text(b))}"


def ix_mul(a: Ix, b: Ix) -> Ix:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if a == 0 or b == 0:
        return 0
    if a == 1:
        return b
    if b == 1:
        return a
    return f"{paren(ix_text(a))} * {paren(ix_text(b))}"


@dataclass
class Desc:
    """A memref value in C (see the module docstring)."""

    ptr: str
    space: str
    elem: Scalar
    offset: Ix
    sizes: list[Ix | None]
    strides: list[Ix]
    # Where the pointer came from, for error messages and `const`-ness.
    origin: str = "argument"
    extra: dict = field(default_factory=dict)
    # Bounds checks (`guards`): the element count of the memory behind `ptr`
    # (None: unknown), the buffer id of the error record, and whether the
    # descriptor is the static shape of its own allocation (an index inside
    # the sizes is then inside the memory).
    extent: Ix | None = None
    buf: Ix = 0
    exact: bool = False

    def derived(self, **changes) -> Desc:
        """A descriptor of the same memory (extent and buffer id kept)."""
        return replace(self, exact=False, extra={}, **changes)

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def element(self, indices: Sequence[Ix]) -> str:
        """The C lvalue of the element at `indices`."""
        index: Ix = self.offset
        for i, s in zip(indices, self.strides):
            index = ix_add(index, ix_mul(i, s))
        return f"{self.ptr}[{ix_text(index)}]"

    def call_args(self) -> list[str]:
        """The C arguments that pass this memref to a device function."""
        sizes = [ix_text(s) if s is not None else "0" for s in self.sizes]
        return [self.ptr, ix_text(self.offset), *sizes, *(ix_text(s) for s in self.strides)]


def pointer_type(space: str, elem: Scalar) -> str:
    return f"{space} {elem.c}*"


def param_desc(names: Sequence[str], info: MemRefInfo) -> tuple[list[str], Desc]:
    """The C parameters of a memref argument (`names`: pointer, offset, sizes,
    strides), and the descriptor the body uses."""
    r = info.rank
    ptr, off = names[0], names[1]
    size_names, stride_names = names[2 : 2 + r], names[2 + r : 2 + 2 * r]
    params = [f"{pointer_type(info.space, info.elem)} {ptr}", f"long {off}"]
    params += [f"long {n}" for n in (*size_names, *stride_names)]
    sizes: list[Ix | None] = [s if s is not None else n for s, n in zip(info.shape, size_names)]
    strides: list[Ix] = [s if s is not None else n for s, n in zip(info.strides, stride_names)]
    return params, Desc(ptr, info.space, info.elem, off, sizes, strides)


# --------------------------------------------------------------------------- #
# Ops                                                                         #
# --------------------------------------------------------------------------- #


def _mixed(fe: FunctionEmitter, static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[Ix]:
    """Static values with DYNAMIC_INDEX entries taken, in order, from `dynamic`."""
    it = iter(dynamic)
    out: list[Ix] = []
    for s in static:
        if s == DYNAMIC_INDEX:
            out.append(fe.index_operand(next(it)))
        else:
            out.append(s)
    return out


def _static_list(attr) -> list[int]:
    return list(attr.get_values()) if attr is not None else []


def subview(fe: FunctionEmitter, op: Operation) -> Desc:
    src = fe.desc(op.source)
    offsets = _mixed(fe, _static_list(op.static_offsets), op.offsets)
    sizes = _mixed(fe, _static_list(op.static_sizes), op.sizes)
    steps = _mixed(fe, _static_list(op.static_strides), op.strides)
    info = fe.memref_info(op.result.type, op)
    offset = src.offset
    for o, s in zip(offsets, src.strides):
        offset = ix_add(offset, ix_mul(o, s))
    new_strides = [ix_mul(s, k) for s, k in zip(src.strides, steps)]
    keep = _kept_dims(sizes, info.rank)
    new_sizes = [sizes[d] for d in keep]
    new_strides = [new_strides[d] for d in keep]
    # The result type may know a size or stride the operands compute.
    new_sizes = [t if t is not None else s for t, s in zip(info.shape, new_sizes)]
    new_strides = [t if t is not None else s for t, s in zip(info.strides, new_strides)]
    if fe.checked:
        from xgpu.backend.opencl import guards

        guards.subview(fe, op, src, offsets, sizes, steps)
    return src.derived(
        offset=fe.materialize(offset, "off"),
        sizes=[fe.materialize(s, "size") for s in new_sizes],
        strides=[fe.materialize(s, "stride") for s in new_strides],
    )


def _kept_dims(sizes: Sequence[Ix], rank: int) -> list[int]:
    """The source dimensions a rank-reducing subview keeps: unit dimensions
    (static size 1) are dropped from the left until the rank matches. Which
    unit dimension goes does not change any address (its index is 0)."""
    drop = len(sizes) - rank
    keep = []
    for d, s in enumerate(sizes):
        if drop > 0 and s == 1:
            drop -= 1
            continue
        keep.append(d)
    return keep


def reinterpret_cast(fe: FunctionEmitter, op: Operation) -> Desc:
    src = fe.desc(op.source)
    offsets = _mixed(fe, _static_list(op.static_offsets), op.offsets)
    sizes = _mixed(fe, _static_list(op.static_sizes), op.sizes)
    strides = _mixed(fe, _static_list(op.static_strides), op.strides)
    new = src.derived(offset=offsets[0], sizes=list(sizes), strides=list(strides))
    if fe.checked:
        from xgpu.backend.opencl import guards

        guards.reinterpret(fe, op, src, new)
    return new


def cast(fe: FunctionEmitter, op: Operation) -> Desc:
    src = fe.desc(op.source)
    info = fe.memref_info(op.dest.type, op)
    sizes = [t if t is not None else s for t, s in zip(info.shape, src.sizes)]
    strides = [t if t is not None else s for t, s in zip(info.strides, src.strides)]
    offset = info.offset if info.offset is not None else src.offset
    if fe.checked:
        from xgpu.backend.opencl import guards

        identity = isinstance(op.dest.type.layout, NoneAttr)
        guards.cast(fe, op, src, info.shape, info.strides, info.offset, identity)
    return src.derived(offset=offset, sizes=sizes, strides=strides)


def view(fe: FunctionEmitter, op: Operation) -> Desc:
    """`memref.view %bytes[%shift][%sizes]`: a typed, contiguous view of an
    i8 buffer, `shift` bytes in."""
    src = fe.desc(op.source)
    info = fe.memref_info(op.result.type, op)
    shift = fe.index_operand(op.byte_shift)
    byte = ix_add(src.offset, shift)
    ptr = fe.fresh_name("ptr")
    ptype = pointer_type(src.space, info.elem)
    fe.declare_local(ptype, ptr, f"({ptype})({src.ptr} + {ix_text(byte)})", op)
    dyn = iter(op.sizes)
    sizes: list[Ix | None] = [
        s if s is not None else fe.index_operand(next(dyn)) for s in info.shape
    ]
    strides: list[Ix] = []
    running: Ix = 1
    for s in reversed(sizes):
        strides.append(running)
        running = fe.materialize(ix_mul(running, s if s is not None else 0), "stride")
    strides.reverse()
    new = src.derived(ptr=ptr, elem=info.elem, offset=0, sizes=sizes, strides=strides)
    if fe.checked:
        from xgpu.backend.opencl import guards

        new.extent = guards.view(fe, op, src, shift, info.elem.nbytes, sizes)
    return new


def alloca(fe: FunctionEmitter, op: Operation) -> Desc:
    t = op.memref.type
    info = fe.memref_info(t, op)
    if any(s is None for s in info.shape):
        fe.fail(op, "dynamic sizes are not supported: OpenCL C has no variable-length arrays")
    if info.space == LOCAL:
        fe.fail(op, "workgroup memory must be a gpu.func workgroup attribution")
    if not info.identity:
        fe.fail(op, "only identity layouts are supported")
    n = 1
    for s in info.shape:
        n *= s  # type: ignore[operator]
    name = fe.fresh_name("mem", op.memref.name_hint)
    if info.elem.is_float and info.elem.width == 16 and not fe.module.options.fp16:
        fe.fail(
            op,
            "f16 private memory needs cl_khr_fp16, which the target device lacks "
            "(f16 is emulated in float for loads, stores, arith and math only)",
        )
    fe.line(f"{info.elem.c} {name}[{max(n, 1)}];", op)
    desc = Desc(name, PRIVATE, info.elem, 0, list(info.shape), list(info.strides), "alloca")
    if fe.checked:
        from xgpu.backend.opencl import guards

        guards.static_memory(fe, desc, "private", value_label(op.memref), n)
    return desc


def get_global(fe: FunctionEmitter, op: Operation) -> Desc:
    symbol = op.name_.root_reference.data if hasattr(op, "name_") else None
    glob = fe.module.globals.get(symbol) if symbol else None
    if glob is None:
        fe.fail(op, f"unknown memref.global @{symbol}")
    c_name, info = glob
    desc = Desc(c_name, CONSTANT, info.elem, 0, list(info.shape), list(info.strides), "global")
    if fe.checked:
        from xgpu.backend.opencl import guards

        n = 1
        for s in info.shape:
            n *= s  # type: ignore[operator]
        guards.static_memory(fe, desc, "global", f"@{symbol}", n)
    return desc


def dim(fe: FunctionEmitter, op: Operation) -> str:
    src = fe.desc(op.source)
    k = fe.const_int(op.index)
    if k is None:
        fe.fail(op, "the dimension index must be a constant")
    if not 0 <= k < src.rank:
        fe.fail(op, f"dimension {k} out of range")
    size = src.sizes[k]
    if size is None:
        fe.fail(op, "the size of this memref is not known to the kernel")
    return ix_text(size)


def value_label(value: SSAValue) -> str:
    """How the simulator names the memory a value allocates: `%name`, or
    "a buffer"."""
    hint = value.name_hint
    return f"%{hint}" if hint else "a buffer"


def memref_type_rank(t) -> int:
    return len(t.get_shape()) if isinstance(t, MemRefType) else 0
