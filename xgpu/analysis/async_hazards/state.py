"""The abstract state of the async-hazard analysis (`_State`), per program
point, and its joins; bitset helpers."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.ir import Operation, SSAValue

_ALL = -1
"""A bitset with every bit set (what an unknown token may complete)."""

MAX_ITERATIONS = 1000
"""Fixpoint iterations per loop at most (the lattice is finite; this is a guard)."""


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of a non-negative `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---------------------------------------------------------------------------
# The abstract state
# ---------------------------------------------------------------------------


class _State:
    __slots__ = (
        "inflight",
        "owed",
        "issued",
        "tokens",
        "may",
        "points",
        "acc_r",
        "acc_w",
        "freed",
        "done_by",
        "live",
    )

    def __init__(self) -> None:
        self.inflight = 0
        self.owed = 0
        self.issued = 0
        self.tokens: dict[SSAValue, int] = {}
        self.may: dict[SSAValue, int] = {}
        self.points: dict[SSAValue, frozenset[int]] = {}
        self.acc_r: dict[int, int] = {}
        self.acc_w: dict[int, int] = {}
        self.freed: dict[int, frozenset[Operation]] = {}
        """Objects that may have been freed -> the deallocs that may have freed them."""
        self.done_by: dict[int, Operation] = {}
        self.live = 0
        """Objects (allocation-site ids) created on some path."""

    def copy(self) -> _State:
        s = _State.__new__(_State)
        s.inflight = self.inflight
        s.owed = self.owed
        s.issued = self.issued
        s.tokens = dict(self.tokens)
        s.may = dict(self.may)
        s.points = dict(self.points)
        s.acc_r = dict(self.acc_r)
        s.acc_w = dict(self.acc_w)
        s.freed = dict(self.freed)
        s.done_by = dict(self.done_by)
        s.live = self.live
        return s

    def normalize(self) -> _State:
        f = self.inflight
        self.tokens = {t: c & f for t, c in self.tokens.items()}
        return self

    def same(self, other: _State) -> bool:
        return (
            self.inflight == other.inflight
            and self.owed == other.owed
            and self.issued == other.issued
            and self.live == other.live
            and self.tokens == other.tokens
            and self.may == other.may
            and self.points == other.points
            and self.acc_r == other.acc_r
            and self.acc_w == other.acc_w
            and self.freed == other.freed
            and self.done_by == other.done_by
        )


def _join(a: _State, b: _State) -> _State:
    """What holds on a path through `a` or through `b` (normalized)."""
    s = _State()
    s.inflight = a.inflight | b.inflight
    s.owed = a.owed | b.owed
    s.issued = a.issued | b.issued
    s.live = a.live | b.live
    nfa, nfb, f = ~a.inflight, ~b.inflight, s.inflight
    bt = b.tokens
    s.tokens = {
        t: (ca | nfa) & (cb | nfb) & f
        for t, ca in a.tokens.items()
        if (cb := bt.get(t)) is not None
    }
    bm = b.may
    s.may = {t: ma | mb for t, ma in a.may.items() if (mb := bm.get(t)) is not None}
    bp = b.points
    s.points = {v: pa | pb for v, pa in a.points.items() if (pb := bp.get(v)) is not None}
    s.acc_r = _union_maps(a.acc_r, b.acc_r)
    s.acc_w = _union_maps(a.acc_w, b.acc_w)
    s.freed = dict(a.freed)
    for k, ops in b.freed.items():
        s.freed[k] = s.freed.get(k, frozenset()) | ops
    bd = b.done_by
    s.done_by = {e: op for e, op in a.done_by.items() if bd.get(e) is op}
    return s


def _union_maps(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) | v
    return out


def _join_all(states: Sequence[_State]) -> _State | None:
    if not states:
        return None
    out = states[0]
    for s in states[1:]:
        out = _join(out, s)
    return out


def _move_bit(x: int, both: int, old: int) -> int:
    """`x` with its recent/old pair of bits (`both`) merged into the old bit."""
    return (x & ~both) | old if x & both else x
