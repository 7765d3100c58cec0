"""gpu: reductions and subgroup data exchange, lane by lane.

Where the OpenCL backend emulates an op through `__local` memory, the C code
follows exactly the algorithm written here, so a simulator that calls these
functions gets the same results, floats included (the combining order is the
same).

- `combiner(kind, type)`: the binary `OpSemantics` of a `#gpu<all_reduce_op>`
  (`add` is `arith.addi` or `arith.addf` by type, `minnumf` is `arith.minnumf`,
  `and` is `arith.andi`, ...); `identity(kind, type)` its neutral element.
- The two reduction orders of `gpu.all_reduce` and of an unclustered
  `gpu.subgroup_reduce` (`REDUCTIONS`, chosen per device by the OpenCL backend,
  see `xgpu.backend.opencl.reductions`; MLIR leaves the order undefined):
  - `fold_reduce(values, combine)` ("fold"): a left fold in lane order,
    combine(...combine(combine(v0, v1), v2)..., v_{n-1});
  - `tree_reduce(values, combine)` ("tree"): halving steps: while m > 1
    values remain, h = ceil(m / 2) and s[i] = combine(s[i], s[i + h]) for
    every i < m - h, then m = h (for n = 4: (v0 + v2) + (v1 + v3); for n = 5:
    ((v0 + v3) + v2) + (v1 + v4)). ceil(log2 n) steps.
  Integer ops and min/max give the same result in both orders; float add and
  mul round differently (both orders are exact on small integers).
- `cluster_reduce(values, combine, size, stride, order)`: `gpu.subgroup_reduce`
  with `cluster(size, stride)`: lane i's cluster is the `size` lanes
  base + k * stride (base: the first lane of i's group of size * stride lanes,
  plus i % stride) that exist, reduced in `order` ("fold" or "tree") over k.
- `shuffle(values, offset, width, mode)`: per lane (value, valid): the source
  lane is lane ^ offset (xor), lane - offset (up), lane + offset (down) or
  offset (idx); it is valid when 0 <= src < width and src < len(values); an
  invalid lane gets its own value (MLIR leaves it undefined).
- `rotate(values, offset, width)`: src = (lane + offset) % width, valid for
  lanes < width (others get their own value, invalid).
- `broadcast(values, lane)`: every lane gets values[lane] (`first_active_lane`
  is lane 0 when every lane is active).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Attribute

from xgpu.semantics.core import OpSemantics, build
from xgpu.semantics.types import Scalar, SemanticsError, scalar

REDUCTION_KINDS = (
    "add",
    "mul",
    "minui",
    "minsi",
    "minnumf",
    "maxui",
    "maxsi",
    "maxnumf",
    "and",
    "or",
    "xor",
    "minimumf",
    "maximumf",
)

_INT_OP = {
    "add": "arith.addi",
    "mul": "arith.muli",
    "minui": "arith.minui",
    "minsi": "arith.minsi",
    "maxui": "arith.maxui",
    "maxsi": "arith.maxsi",
    "and": "arith.andi",
    "or": "arith.ori",
    "xor": "arith.xori",
}
_FLOAT_OP = {
    "add": "arith.addf",
    "mul": "arith.mulf",
    "minnumf": "arith.minnumf",
    "maxnumf": "arith.maxnumf",
    "minimumf": "arith.minimumf",
    "maximumf": "arith.maximumf",
}


def combiner(kind: str, t: Attribute | Scalar | str) -> OpSemantics:
    """The binary op a reduction of `kind` applies to values of type `t`."""
    s = scalar(t)
    table = _FLOAT_OP if s.is_float else _INT_OP
    if kind not in table:
        raise SemanticsError(f"`{kind}` reduction operation is not compatible with type '{s}'")
    return build(table[kind], [s, s], [s])


def identity(kind: str, t: Attribute | Scalar | str) -> int | float:
    """The neutral element of a reduction of `kind` on `t`."""
    s = scalar(t)
    combiner(kind, s)  # validates
    inf = float("inf")
    values: dict[str, Any] = {
        "add": 0,
        "mul": 1,
        "minui": s.mask,
        "maxui": 0,
        "minsi": s.max,
        "maxsi": s.min,
        "and": s.mask,
        "or": 0,
        "xor": 0,
        "minnumf": inf,
        "maxnumf": -inf,
        "minimumf": inf,
        "maximumf": -inf,
    }
    return s.norm(values[kind])


Combine = Callable[[Any, Any], Any]


def fold_reduce(values: Sequence[Any], combine: Combine) -> Any:
    """Reduce in the backend's order: a left fold in lane order."""
    it = iter(values)
    try:
        acc = next(it)
    except StopIteration:
        raise ValueError("fold_reduce of no values") from None
    for v in it:
        acc = combine(acc, v)
    return acc


def tree_reduce(values: Sequence[Any], combine: Combine) -> Any:
    """Reduce by halving steps (the "tree" order of the module docstring)."""
    s = list(values)
    if not s:
        raise ValueError("tree_reduce of no values")
    m = len(s)
    while m > 1:
        h = (m + 1) // 2
        for i in range(m - h):
            s[i] = combine(s[i], s[i + h])
        m = h
    return s[0]


REDUCTIONS: dict[str, Callable[[Sequence[Any], Combine], Any]] = {
    "fold": fold_reduce,
    "tree": tree_reduce,
}


def cluster_lanes(lane: int, n: int, size: int, stride: int) -> list[int]:
    """The lanes of `lane`'s cluster (those < n), in order."""
    span = size * stride
    base = (lane // span) * span + lane % stride
    return [base + k * stride for k in range(size) if base + k * stride < n]


def cluster_reduce(
    values: Sequence[Any], combine: Combine, size: int, stride: int = 1, order: str = "fold"
) -> list:
    """Per lane, the reduction of its cluster's values in `order`."""
    reduce = REDUCTIONS[order]
    return [
        reduce([values[j] for j in cluster_lanes(lane, len(values), size, stride)], combine)
        for lane in range(len(values))
    ]


def shuffle_source(lane: int, offset: int, mode: str) -> int:
    if mode == "xor":
        return lane ^ offset
    if mode == "up":
        return lane - offset
    if mode == "down":
        return lane + offset
    if mode == "idx":
        return offset
    raise SemanticsError(f"unknown shuffle mode {mode!r}")


def shuffle(
    values: Sequence[Any], offset: int | Sequence[int], width: int, mode: str
) -> list[tuple[Any, int]]:
    """`gpu.shuffle` over one subgroup; `offset` may differ per lane."""
    n = len(values)
    out = []
    for lane in range(n):
        off = offset if isinstance(offset, int) else offset[lane]
        src = shuffle_source(lane, off, mode)
        valid = 0 <= src < width and src < n
        out.append((values[src], 1) if valid else (values[lane], 0))
    return out


def rotate(values: Sequence[Any], offset: int, width: int) -> list[tuple[Any, int]]:
    """`gpu.rotate` over one subgroup."""
    n = len(values)
    out = []
    for lane in range(n):
        src = (lane + offset) % width
        valid = lane < width and src < n
        out.append((values[src], 1) if valid else (values[lane], 0))
    return out


def broadcast(values: Sequence[Any], lane: int = 0) -> list[Any]:
    """`gpu.subgroup_broadcast` (specific_lane `lane`, or first_active_lane: 0)."""
    return [values[lane]] * len(values)
