"""The lockstep engine's collectives: `gpu.all_reduce` and
`gpu.subgroup_reduce` over every group (block, subgroup or cluster) of a
batch at once.

The values of a batch's `L` lanes are laid out as a (groups, size) array
(each row one group's lanes in linear local-id order) and transposed, so
that each step of the reduction is one vector combine over every group:

- "fold" (`xgpu.semantics.gpu.fold_reduce`): acc = row 0, then
  acc = combine(acc, row j) for j = 1 .. size - 1 (float add and mul use
  `np.add.accumulate`/`np.multiply.accumulate`, which are this loop);
- "tree" (`tree_reduce`): while m > 1 rows remain, h = ceil(m / 2) and rows
  0 .. m - h - 1 become combine(row i, row i + h), then m = h.

`combine` is the combiner's vector form (`vector.vector_op` of
`xgpu.semantics.gpu.combiner`, or the region of an all_reduce compiled to
vector code), bit for bit the work-item engine's combiner on every lane.
Integer kinds give the same value in any order (they wrap), so they always
use the tree (ceil(log2 size) steps).

A collective must be reached by every lane of its group: under a mask with
an inactive lane it raises `NeedsReplay`, and the work-item engine reports
the divergence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xgpu.backend.sim.lockstep.vector import NeedsReplay


def _rows(comb: Any, order: str, fast: Any, x: np.ndarray) -> np.ndarray:
    """Reduce the rows of x (size, groups) in `order`: one row of results."""
    size, groups = x.shape
    if size == 1:
        return x[0].copy()
    if order == "fold":
        if fast is not None:
            return fast.accumulate(x, axis=0, dtype=x.dtype)[-1]
        acc = x[0]
        for j in range(1, size):
            acc = comb(None, groups, acc, x[j])
        return acc
    s = x.copy()
    m = size
    while m > 1:
        h = (m + 1) // 2
        k = m - h
        s[:k] = comb(None, k * groups, s[:k].reshape(-1), s[h:m].reshape(-1)).reshape(k, groups)
        m = h
    return s[0].copy()


def _allred(S: Any, m: Any, comb: Any, order: str, fast: Any, x: Any, dt: np.dtype) -> np.ndarray:
    """gpu.all_reduce over each block of the batch (`S.n` lanes each)."""
    if m is not None and not m.all():
        raise NeedsReplay
    L, n = S.L, S.n
    if isinstance(x, np.ndarray):
        x = x if x.dtype == dt else x.astype(dt)
    else:
        x = np.full(L, x, dt)
    r = _rows(comb, order, fast, np.ascontiguousarray(x.reshape(L // n, n).T))
    return np.repeat(r, n)


def _sgred(
    S: Any,
    m: Any,
    comb: Any,
    order: str,
    fast: Any,
    x: Any,
    dt: np.dtype,
    size: int | None,
    stride: int,
) -> np.ndarray:
    """gpu.subgroup_reduce over each subgroup of each block of the batch
    (`size`: the cluster size, None: the whole subgroup). Each subgroup is
    reached by all of its lanes or by none (the others compute values no
    lane uses)."""
    L, n = S.L, S.n
    if isinstance(x, np.ndarray):
        x = x if x.dtype == dt else x.astype(dt)
    else:
        x = np.full(L, x, dt)
    sg = int(S.sgn.max()) if L else 1  # the subgroup size (the last may be smaller)
    if size is None:
        size, stride = sg, 1
    if n % sg or sg % (size * stride):
        raise NeedsReplay  # partial subgroups or clusters: the work-item engine
    if m is not None:
        rows = m.reshape(L // sg, sg)
        if (rows.any(axis=1) != rows.all(axis=1)).any():
            raise NeedsReplay
    span = size * stride
    # (groups of span lanes, size, stride) -> rows k, columns (group, offset)
    y = x.reshape(L // span, size, stride).transpose(1, 0, 2).reshape(size, -1)
    r = _rows(comb, order, fast, np.ascontiguousarray(y))
    out = np.broadcast_to(r.reshape(L // span, 1, stride), (L // span, size, stride))
    return out.reshape(L).copy()


HELPERS = {"_allred": _allred, "_sgred": _sgred}
