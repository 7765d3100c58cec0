"""The analysis of one host function, its foundation (`_AnalysisCore`): the
records of what it found, ids of events and objects, values, the recency
abstraction and the effects of ops on the state (completing, issuing,
checking for conflicts, freeing)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.ir import BlockArgument, Operation, SSAValue

from xgpu.analysis.async_hazards.state import _ALL, _bits, _move_bit, _State
from xgpu.analysis.buffer_effects import (
    ALLOC,
    FREE,
    READ,
    WRITE,
    WRITE_LIKE,
    KernelEffects,
    is_buffer,
    is_token,
)
from xgpu.dialects.gpu.host import AllocOp, DeallocOp

# ---------------------------------------------------------------------------
# The analysis of one function: its foundation
# ---------------------------------------------------------------------------


@dataclass
class _Hazard:
    mode: int
    others: dict[tuple[Operation, bool], int] = field(default_factory=dict)
    """(other op, is an earlier run of the op itself) -> how it accesses the buffer."""
    derived: dict[tuple[Operation, bool], bool] = field(default_factory=dict)
    """Whether, on every visit, an op ordered before this one already conflicts
    with the other op (this conflict is a consequence of that one)."""


@dataclass
class _WaitRecord:
    useless: set[int] | None = None
    """Dependency positions useless on every visit so far."""
    completers: dict[int, set[Operation]] = field(default_factory=dict)
    no_work: dict[int, bool] = field(default_factory=dict)


_Val = tuple[int | None, int | None, frozenset[int] | None]
"""What a value stands for: (must-complete, may-complete) for a token, the
objects for a buffer (None where not applicable)."""


class _AnalysisCore:
    def __init__(self, f: func.FuncOp, effects: KernelEffects):
        self.func = f
        self.effects = effects
        self.order: dict[Operation, int] = {op: i for i, op in enumerate(f.walk())}
        self.event_base: dict[object, int] = {}
        self.event_owner: list[Operation | BlockArgument] = []
        self.object_base: dict[object, int] = {}
        self.hazards: dict[tuple[Operation, SSAValue], _Hazard] = {}
        self.uaf: dict[tuple[Operation, SSAValue], tuple[int, set[Operation]]] = {}
        self.unawaited: dict[Operation, tuple[Operation, bool, bool]] = {}
        """op -> (the return, whether only earlier runs of it are unawaited,
        whether it is explained by a conflict on every visit)."""
        self.conflicting: dict[int, int] = {}
        """Event base -> the events (ids) of the async ops found to conflict with it."""
        self.alias_waits: set[Operation] = set()
        self.empty_waits: set[Operation] = set()
        self.waits: dict[Operation, _WaitRecord] = {}

    # ------------------------------------------------------- ids
    def _event(self, owner: Operation | BlockArgument) -> int:
        """The id of the most recent run of `owner` (its earlier runs: id + 1)."""
        base = self.event_base.get(owner)
        if base is None:
            base = self.event_base[owner] = len(self.event_owner)
            self.event_owner.append(owner)
        return 2 * base

    def _object(self, key: object) -> int:
        """The id of the most recent object of allocation site `key` (id + 1:
        the earlier ones)."""
        base = self.object_base.get(key)
        if base is None:
            base = self.object_base[key] = len(self.object_base)
        return 2 * base

    def _owner(self, event: int) -> Operation | BlockArgument:
        return self.event_owner[event >> 1]

    # ------------------------------------------------------- values
    def _val(self, s: _State, v: SSAValue) -> _Val:
        if is_token(v):
            c = s.tokens.get(v)
            return (0, _ALL, None) if c is None else (c, s.may.get(v, _ALL), None)
        p = s.points.get(v)
        if p is None and is_buffer(v):
            p = frozenset({self._object(v)})
        return (None, None, p)

    def _bind(self, s: _State, targets: Sequence[SSAValue], vals: Sequence[_Val | None]) -> None:
        for t, val in zip(targets, vals, strict=False):
            if val is None:
                if is_token(t):
                    s.tokens[t], s.may[t] = 0, _ALL
                elif is_buffer(t):
                    s.points[t] = frozenset({self._object(t)})
                continue
            c, m, p = val
            if c is not None:
                s.tokens[t] = c
                s.may[t] = _ALL if m is None else m
            if p is not None:
                s.points[t] = p

    def _objects(self, s: _State, v: SSAValue) -> frozenset[int]:
        p = s.points.get(v)
        if p is None:
            p = s.points[v] = frozenset({self._object(v)})
        return p

    # ------------------------------------------------------- recency
    def _rename_event(self, s: _State, recent: int) -> None:
        """`recent` runs again: its previous run joins the summary of earlier runs."""
        old = recent + 1
        rb, ob = 1 << recent, 1 << old
        both = rb | ob
        in_r, in_o = s.inflight & rb, s.inflight & ob
        in_new = bool(in_r or in_o)
        for t, c in s.tokens.items():
            if c & both:
                has = in_new and bool(c & ob or not in_o) and bool(c & rb or not in_r)
                s.tokens[t] = (c & ~both) | (ob if has else 0)
        for t, m in s.may.items():
            if m & both:
                s.may[t] = (m & ~both) | ob
        old_issued = s.issued & ob
        s.inflight = _move_bit(s.inflight, both, ob)
        s.owed = _move_bit(s.owed, both, ob)
        s.issued = _move_bit(s.issued, both, ob)
        for acc in (s.acc_r, s.acc_w):
            for k, x in acc.items():
                if x & both:
                    acc[k] = (x & ~both) | ob
        by_recent = s.done_by.pop(recent, None)
        by_old = s.done_by.pop(old, None)
        if by_recent is not None and (by_old is by_recent or not old_issued):
            s.done_by[old] = by_recent

    def _new_object(self, s: _State, site: Operation) -> int:
        """A fresh object for allocation site `site` (its previous one joins the summary)."""
        recent = self._object(site)
        old = recent + 1
        if s.live & (1 << recent):
            s.live = (s.live & ~(1 << recent)) | (1 << old)
            for v, p in s.points.items():
                if recent in p:
                    s.points[v] = (p - {recent}) | {old}
            for acc in (s.acc_r, s.acc_w):
                if recent in acc:
                    acc[old] = acc.get(old, 0) | acc.pop(recent)
            if recent in s.freed:
                s.freed[old] = s.freed.get(old, frozenset()) | s.freed.pop(recent)
        s.live |= 1 << recent
        s.freed.pop(recent, None)
        return recent

    # ------------------------------------------------------- effects on the state
    def _complete(self, s: _State, done: int, by: Operation) -> None:
        """The host waits until the events of `done` have completed."""
        finished = s.inflight & done
        if not finished:
            return
        s.inflight &= ~done
        s.owed &= ~done
        for e in _bits(finished):
            s.done_by[e] = by

    def _deps(self, s: _State, deps: Sequence[SSAValue]) -> tuple[int, int]:
        must = may = 0
        for d in deps:
            c, m, _ = self._val(s, d)
            must |= c or 0
            may |= _ALL if m is None else m
        return must, may

    def _issue(self, s: _State, owner: Operation) -> int:
        e = self._event(owner)
        if s.issued & (1 << e):
            self._rename_event(s, e)
        bit = 1 << e
        s.inflight |= bit
        s.owed |= bit
        s.issued |= bit
        return e

    def _check(
        self,
        s: _State,
        op: Operation,
        accesses: Sequence[tuple[SSAValue, int]],
        unordered: int,
        ordered: int | None = None,
    ) -> int:
        """Record the in-flight events of `unordered` that conflict with the
        accesses of `op`, and uses of freed buffers; return those events.
        `ordered`: for an async op, the events its dependencies complete."""
        found = 0
        mine = 0
        if ordered is not None:
            mine = 3 << self._event(op)
        for v, mode in accesses:
            objs = self._objects(s, v)
            bad = wbad = 0
            for obj in objs:
                w = s.acc_w.get(obj, 0) & unordered
                r = s.acc_r.get(obj, 0) & unordered if mode & WRITE_LIKE else 0
                bad |= w | r
                wbad |= w
            if bad:
                found |= bad
                hz = self.hazards.get((op, v))
                if hz is None:
                    hz = self.hazards[(op, v)] = _Hazard(mode)
                for e in _bits(bad):
                    owner = self._owner(e)
                    assert isinstance(owner, Operation)
                    if (wbad >> e) & 1:
                        om = (
                            ALLOC
                            if isinstance(owner, AllocOp)
                            else FREE
                            if isinstance(owner, DeallocOp)
                            else WRITE
                        )
                    else:
                        om = READ
                    key = (owner, owner is op)
                    hz.others[key] = hz.others.get(key, 0) | om
                    derived = ordered is not None and bool(
                        self.conflicting.get(e >> 1, 0) & ordered
                    )
                    hz.derived[key] = hz.derived.get(key, True) and derived
                    if mine:
                        self.conflicting[e >> 1] = self.conflicting.get(e >> 1, 0) | mine
            # A use after free: every buffer `v` may be was freed on some path.
            if all(obj in s.freed for obj in objs):
                for obj in objs:
                    for dealloc in s.freed[obj]:
                        base = self.event_base.get(dealloc)
                        if base is not None and (bad >> (2 * base)) & 3:
                            continue  # reported as a conflict with the in-flight dealloc
                        uaf = self.uaf.setdefault((op, v), (mode, set()))
                        uaf[1].add(dealloc)
        return found

    def _free(self, s: _State, op: Operation, accesses: Sequence[tuple[SSAValue, int]]) -> None:
        """Mark what a dealloc frees, when it is one buffer (a value that may be
        one of several buffers, or a summary of earlier allocations, marks nothing:
        uses after free are reported only where the freed buffer is known)."""
        for v, mode in accesses:
            if mode & FREE:
                objs = self._objects(s, v)
                if len(objs) == 1 and not (obj := next(iter(objs))) & 1:
                    s.freed[obj] = s.freed.get(obj, frozenset()) | {op}
