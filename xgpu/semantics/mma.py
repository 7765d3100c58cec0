"""What the `gpu.subgroup_mma_*` ops compute, for every backend.

A `!gpu.mma_matrix<RxCxT, "Op">` value is one R x C matrix held by a whole
subgroup (MLIR leaves its distribution over the lanes opaque); here it is a
numpy array of shape (R, C) and dtype T (float16, float32, float64). The
simulator holds one per subgroup, the OpenCL backend one copy per lane
(`xgpu.backend.opencl.mma`), and both compute what this module says:

- `gpu.subgroup_mma_load_matrix %m[%i, %j] {leadDimension = L, transpose?}`:
  element (r, c) of the result is the element of `%m`'s memory at linear
  position `base + r * L + c`, where `base` is the position of `%m[%i, %j]`
  (offset + sum of index * stride, as for `memref.load`); with `transpose`
  it is the one at `base + c * L + r` (the memory read column-major, as
  MLIR's NVVM lowering loads a transposed operand with the `col` layout).
  `positions` gives them. `L` is a row pitch in elements of the buffer, not
  of the memref's shape: a window may run past the indexed row (e.g. C at
  `[0, 16]` of a 16x32 memref with L = 32), never past the memory.
- `gpu.subgroup_mma_store_matrix %d, %m[%i, %j] {leadDimension, transpose?}`:
  the inverse: element (r, c) of `%d` goes to the same position.
- `gpu.subgroup_mma_compute %a, %b, %c`: D = A x B + C (`compute`). The
  `a_transpose`/`b_transpose` attributes only record how A/B were loaded
  (MLIR's lowerings pick the matching fragment layout); the fragments are
  already the logical matrices, so they do not change the result. The
  `opSelect` attribute of the ROCm tests (which half of AMD's 32-bit
  accumulator registers holds an f16 result) is not an attribute of MLIR
  22's ops and does not change values either: xgpu ignores it.
- `gpu.subgroup_mma_constant_matrix %v`: every element %v.
- `gpu.subgroup_mma_elementwise OP %x, %y`: the matching arith op
  (`ELEMENTWISE`) applied element by element with `xgpu.semantics`.

Rounding of `compute` (products of f16 values are exact in f32: 11 + 11
significant bits <= 24):

- C of f32 (or f64): for k = 0, 1, ..., K - 1 in order,
  `d = round(d + round(a[i, k] * b[k, j]))` in the accumulator's type (the
  product rounded first: no fused multiply-add, so that C and numpy agree
  for f32 operands too).
- C of f16 (AMD's `v_wmma_f16_16x16x16_f16`): the products of each pair of
  k (k = 0 and 1, 2 and 3, ...) and their sum in f32, added to the
  accumulator in f32 and rounded to f16 once per pair (a last single k
  when K is odd). This reproduces every f16 result of MLIR's ROCm WMMA
  tests (e.g. 5100 where the exact sum is 5096, and 5172 for 5176);
  rounding to f16 after every k gets 13 of their 256 results wrong, and
  rounding once at the end 31.

Integer fragments (si8/ui8 into i32) are not supported (`SemanticsError`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Attribute

from xgpu.semantics.core import build
from xgpu.semantics.types import Scalar, SemanticsError, scalar

LOAD = "gpu.subgroup_mma_load_matrix"
STORE = "gpu.subgroup_mma_store_matrix"
COMPUTE = "gpu.subgroup_mma_compute"
CONSTANT = "gpu.subgroup_mma_constant_matrix"
ELEMENTWISE_OP = "gpu.subgroup_mma_elementwise"
EXTRACT = "gpu.subgroup_mma_extract_thread_local"
INSERT = "gpu.subgroup_mma_insert_thread_local"

#: the ops every lane of a subgroup must reach together
COLLECTIVE_OPS = frozenset([LOAD, STORE, COMPUTE, CONSTANT, ELEMENTWISE_OP])

#: `gpu.subgroup_mma_elementwise`'s opType -> the arith op it applies
ELEMENTWISE = {
    "addf": "arith.addf",
    "mulf": "arith.mulf",
    "subf": "arith.subf",
    "maxf": "arith.maximumf",
    "minf": "arith.minimumf",
    "divf": "arith.divf",
    "addi": "arith.addi",
    "muli": "arith.muli",
    "subi": "arith.subi",
    "divs": "arith.divsi",
    "divu": "arith.divui",
    "negatef": "arith.negf",
    "extf": "arith.extf",
}


#: the most elements of a matrix (a 64x64 one; hardware fragments are 16x16,
#: 32x8 or 8x32)
MAX_ELEMENTS = 4096


@dataclass(frozen=True)
class Fragment:
    """A `!gpu.mma_matrix` type as the backends see it."""

    rows: int
    cols: int
    elem: Scalar
    operand: str  # "AOp", "BOp" or "COp"

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def dtype(self) -> np.dtype:
        return self.elem.dtype


def fragment(t: Attribute) -> Fragment:
    """The `Fragment` of an MMA matrix type; `SemanticsError` when unsupported."""
    shape = t.get_shape()  # type: ignore[attr-defined]
    elem = scalar(t.get_element_type())  # type: ignore[attr-defined]
    if not elem.is_float:
        raise SemanticsError(f"integer MMA matrices ({t}) are not supported")
    if len(shape) != 2:
        raise SemanticsError(f"MMA matrices of rank {len(shape)} are not supported")
    if not 0 < shape[0] * shape[1] <= MAX_ELEMENTS:
        raise SemanticsError(
            f"MMA matrices of {shape[0]}x{shape[1]} elements are not supported "
            f"(from 1 to {MAX_ELEMENTS}: the OpenCL backend keeps one in each lane's private memory)"
        )
    return Fragment(shape[0], shape[1], elem, t.get_operand())  # type: ignore[attr-defined]


def positions(base: int, f: Fragment, lead: int, transpose: bool) -> np.ndarray:
    """The linear memory position of each element (r, c) of a loaded or
    stored fragment, an int64 array of shape (rows, cols)."""
    r = np.arange(f.rows, dtype=np.int64)[:, None]
    c = np.arange(f.cols, dtype=np.int64)[None, :]
    return base + (c * lead + r if transpose else r * lead + c)


def lead_dimension(op: Any) -> int:
    return op.lead_dimension.value.data


def is_transposed(op: Any) -> bool:
    return op.transpose is not None


def _kinds_check(a: Fragment, b: Fragment, c: Fragment) -> None:
    if a.elem.width > c.elem.width and c.elem.width != 16:
        raise SemanticsError(f"{a.elem} operands with a {c.elem} accumulator are not supported")


def check_compute(a: Fragment, b: Fragment, c: Fragment) -> None:
    """`SemanticsError` for element types `compute` does not define."""
    _kinds_check(a, b, c)
    if a.elem != b.elem:
        raise SemanticsError(f"A of {a.elem} and B of {b.elem} are not supported")


def compute(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """D = A x B + C with the rounding of the module doc (C's dtype)."""
    k_total = a.shape[1]
    if c.dtype == np.float16:
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        d = c.astype(np.float32)
        with np.errstate(all="ignore"):
            for k in range(0, k_total, 2):
                s = a32[:, k, None] * b32[None, k, :]
                if k + 1 < k_total:
                    s = s + a32[:, k + 1, None] * b32[None, k + 1, :]
                d = (d + s).astype(np.float16).astype(np.float32)
        return d.astype(np.float16)
    acc = c.dtype.type
    aa, bb = a.astype(acc), b.astype(acc)
    d = c.copy()
    with np.errstate(all="ignore"):
        for k in range(k_total):
            d = d + aa[:, k, None] * bb[None, k, :]
    return d


def elementwise_semantics(op_type: str, arg_types: Sequence[Scalar], result: Scalar):
    """The `OpSemantics` of one element of `gpu.subgroup_mma_elementwise`."""
    name = ELEMENTWISE.get(op_type)
    if name is None:
        raise SemanticsError(f"elementwise '{op_type}' is not supported")
    return build(name, list(arg_types), [result], {})


def elementwise(op_type: str, args: Sequence[np.ndarray], result: Fragment) -> np.ndarray:
    """`gpu.subgroup_mma_elementwise` on whole fragments (Python values)."""
    sem = elementwise_semantics(op_type, [scalar_of_dtype(a.dtype) for a in args], result.elem)
    flat = [a.reshape(-1).tolist() for a in args]
    out = [sem.py(*vals) for vals in zip(*flat)]
    return np.array(out, dtype=result.dtype).reshape(result.rows, result.cols)


def scalar_of_dtype(dtype: np.dtype) -> Scalar:
    return scalar({np.float16: "f16", np.float32: "f32", np.float64: "f64"}[dtype.type])


def constant(value: float, f: Fragment) -> np.ndarray:
    return np.full((f.rows, f.cols), value, dtype=f.dtype)


def memory_error(op_name: str, memory: Attribute, matrix: Attribute) -> str | None:
    """Why a load/store between memory of element type `memory` and a matrix
    type `matrix` is not supported (None: it is)."""
    if memory != matrix.get_element_type():  # type: ignore[attr-defined]
        return (
            f"'{op_name}' op between memory of {memory} and a matrix of "
            f"{matrix.get_element_type()} is not supported"  # type: ignore[attr-defined]
        )
    return None


def _verb(op_name: str) -> str:
    return "loads from" if op_name == LOAD else "stores to"


def indices_message(op_name: str, indices: Sequence[int], sizes: Sequence[int], d: int) -> str:
    return (
        f"{op_name} {_verb(op_name)} indices {list(indices)}, outside the memref's sizes "
        f"{list(sizes)} (dimension {d})"
    )


def window_message(op: Any, bad: int, extent: int, indices: Sequence[int]) -> str:
    """A window that leaves the memory: `bad`, the first position outside."""
    t = op.res.type if op.name == LOAD else op.src.type
    rows, cols = t.get_shape()
    transposed = ", transposed" if is_transposed(op) else ""
    return (
        f"{op.name} {_verb(op.name)} element {bad} of memory of {extent} elements (the "
        f"{rows}x{cols} window at indices {list(indices)} with leadDimension "
        f"{lead_dimension(op)}{transposed})"
    )
