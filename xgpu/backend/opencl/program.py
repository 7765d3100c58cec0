"""What the emitter hands to a runtime: the source and each kernel's ABI."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.ir import Operation

from xgpu.diagnostics import Location, location_of, op_name

INT64 = np.dtype(np.int64)


@dataclass(frozen=True)
class Param:
    """One OpenCL kernel argument, in order.

    kind: "buffer" (the memref's cl.Buffer), "offset", "size", "stride" (int64
    values of the memref's descriptor; `dim` says which dimension), "extent"
    (int64: the element count of the memref's buffer, checked kernels only),
    "scalar" (the argument's value as `dtype`), "local" (a `__local` buffer:
    `local` says what and how big), "dsm_size" (int64: the launch's dynamic
    shared memory size in bytes), "record" (the run's error record, a
    cl.Buffer of `guards.RECORD_BYTES` bytes) and "launch" (int64: the launch
    id written to the record), the last two in checked kernels only. `arg` is
    the gpu.func argument it comes from (None for the others)."""

    kind: str
    name: str
    arg: int | None = None
    dim: int | None = None
    dtype: np.dtype | None = None
    local: LocalArg | None = None


@dataclass(frozen=True)
class ScalarArg:
    """A gpu.func argument of type index/integer/float: passed as `dtype`
    (index: int64, i1: uint8 holding 0 or 1)."""

    index: int
    name: str
    type: str
    dtype: np.dtype

    kind = "scalar"


@dataclass(frozen=True)
class MemRefArg:
    """A memref gpu.func argument: passed as buffer, element offset, every
    size and every stride (int64 values, in elements). `shape`/`strides` are
    the static values of the type (None where dynamic); `address_space` is the
    OpenCL one ("__global", or "__local" for a workgroup memref argument)."""

    index: int
    name: str
    type: str
    dtype: np.dtype
    shape: tuple[int | None, ...]
    strides: tuple[int | None, ...]
    address_space: str

    kind = "memref"

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True)
class LocalArg:
    """A `__local` buffer argument the kernel needs besides its gpu.func
    arguments. `kind`: "workgroup" (workgroup attribution number `index`),
    "dynamic_shared_memory" (the launch's dynamic shared memory size), or
    "scratch" (reductions and emulated subgroup ops)."""

    kind: str
    name: str
    index: int | None
    fixed_bytes: int = 0
    bytes_per_work_item: int = 0
    dtype: np.dtype | None = None

    def nbytes(self, block: Sequence[int], dynamic_shared_memory: int = 0) -> int:
        """Its size in bytes for a launch with block size `block` (x, y, z)."""
        if self.kind == "dynamic_shared_memory":
            return int(dynamic_shared_memory)
        items = 1
        for b in block:
            items *= int(b)
        return self.fixed_bytes + self.bytes_per_work_item * items


@dataclass
class KernelABI:
    """How to call one kernel.

    `name`: the gpu.func symbol; `cl_name`: the OpenCL kernel name.
    `args`: per gpu.func argument, a ScalarArg or MemRefArg.
    `locals`: extra `__local` buffers, after the arguments, in this order:
    workgroup attributions (in order), then dynamic shared memory (when the
    kernel uses gpu.dynamic_shared_memory), then the scratch buffer (when it
    has reductions or emulated subgroup ops).
    `params`: every OpenCL argument in order (see `Param`)."""

    name: str
    cl_name: str
    args: list[ScalarArg | MemRefArg] = field(default_factory=list)
    locals: list[LocalArg] = field(default_factory=list)
    params: list[Param] = field(default_factory=list)
    known_block_size: tuple[int, ...] | None = None
    known_grid_size: tuple[int, ...] | None = None
    #: bounds-checked accesses (`guards`): the kernel takes "extent",
    #: "record" and "launch" parameters
    checked: bool = False

    def scalar_arg_dtypes(self) -> list[np.dtype | None]:
        """For `pyopencl.Kernel.set_scalar_arg_dtypes`: None for buffers."""
        return [
            p.dtype if p.kind not in ("buffer", "local", "record") else None for p in self.params
        ]

    def pack_args(
        self,
        values: Sequence[Any],
        block: Sequence[int],
        dynamic_shared_memory: int = 0,
        record: Any = None,
        launch: int = 0,
    ) -> list[Any]:
        """The OpenCL arguments for `values` (one per gpu.func argument).

        A memref value is a tuple `(buffer, offset, sizes, strides)` (or an
        object with those attributes; `shape` works for `sizes`); a scalar is a
        Python or numpy number. Local buffers become `pyopencl.LocalMemory`.
        A checked kernel needs `record`, a zero-filled cl.Buffer of
        `guards.RECORD_BYTES` bytes (`launch`: the id it records); the extent
        of a memref is its buffer's size in elements."""
        import pyopencl as cl

        if len(values) != len(self.args):
            raise TypeError(f"{self.name}: expected {len(self.args)} arguments, got {len(values)}")
        out: list[Any] = []
        for p in self.params:
            if p.kind == "local":
                assert p.local is not None
                out.append(cl.LocalMemory(max(1, p.local.nbytes(block, dynamic_shared_memory))))
                continue
            if p.kind == "dsm_size":
                out.append(np.int64(dynamic_shared_memory))
                continue
            if p.kind == "record":
                if record is None:
                    raise TypeError(f"{self.name} is bounds-checked: pack_args needs a `record`")
                out.append(record)
                continue
            if p.kind == "launch":
                out.append(np.int64(launch))
                continue
            assert p.arg is not None
            v = values[p.arg]
            if p.kind == "scalar":
                out.append(np.array(v).astype(p.dtype)[()])
                continue
            buf, offset, sizes, strides = _memref_parts(v)
            if p.kind == "buffer":
                out.append(buf)
            elif p.kind == "offset":
                out.append(np.int64(offset))
            elif p.kind == "size":
                out.append(np.int64(sizes[p.dim]))
            elif p.kind == "extent":
                itemsize = self.args[p.arg].dtype.itemsize
                out.append(np.int64(buf.size // itemsize))
            else:
                out.append(np.int64(strides[p.dim]))
        return out


def _memref_parts(v: Any) -> tuple[Any, int, Sequence[int], Sequence[int]]:
    if isinstance(v, tuple | list):
        return v[0], v[1], v[2], v[3]
    sizes = getattr(v, "sizes", None)
    if sizes is None:
        sizes = v.shape
    return v.buffer, v.offset, sizes, v.strides


_LOG_LINE = re.compile(r"^(?:[^:\n]*):(\d+):(\d+): (error|warning): (.*)$", re.M)


@dataclass
class OpenCLProgram:
    """The OpenCL C of one gpu.module.

    `source`: the program text; `kernels`: KernelABI per gpu.func symbol;
    `build_options`: the options to build it with; `extensions`: the OpenCL
    extensions it enables; `checked`: whether accesses are bounds-checked,
    `sites` and `buffers` the guarded ops and memories the error record
    names (`guards`)."""

    module_name: str
    source: str
    kernels: dict[str, KernelABI]
    build_options: str
    extensions: frozenset[str]
    line_ops: list[Operation | None]
    checked: bool = False
    sites: list[Any] = field(default_factory=list)
    buffers: list[Any] = field(default_factory=list)

    def line_origin(self, line: int) -> Operation | None:
        """The op that generated `line` (1-based) of `source`, or None
        (for helpers, pragmas and punctuation)."""
        if 1 <= line <= len(self.line_ops):
            return self.line_ops[line - 1]
        return None

    def line_location(self, line: int) -> Location | None:
        """The source location of the op that generated `line`."""
        return location_of(self.line_origin(line))

    def explain_build_log(self, log: str) -> str:
        """The compiler's messages about the program, each followed by the
        generated line and the op it came from."""
        lines = self.source.splitlines()
        out = []
        for m in _LOG_LINE.finditer(log):
            line = int(m.group(1))
            text = lines[line - 1].strip() if 1 <= line <= len(lines) else ""
            out.append(f"generated line {line}: {m.group(3)}: {m.group(4)}")
            out.append(f"  {text}")
            op = self.line_origin(line)
            if op is not None:
                loc = location_of(op)
                where = f" at {loc}" if loc is not None else ""
                out.append(f"  from '{op_name(op)}'{where}")
        return "\n".join(out) if out else log
