"""The storage positions of a memref view's elements, in row-major order
(what the race detector enters for a copy, a fill or a free)."""

from __future__ import annotations

import numpy as np

from xgpu.runtime.memref import MemRef


def view_positions_array(m: MemRef) -> np.ndarray:
    """`view_positions` as an int64 array."""
    if any(s == 0 for s in m.sizes):
        return np.zeros(0, np.int64)
    count = 1
    for size in m.sizes:
        count *= size
    if row_major(m) and _span(m) == count - 1:  # a run of consecutive elements
        return np.arange(m.offset, m.offset + count, dtype=np.int64)
    pos = np.array([m.offset], np.int64)
    for size, stride in zip(m.sizes, m.strides):
        pos = (pos[:, None] + np.arange(size, dtype=np.int64) * stride).ravel()
    return pos


def _span(m: MemRef) -> int:
    """The distance from the view's first element to its last."""
    return sum((size - 1) * stride for size, stride in zip(m.sizes, m.strides) if size > 0)


def row_major(m: MemRef) -> bool:
    """Whether the view's positions, in row-major order, increase (each
    dimension's stride past the span of the dimensions inside it)."""
    inner = 0
    for size, stride in reversed(list(zip(m.sizes, m.strides))):
        if size > 1:
            if stride <= inner:
                return False
            inner += (size - 1) * stride
    return True


def view_positions(m: MemRef) -> list[int]:
    """Storage positions of the elements of a view, in row-major order."""
    positions = [m.offset]
    for size, stride in zip(m.sizes, m.strides):
        positions = [p + i * stride for p in positions for i in range(size)]
    if any(s == 0 for s in m.sizes):
        return []
    return positions
