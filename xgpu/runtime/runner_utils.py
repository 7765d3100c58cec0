"""MLIR's runner utilities (`mlir_runner_utils`, `mlir_c_runner_utils`) for xgpu-run.

A host program declares them as MLIR's runner programs do
(`func.func private @printMemrefF32(memref<*xf32>)`) and calls them with
`func.call`. The text printed is MLIR's, character for character:

- `printMemref*` prints `Unranked Memref base@ = 0x... rank = R offset = O
  sizes = [...] strides = [...] data = `, a newline, the elements in nested
  brackets (one row per line for rank > 1, with MLIR's indentation and its
  two spaces after the commas of the innermost dimension), and a newline.
  Elements are printed as a C++ ostream prints them: floats as `%g` (6
  significant digits: `1`, `1.5`, `1e+10`, `nan`, `-inf`), `printMemrefI8`
  elements as characters (ostream prints `int8_t` as a char), `printMemrefInd`
  as unsigned 64-bit integers;
- `printF32`/`printF64` (`%g`), `printI64`, `printU64`, `printNewline`,
  `printComma` (`, `), `printOpen` (`( `), `printClose` (` )`), `printString`
  and `printCString` (a memref of i8 holding the bytes, up to a NUL, or a
  Python str from the API).

The functions write to the runtime's output stream (`out`); nothing is
printed on its own line unless the program asks for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from xgpu.runtime.memref import MemRef, RuntimeFailure


def format_float(value: float) -> str:
    """`value` as C's `%g` prints it (glibc: `nan`/`-nan`, `inf`/`-inf`)."""
    if math.isnan(value):
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return format(value, "g")


def _format_int8(value: int) -> str:
    return chr(value & 0xFF)


def _format_uint64(value: int) -> str:
    return str(value & 0xFFFFFFFFFFFFFFFF)


_ELEMENT_FORMATS: dict[str, tuple[Callable[[Any], str], np.dtype]] = {
    "F32": (format_float, np.dtype(np.float32)),
    "F64": (format_float, np.dtype(np.float64)),
    "F16": (format_float, np.dtype(np.float16)),
    "I8": (_format_int8, np.dtype(np.int8)),
    "I16": (str, np.dtype(np.int16)),
    "I32": (str, np.dtype(np.int32)),
    "I64": (str, np.dtype(np.int64)),
    "Ind": (_format_uint64, np.dtype(np.int64)),
}


def _format_data(values: Any, dim: int, rank: int, fmt: Callable[[Any], str], out: list[str]):
    """MLIR's MemRefDataPrinter: `values` are nested lists `dim` deep."""
    if dim == 0:
        out.append(fmt(values))
        return
    n = len(values)
    out.append("[")
    if n == 0:
        out.append("]")
        return
    _format_data(values[0], dim - 1, rank, fmt, out)
    if n == 1:
        out.append("]")
        return
    sep = ", \n" if dim > 1 else ", "
    out.append(sep)
    pad = " " * (rank - dim + 1)
    for i in range(1, n - 1):
        out.append(pad)
        _format_data(values[i], dim - 1, rank, fmt, out)
        out.append(sep)
    out.append(pad)
    _format_data(values[n - 1], dim - 1, rank, fmt, out)
    out.append("]")


def metadata(m: MemRef) -> str:
    sizes = ", ".join(str(s) for s in m.sizes)
    strides = ", ".join(str(s) for s in m.strides)
    address = m.data_address()
    base = hex(address) if address else "0"
    return (
        f"base@ = {base} rank = {m.rank} offset = {m.offset} "
        f"sizes = [{sizes}] strides = [{strides}]"
    )


def format_memref(m: MemRef, kind: str) -> str:
    """The text `printMemref<kind>` prints for `m`, final newline included."""
    fmt, dtype = _ELEMENT_FORMATS[kind]
    if m.storage.host is None:
        raise RuntimeFailure(
            f"printMemref{kind} of device memory (copy it to the host first, or "
            "allocate it with gpu.alloc host_shared)"
        )
    if m.dtype != dtype:
        raise RuntimeFailure(f"printMemref{kind} of a memref of {m.dtype}")
    view = m.host_view()
    parts = [f"Unranked Memref {metadata(m)} data = \n"]
    if m.rank == 0:
        parts.append("[")
        parts.append(fmt(view.item()))
        parts.append("]")
    else:
        _format_data(view.tolist(), m.rank, m.rank, fmt, parts)
    parts.append("\n")
    return "".join(parts)


def _string_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.split(b"\0", 1)[0].decode("utf-8", errors="replace")
    if isinstance(value, MemRef):
        data = value.host_view().reshape(-1).astype(np.uint8).tobytes()
        return _string_of(data)
    raise RuntimeFailure(f"printString of a {type(value).__name__}")


class RunnerUtils:
    """The runner functions, bound to an output stream `out` (a text file)."""

    def __init__(self, out: TextIO):
        self.out = out

    def functions(self) -> dict[str, Callable[..., Any]]:
        w = self.out.write
        table: dict[str, Callable[..., Any]] = {}
        for kind in _ELEMENT_FORMATS:

            def print_memref(m: MemRef, kind: str = kind) -> None:
                w(format_memref(m, kind))

            def print_shape(m: MemRef) -> None:
                w(f"Unranked Memref {metadata(m)}\n")

            table[f"printMemref{kind}"] = print_memref
            table[f"printMemrefShape{kind}"] = print_shape
        table.update(
            printF32=lambda v: w(format_float(float(np.float32(v)))),
            printF64=lambda v: w(format_float(float(v))),
            printI64=lambda v: w(str(int(v))),
            printU64=lambda v: w(_format_uint64(int(v))),
            printNewline=lambda: w("\n"),
            printComma=lambda: w(", "),
            printOpen=lambda: w("( "),
            printClose=lambda: w(" )"),
            printString=lambda s: w(_string_of(s)),
            printCString=lambda s: w(_string_of(s)),
        )
        return table


#: names a program may declare and call without defining them
RUNNER_FUNCTIONS = frozenset(
    [f"printMemref{k}" for k in _ELEMENT_FORMATS]
    + [f"printMemrefShape{k}" for k in _ELEMENT_FORMATS]
    + "printF32 printF64 printI64 printU64 printNewline printComma printOpen printClose "
    "printString printCString".split()
)
