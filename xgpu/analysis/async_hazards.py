"""Async-token hazards in host code: the analysis behind `gpu-check-async`.

`find_hazards(module)` analyzes every host function (`func.func` outside
`gpu.module`) and returns `Finding`s; `xgpu.analysis.check_async` turns them
into diagnostics. Nothing here prints or changes the IR.

Semantics (MLIR's GPU_AsyncOpInterface): an async gpu op starts after the work
of its dependency tokens has completed and may run concurrently with anything
else; `gpu.wait async [deps]` is an alias of the union of its dependencies; a
blocking `gpu.wait [deps]` and a synchronous gpu op (no token) make the host
wait for their dependencies and everything those depend on (a synchronous op
also for itself; it does not wait for other work). Host ops run in program
order.

What is reported (`FindingKind`):

1. HOST_ACCESS: a host op (memref.load/store, a call or unknown op taking the
   buffer, a synchronous gpu op, `return` of the buffer) touches a buffer that
   an async op which may still be in flight writes (or writes one it reads);
2. CONFLICT: an async gpu op conflicts with an in-flight async op (write/write
   or read/write on the same buffer) and no token orders them;
3. DEALLOC: `gpu.dealloc` (or `gpu.host_unregister`) of a buffer that an op not
   ordered before it uses, or an op using a buffer while an async dealloc of it
   may run; USE_AFTER_FREE: a use of a buffer after a dealloc of it;
4. UNAWAITED: async work in flight when the function returns, unless a token
   covering it is returned (or handed to a call);
5. remarks: ALIAS_WAIT (a single-token `gpu.wait async`), USELESS_WAIT (a
   blocking `gpu.wait` on tokens whose work has already completed on every
   path, or that stand for no work), EMPTY_WAIT (a blocking `gpu.wait` without
   dependencies).

Memory: buffers are abstract objects. Every function argument is its own
object (arguments are assumed not to alias each other), every allocation site
(`gpu.alloc`, `memref.alloc`, a call returning a memref, ...) gives objects,
`memref.get_global` one object per symbol; `memref.cast`, `subview`, `view`,
`reinterpret_cast`, ... (any side-effect-free op returning a memref from memref
operands) alias their operands. Host-shared, host-registered and device memory
are not told apart: any buffer a kernel can reach may be the memory a host op
reaches. Kernel effects come from the `gpu.func` body (`KernelEffects`): which
arguments it loads from and stores to, following views; an argument passed to a
call, a region op or an unknown op counts as read and written, and so does
every memref argument of a kernel whose body is not available.

The abstract state (`_State`), per program point, over all paths reaching it:

- events: every async op (and every token argument of the function, and every
  op returning a token the analysis cannot follow: its work may read and write
  every buffer the op takes) is an event; an op that runs
  several times (in a loop) has two events, its most recent run and a summary
  of its earlier runs (recency abstraction), so the state space is finite;
- `inflight`: events that may be in flight; `owed`: those the function must
  still await (not token arguments, not handed to a call);
- `tokens[t]`: events certainly complete once token `t` is (must; only the bits
  of in-flight events matter), `may[t]`: events that may complete with `t`;
- `points[v]`: objects a buffer value may refer to; `acc_r`/`acc_w`: per object,
  the events that read / write it; `freed`: objects that may have been freed.

A dealloc marks a buffer freed only when the value it frees is one known
buffer (not a summary of earlier allocations, not one of several): uses after
free are reported where the freed buffer is known, never on a guess.

Reporting policy (in `findings`): for each op and buffer operand, one other op
is named (the nearest one before it). A conflict is left out when an op
ordered before this one already conflicts with the same other op (it is a
consequence: the fix of the first one fixes it), and so is unawaited work that
the token of an op found to conflict would cover. The raw results
(`_FunctionAnalysis.hazards`, `.uaf`, `.unawaited`) keep everything.

Joins (after `scf.if`, at loop heads, at blocks with several predecessors) take
the union of what may be in flight and keep in `tokens[t]` an event only when
every path either completes it with `t` or has it not in flight; loops
(`scf.for` with any bounds, `scf.while`, `cf` back edges) iterate to a fixpoint:
a body may run zero or more times. Warnings found on any visit hold in the
fixpoint (they grow with the state); remarks must hold on every visit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.traits import get_effects

from xgpu.analysis.buffer_effects import (  # noqa: F401  (re-exported: the access modes)
    ALLOC,
    FREE,
    READ,
    RW,
    UNREGISTER,
    WRITE,
    WRITE_LIKE,
    KernelEffects,
    is_buffer,
    is_token,
)
from xgpu.analysis.buffer_effects import is_terminator as _is_terminator
from xgpu.diagnostics import op_name
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import AllocOp, DeallocOp, WaitOp
from xgpu.dialects.gpu.launch import LaunchOp

_ALL = -1
"""A bitset with every bit set (what an unknown token may complete)."""

MAX_ITERATIONS = 1000
"""Fixpoint iterations per loop at most (the lattice is finite; this is a guard)."""


def _is_gpu_op(op: Operation) -> bool:
    return op.name.startswith("gpu.") and not isinstance(op, UnregisteredOp)


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of a non-negative `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------


class FindingKind(Enum):
    HOST_ACCESS = "host-access"
    CONFLICT = "conflict"
    DEALLOC = "dealloc"
    USE_AFTER_FREE = "use-after-free"
    UNAWAITED = "unawaited"
    ALIAS_WAIT = "alias-wait"
    USELESS_WAIT = "useless-wait"
    EMPTY_WAIT = "empty-wait"

    @property
    def is_remark(self) -> bool:
        return self in (FindingKind.ALIAS_WAIT, FindingKind.USELESS_WAIT, FindingKind.EMPTY_WAIT)


@dataclass
class Finding:
    """One hazard (or useless synchronization), reported at `op`."""

    kind: FindingKind
    op: Operation
    other: Operation | None = None
    """The other op involved: the in-flight op, the dealloc, the `return`, the
    op that completed the work of a useless wait."""
    value: SSAValue | None = None
    """The buffer as `op` names it (HOST_ACCESS, CONFLICT, DEALLOC,
    USE_AFTER_FREE); the aliased token (ALIAS_WAIT)."""
    mode: int = 0
    """How `op` accesses `value` (READ, WRITE, FREE, ...)."""
    other_mode: int = 0
    """How `other` accesses it."""
    same_op: bool = False
    """`other` is an earlier run of `op` itself (a previous loop iteration)."""
    completed: tuple[SSAValue, ...] = ()
    """USELESS_WAIT: the dependencies whose work has already completed."""
    no_work: tuple[SSAValue, ...] = ()
    """USELESS_WAIT: the dependencies among `completed` that stand for no work."""
    partial: bool = False
    """USELESS_WAIT: other dependencies of the wait still do something."""
    earlier_runs: bool = False
    """UNAWAITED: only earlier runs of `op` (in a loop) are not awaited."""

    @property
    def severity(self) -> str:
        return "remark" if self.kind.is_remark else "warning"

    @property
    def other_token(self) -> SSAValue | None:
        """The token to wait for (or depend on) to order `other` before `op`."""
        other = self.other
        if other is None:
            return None
        if isinstance(other, AsyncOpInterface):
            return other.async_token  # type: ignore[attr-defined]
        return next((r for r in other.results if is_token(r)), None)


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


# ---------------------------------------------------------------------------
# The analysis of one function
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


class _FunctionAnalysis:
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

    # ------------------------------------------------------- running
    def run(self) -> None:
        f = self.func
        if not f.body.blocks:
            return
        s = _State()
        args: list[_Val | None] = []
        for a in f.body.blocks[0].args:
            if is_token(a):
                e = self._event(a)
                bit = 1 << e
                s.inflight |= bit
                s.issued |= bit
                args.append((bit, bit, None))
            else:
                args.append(None)
        self.run_region(f.body, s, args)

    def run_region(
        self, region: Region, s: _State, incoming: Sequence[_Val | None]
    ) -> list[tuple[_State, Operation | None]]:
        """Run `region` from state `s` with its entry arguments bound to
        `incoming`; return the state at each exit (a terminator without
        successors, or the end of a block without terminator)."""
        if not region.blocks:
            return [(s.copy(), None)]
        entry = region.blocks[0]
        start = s.copy()
        self._bind(start, entry.args, incoming)
        if len(region.blocks) == 1:
            out, term = self.run_block(start, entry)
            return [(out, term)]
        index = {b: i for i, b in enumerate(region.blocks)}
        ins: dict[Block, _State] = {entry: start}
        pending = {0}
        exits: dict[Operation | Block, tuple[_State, Operation | None]] = {}
        visits = 0
        while pending:
            visits += 1
            if visits > MAX_ITERATIONS * len(index):
                break
            i = min(pending)
            pending.discard(i)
            block = region.blocks[i]
            out, term = self.run_block(ins[block].copy(), block)
            succs = successors(term) if term is not None else []
            if not succs:
                exits[term if term is not None else block] = (out, term)
                continue
            for succ, operands in succs:
                st = out.copy()
                if operands is None:
                    self._bind(st, succ.args, [None] * len(succ.args))
                else:
                    self._bind(st, succ.args, [self._val(out, v) for v in operands])
                prev = ins.get(succ)
                new = st.normalize() if prev is None else _join(prev, st)
                if prev is None or not new.same(prev):
                    ins[succ] = new
                    pending.add(index[succ])
        return list(exits.values())

    def run_block(self, s: _State, block: Block) -> tuple[_State, Operation | None]:
        last = block.last_op
        for op in block.ops:
            if op is last and (_is_terminator(op) or op.successors):
                if op.name == "func.return":
                    self.on_return(s, op)
                return s, op
            s = self.run_op(s, op)
        return s, None

    def run_op(self, s: _State, op: Operation) -> _State:
        if isinstance(op, WaitOp):
            self.on_wait(s, op)
        elif isinstance(op, AsyncOpInterface):
            self.on_async_op(s, op)
        elif _is_gpu_op(op) and not op.regions:
            self.on_sync_gpu_op(s, op)
        elif isinstance(op, scf.ForOp):
            return self.on_for(s, op)
        elif isinstance(op, scf.IfOp):
            return self.on_regions(s, op, [op.true_region, op.false_region])
        elif isinstance(op, scf.IndexSwitchOp):
            return self.on_regions(s, op, [op.default_region, *op.case_regions])
        elif isinstance(op, scf.ExecuteRegionOp):
            return self.on_regions(s, op, [op.region])
        elif isinstance(op, scf.WhileOp):
            return self.on_while(s, op)
        elif op.regions:
            return self.on_unknown_region_op(s, op)
        else:
            self.on_host_op(s, op)
        return s

    # ------------------------------------------------------- gpu ops
    def on_wait(self, s: _State, op: WaitOp) -> None:
        deps = tuple(op.async_dependencies)
        if op.async_token is not None:
            if len(deps) == 1:
                self.alias_waits.add(op)
            must, may = self._deps(s, deps)
            s.tokens[op.async_token] = must
            s.may[op.async_token] = may
            return
        if not deps:
            self.empty_waits.add(op)
            return
        rec = self.waits.setdefault(op, _WaitRecord())
        useless: set[int] = set()
        for i, d in enumerate(deps):
            _, m, _ = self._val(s, d)
            m = _ALL if m is None else m
            if m & s.inflight:
                continue
            useless.add(i)
            known = m & s.issued
            rec.no_work[i] = rec.no_work.get(i, True) and not known
            for e in _bits(known):
                by = s.done_by.get(e)
                if by is not None:
                    rec.completers.setdefault(i, set()).add(by)
        rec.useless = useless if rec.useless is None else rec.useless & useless
        must, _ = self._deps(s, deps)
        self._complete(s, must, op)

    def on_async_op(self, s: _State, op: Operation) -> None:
        deps = tuple(op.async_dependencies)  # type: ignore[attr-defined]
        token = op.async_token  # type: ignore[attr-defined]
        e = self._event(op)
        if token is not None and s.issued & (1 << e):
            # The op runs again (a loop): its earlier runs become the summary
            # event first, so that they are checked like any other op.
            self._rename_event(s, e)
        must, may = self._deps(s, deps)
        if isinstance(op, AllocOp):
            obj = self._new_object(s, op)
            s.points[op.memref] = frozenset({obj})
            accesses = [(op.memref, ALLOC)] if token is not None else []
        else:
            accesses = self.effects.gpu_accesses(op)
        if token is None:
            self._complete(s, must, op)
            self._check(s, op, accesses, s.inflight)
            self._free(s, op, accesses)
        else:
            self._check(s, op, accesses, s.inflight & ~must, must)
            self._issue(s, op)
            bit = 1 << e
            for v, mode in accesses:
                for obj in self._objects(s, v):
                    if mode & WRITE_LIKE:
                        s.acc_w[obj] = s.acc_w.get(obj, 0) | bit
                    if mode & READ:
                        s.acc_r[obj] = s.acc_r.get(obj, 0) | bit
            s.tokens[token] = must | bit
            s.may[token] = may | bit
            self._free(s, op, accesses)
        skip: set[SSAValue] = {token} if token is not None else set()
        if isinstance(op, AllocOp):
            skip.add(op.memref)
        self._define_others(s, op, skip)

    def on_sync_gpu_op(self, s: _State, op: Operation) -> None:
        accesses = self.effects.gpu_accesses(op)
        self._check(s, op, accesses, s.inflight)
        self._define_others(s, op, skip=set())

    def _define_others(self, s: _State, op: Operation, skip: set[SSAValue]) -> None:
        """Results of a gpu op other than its token (and alloc's buffer): sparse
        handles and the like stand for the buffers the op takes."""
        objs: set[int] = set()
        for v in op.operands:
            if not is_token(v) and (v in s.points or is_buffer(v)):
                objs |= self._objects(s, v)
        rest = [r for r in op.results if r not in skip]
        self._opaque_tokens(s, op, [r for r in rest if is_token(r)])
        for r in rest:
            if not is_token(r) and objs:
                s.points[r] = frozenset(objs)

    def _opaque_tokens(self, s: _State, op: Operation, results: Sequence[SSAValue]) -> None:
        """Tokens the analysis cannot follow (returned by a call, an unknown op):
        work in flight that the function must await; `may` is unknown. That
        work may read and write every buffer the op takes."""
        if not results:
            return
        bit = 1 << self._issue(s, op)
        for v in op.operands:
            if not is_token(v) and (v in s.points or is_buffer(v)):
                for obj in self._objects(s, v):
                    s.acc_w[obj] = s.acc_w.get(obj, 0) | bit
                    s.acc_r[obj] = s.acc_r.get(obj, 0) | bit
        for r in results:
            s.tokens[r] = bit
            s.may[r] = _ALL

    # ------------------------------------------------------- host ops
    def on_host_op(self, s: _State, op: Operation) -> None:
        if self.effects.is_alias(op):
            objs: set[int] = set()
            for v in op.operands:
                if is_buffer(v):
                    objs |= self._objects(s, v)
            for r in op.results:
                if is_buffer(r):
                    s.points[r] = frozenset(objs)
            return
        accesses = self.effects.host_accesses(op)
        if accesses:
            self._check(s, op, accesses, s.inflight)
            self._free(s, op, accesses)
        handed = 0
        for v in op.operands:
            if is_token(v):
                handed |= self._val(s, v)[0] or 0
        s.owed &= ~handed
        for r in op.results:
            if not is_buffer(r):
                continue
            if op_name(op) == "memref.get_global":
                sym = op.properties.get("name") or op.attributes.get("name")
                key: object = ("global", str(sym))
                s.points[r] = frozenset({self._object(key)})
            else:
                s.points[r] = frozenset({self._new_object(s, op)})
        self._opaque_tokens(s, op, [r for r in op.results if is_token(r)])

    def on_return(self, s: _State, op: Operation) -> None:
        returned = [v for v in op.operands if is_token(v)]
        must, _ = self._deps(s, returned)
        buffers = [(v, RW) for v in op.operands if is_buffer(v)]
        bad = self._check(s, op, buffers, s.inflight & ~must)
        for e in _bits(s.owed & ~must & ~bad):
            owner = self._owner(e)
            if isinstance(owner, Operation):
                _, only_old, explained = self.unawaited.get(owner, (op, True, True))
                self.unawaited[owner] = (
                    op,
                    only_old and bool(e & 1),
                    explained and self._explained(s, e),
                )

    def _explained(self, s: _State, e: int) -> bool:
        """Whether unawaited event `e` completes with an op found to conflict
        with another (making that one depend on it, the fix, awaits `e` too)."""
        for base in self.conflicting:
            owner = self.event_owner[base]
            token = getattr(owner, "async_token", None)
            if isinstance(token, SSAValue) and s.tokens.get(token, 0) >> e & 1:
                return True
        return False

    # ------------------------------------------------------- structured control flow
    def _exit_vals(self, s: _State, term: Operation | None, n: int) -> list[_Val | None]:
        if term is None or len(term.operands) != n:
            return [None] * n
        return [self._val(s, v) for v in term.operands]

    def on_regions(self, s: _State, op: Operation, regions: Sequence[Region]) -> _State:
        """One of `regions` runs once (an empty region: nothing runs); the op's
        results are what the region yields."""
        outs: list[_State] = []
        n = len(op.results)
        for region in regions:
            if not region.blocks:
                outs.append(s.copy())
                continue
            for st, term in self.run_region(region, s, []):
                self._bind(st, list(op.results), self._exit_vals(st, term, n))
                outs.append(st)
        joined = _join_all(outs)
        return joined if joined is not None else s

    def on_for(self, s: _State, op: scf.ForOp) -> _State:
        body = op.body.block
        carried = list(body.args[1:])
        head = s.copy()
        self._bind(head, carried, [self._val(s, v) for v in op.iter_args])
        head.normalize()
        for _ in range(MAX_ITERATIONS):
            incoming: list[_Val | None] = [None, *(self._val(head, a) for a in carried)]
            backs: list[_State] = []
            for st, term in self.run_region(op.body, head, incoming):
                self._bind(st, carried, self._exit_vals(st, term, len(carried)))
                backs.append(st)
            new = _join_all([head, *backs])
            assert new is not None
            if new.same(head):
                break
            head = new
        self._bind(head, list(op.results), [self._val(head, a) for a in carried])
        return head

    def on_while(self, s: _State, op: scf.WhileOp) -> _State:
        before = op.before_region.block
        head = s.copy()
        self._bind(head, list(before.args), [self._val(s, v) for v in op.arguments])
        head.normalize()
        exits: list[_State] = []
        for _ in range(MAX_ITERATIONS):
            exits = []
            backs: list[_State] = []
            incoming = [self._val(head, a) for a in before.args]
            for st, term in self.run_region(op.before_region, head, incoming):
                if term is None or term.name != "scf.condition":
                    continue
                vals = [self._val(st, v) for v in term.operands[1:]]
                out = st.copy()
                self._bind(out, list(op.results), vals)
                exits.append(out)
                for st2, term2 in self.run_region(op.after_region, st, vals):
                    self._bind(
                        st2, list(before.args), self._exit_vals(st2, term2, len(before.args))
                    )
                    backs.append(st2)
            new = _join_all([head, *backs])
            assert new is not None
            if new.same(head):
                break
            head = new
        joined = _join_all(exits)
        return joined if joined is not None else head

    def on_unknown_region_op(self, s: _State, op: Operation) -> _State:
        """A region op the analysis does not know: its regions may run any
        number of times, in any order; their arguments and the op's results are
        unknown values."""
        accesses = self.effects.host_accesses(op) if not op.name.startswith("scf.") else []
        if accesses and get_effects(op) is None:
            self._check(s, op, accesses, s.inflight)
        head = s.copy().normalize()
        for _ in range(MAX_ITERATIONS):
            outs: list[_State] = []
            for region in op.regions:
                if not region.blocks:
                    continue
                nargs = len(region.blocks[0].args)
                outs.extend(st for st, _ in self.run_region(region, head, [None] * nargs))
            new = _join_all([head, *outs])
            assert new is not None
            if new.same(head):
                break
            head = new
        self._bind(head, list(op.results), [None] * len(op.results))
        return head

    # ------------------------------------------------------- results
    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for (op, v), hz in self.hazards.items():
            roots = {k: m for k, m in hz.others.items() if not hz.derived.get(k, False)}
            if not roots:
                continue  # a consequence of a conflict reported at an earlier op
            other, same, other_mode = self._pick(op, _Hazard(hz.mode, roots))
            if (op.name == "gpu.dealloc" or hz.mode & (FREE | UNREGISTER)) or other_mode & FREE:
                kind = FindingKind.DEALLOC
            elif isinstance(op, AsyncOpInterface) and op.async_token is not None:  # type: ignore[attr-defined]
                kind = FindingKind.CONFLICT
            else:
                kind = FindingKind.HOST_ACCESS
            out.append(Finding(kind, op, other, v, hz.mode, other_mode, same))
        for (op, v), (mode, deallocs) in self.uaf.items():
            if (op, v) in self.hazards:
                continue
            dealloc, same, _ = self._pick(op, _Hazard(mode, {(d, d is op): FREE for d in deallocs}))
            out.append(Finding(FindingKind.USE_AFTER_FREE, op, dealloc, v, mode, FREE, same))
        for op, (ret, only_old, explained) in self.unawaited.items():
            if not explained:
                out.append(Finding(FindingKind.UNAWAITED, op, ret, earlier_runs=only_old))
        for op in self.alias_waits:
            assert isinstance(op, WaitOp)
            out.append(Finding(FindingKind.ALIAS_WAIT, op, value=op.async_dependencies[0]))
        for op in self.empty_waits:
            out.append(Finding(FindingKind.EMPTY_WAIT, op))
        for op, rec in self.waits.items():
            if not rec.useless:
                continue
            assert isinstance(op, WaitOp)
            deps = tuple(op.async_dependencies)
            idx = sorted(rec.useless)
            completed = tuple(deps[i] for i in idx)
            no_work = tuple(deps[i] for i in idx if rec.no_work.get(i, False))
            completers = set().union(*(rec.completers.get(i, set()) for i in idx))
            by = next(iter(completers)) if len(completers) == 1 else None
            partial = len(idx) < len(deps)
            out.append(
                Finding(
                    FindingKind.USELESS_WAIT,
                    op,
                    by,
                    completed=completed,
                    no_work=no_work,
                    partial=partial,
                )
            )
        kinds = list(FindingKind)
        out.sort(key=lambda f: (self.order.get(f.op, len(self.order)), kinds.index(f.kind)))
        return out

    def _pick(self, op: Operation, hz: _Hazard) -> tuple[Operation, bool, int]:
        """The other op to name: another op before `op` (the nearest), else
        another op, else an earlier run of `op` itself."""
        here = self.order.get(op, 0)

        def rank(item: tuple[tuple[Operation, bool], int]) -> tuple[int, int]:
            (other, same), _ = item
            pos = self.order.get(other, 0)
            if same:
                return (2, 0)
            return (0, -pos) if pos < here else (1, -pos)

        (other, same), mode = min(hz.others.items(), key=rank)
        return other, same, mode


def successors(term: Operation) -> list[tuple[Block, Sequence[SSAValue] | None]]:
    """The successors of a branch and the operands it passes to each (None: unknown)."""
    name = term.name
    succs = list(term.successors)
    if not succs:
        return []
    if name == "cf.br":
        return [(succs[0], list(term.operands))]
    if name == "cf.cond_br":
        return [
            (succs[0], list(term.then_arguments)),  # type: ignore[attr-defined]
            (succs[1], list(term.else_arguments)),  # type: ignore[attr-defined]
        ]
    if name == "cf.switch":
        out: list[tuple[Block, Sequence[SSAValue] | None]] = [
            (succs[0], list(term.default_operands))  # type: ignore[attr-defined]
        ]
        case_ops = list(term.case_operands)  # type: ignore[attr-defined]
        seg = term.properties.get("case_operand_segments")
        sizes = list(seg.get_values()) if seg is not None else []  # type: ignore[attr-defined]
        pos = 0
        for i, block in enumerate(succs[1:]):
            n = sizes[i] if i < len(sizes) else 0
            out.append((block, case_ops[pos : pos + n]))
            pos += n
        return out
    return [(b, None) for b in succs]


def host_functions(module: Operation) -> list[func.FuncOp]:
    """The `func.func` ops with a body that are not inside a `gpu.module`."""
    out: list[func.FuncOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.name == "gpu.module" or isinstance(inner, LaunchOp):
                        continue
                    if isinstance(inner, func.FuncOp):
                        if inner.body.blocks:
                            out.append(inner)
                        continue
                    visit(inner)

    visit(module)
    return out


def find_hazards(module: Operation, effects: KernelEffects | None = None) -> list[Finding]:
    """The findings of every host function of `module`, function by function,
    in program order within each."""
    effects = effects or KernelEffects()
    out: list[Finding] = []
    for f in host_functions(module):
        analysis = _FunctionAnalysis(f, effects)
        analysis.run()
        out.extend(analysis.findings())
    return out


def analyze_function(f: func.FuncOp, effects: KernelEffects | None = None) -> list[Finding]:
    """The findings of one host function."""
    analysis = _FunctionAnalysis(f, effects or KernelEffects())
    analysis.run()
    return analysis.findings()


__all__ = [
    "ALLOC",
    "FREE",
    "READ",
    "RW",
    "UNREGISTER",
    "WRITE",
    "Finding",
    "FindingKind",
    "KernelEffects",
    "analyze_function",
    "find_hazards",
    "host_functions",
    "successors",
]
