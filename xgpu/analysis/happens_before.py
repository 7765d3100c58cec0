"""Happens-before over the dynamic trace of a host function's GPU work.

`build_trace(func_op)` runs the host code of a `func.func` symbolically: it
unrolls `scf.for` loops with constant bounds (each iteration is a new dynamic
instance of the ops in the body), takes the branch of `scf.if` ops whose
condition is an `arith.constant`, and records, in the order the host issues
them:

- a GPU event for every gpu op other than `gpu.wait` (`gpu.alloc`,
  `gpu.memcpy`, `gpu.launch_func`, `gpu.host_register`, ...). An op that returns
  no token is *synchronous*: it is also a host synchronization point;
- a wait event for every blocking `gpu.wait [deps]` (no result), a host
  synchronization point;
- an observation event for every other host op with memory effects (or with
  unknown effects: `memref.load`, `func.call`, unregistered `"test.*"` ops);
- an argument event for every `!gpu.async.token` argument of the function
  (work issued before the function started).

`gpu.wait async [deps]` is no event: its token is an alias of the union of
what its dependencies stand for.

Edges (A -> B: A completes before B starts):
- for each dependency token of B, every event the token stands for -> B;
- host program order: a host synchronization or observation point -> every
  event the host issues after it (and later host points).

A happens before B iff there is a path of such edges. Since every edge goes
forward in issue order, the relation is computed in one pass, with the
ancestors of each event kept as a bitset (a Python int).

The trace is a library: a checker and a simulator use it too. Events are
identified by their op and iteration indices (one per enclosing `scf.for`,
outermost first); `Trace.relation(key)` gives the relation as a set of pairs of
user-chosen keys (for example the `tag` attribute the tests put on ops, see
`tag_key`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IntegerAttr, UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.traits import IsTerminator, get_effects

from xgpu.diagnostics import location_of, op_name
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType


class EventKind(Enum):
    GPU = "gpu"
    """A gpu op (not gpu.wait): work on the device."""
    WAIT = "wait"
    """A blocking `gpu.wait [deps]`: the host waits."""
    OBSERVE = "observe"
    """A host op with memory effects (a host observation point)."""
    ARGUMENT = "argument"
    """A token argument of the function: work issued before it."""


@dataclass(eq=False)
class Event:
    """One dynamic instance of an op (or a token argument)."""

    index: int
    """Position in the trace (issue order)."""
    kind: EventKind
    op: Operation | None
    """The op; None for an ARGUMENT event."""
    iteration: tuple[int, ...]
    """Iteration numbers of the enclosing `scf.for` loops, outermost first."""
    synchronous: bool = False
    """For a GPU event: the op returns no token (the host waits for it)."""
    argument: BlockArgument | None = None
    """For an ARGUMENT event: the function argument."""
    token_preds: tuple[int, ...] = ()
    """Indices of the events its dependency tokens stand for (direct edges)."""
    host_pred: int | None = None
    """Index of the last host point issued before it (direct edge), if any."""

    @property
    def is_host_point(self) -> bool:
        """Whether the host continues only after it (synchronization or observation)."""
        return self.kind in (EventKind.WAIT, EventKind.OBSERVE) or (
            self.kind is EventKind.GPU and self.synchronous
        )

    @property
    def key(self) -> tuple[Operation | BlockArgument | None, tuple[int, ...]]:
        """The stable identity: the op (or argument) and the iteration indices."""
        return (self.op if self.op is not None else self.argument, self.iteration)

    def __repr__(self) -> str:
        what = op_name(self.op) if self.op is not None else "argument"
        loc = location_of(self.op) if self.op is not None else None
        at = f" at {loc.line}:{loc.col}" if loc else ""
        return f"Event(#{self.index} {self.kind.value} {what}{at} it={self.iteration})"


@dataclass
class Trace:
    """The events of one run of a host function and their happens-before relation."""

    events: list[Event] = field(default_factory=list)
    _ancestors: list[int] = field(default_factory=list)
    _by_key: dict[tuple[object, tuple[int, ...]], Event] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def event(self, op: Operation | BlockArgument, iteration: tuple[int, ...] = ()) -> Event:
        """The instance of `op` at `iteration` (KeyError if it never ran)."""
        return self._by_key[(op, tuple(iteration))]

    def instances(self, op: Operation) -> list[Event]:
        """Every dynamic instance of `op`, in issue order."""
        return [e for e in self.events if e.op is op]

    def happens_before(self, a: Event, b: Event) -> bool:
        """Whether `a` completes before `b` starts, on every execution."""
        return bool((self._ancestors[b.index] >> a.index) & 1)

    def ancestors(self, e: Event) -> list[Event]:
        """Every event that happens before `e`, in issue order."""
        return [self.events[i] for i in _bits(self._ancestors[e.index])]

    def ancestor_bits(self, e: Event) -> int:
        """The ancestors of `e` as a bitset over event indices."""
        return self._ancestors[e.index]

    def relation(self, key: Callable[[Event], Hashable | None]) -> set[tuple[Hashable, Hashable]]:
        """{(key(a), key(b)) | a happens before b}, over the events whose key is
        not None."""
        keyed = [(e, k) for e in self.events if (k := key(e)) is not None]
        out: set[tuple[Hashable, Hashable]] = set()
        for b, kb in keyed:
            anc = self._ancestors[b.index]
            if not anc:
                continue
            for a, ka in keyed:
                if a.index >= b.index:
                    break
                if (anc >> a.index) & 1:
                    out.add((ka, kb))
        return out

    def keys(self, key: Callable[[Event], Hashable | None]) -> list[Hashable]:
        """The keys of the events whose key is not None, in issue order."""
        return [k for e in self.events if (k := key(e)) is not None]


def tag_key(
    attr: str = "tag", kinds: tuple[EventKind, ...] = (EventKind.GPU, EventKind.OBSERVE)
) -> Callable[[Event], Hashable | None]:
    """A key function: (value of the integer attribute `attr`, iteration) for
    events of `kinds` whose op carries it, None otherwise."""

    def key(e: Event) -> Hashable | None:
        if e.kind not in kinds or e.op is None:
            return None
        a = e.op.attributes.get(attr)
        if not isinstance(a, IntegerAttr):
            return None
        return (a.value.data, e.iteration)

    return key


class _Token:
    """What a token value stands for: events (`meaning`) and the events whose
    completion its completion implies (`closure`, which includes `meaning`)."""

    __slots__ = ("meaning", "closure")

    def __init__(self, meaning: int, closure: int):
        self.meaning = meaning
        self.closure = closure


_EMPTY = _Token(0, 0)


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _is_token(v: SSAValue) -> bool:
    return isinstance(v.type, AsyncTokenType)


def _is_gpu_op(op: Operation) -> bool:
    return op.name.startswith("gpu.") and not isinstance(op, UnregisteredOp)


def _where(op: Operation) -> str:
    loc = location_of(op)
    return f" at {loc}" if loc else ""


class _Builder:
    def __init__(self) -> None:
        self.trace = Trace()
        self.tokens: dict[SSAValue, _Token] = {}
        self.consts: dict[SSAValue, int] = {}
        self.host = 0
        """Closure (ancestors + itself) of the last host point."""
        self.last_host: int | None = None
        self.iteration: list[int] = []

    # ------------------------------------------------------------- events
    def _add(
        self,
        kind: EventKind,
        op: Operation | None,
        deps: tuple[SSAValue, ...] = (),
        *,
        synchronous: bool = False,
        argument: BlockArgument | None = None,
    ) -> Event:
        t = self.trace
        index = len(t.events)
        anc = self.host
        meaning = 0
        for d in deps:
            tok = self._token(d, op)
            anc |= tok.closure
            meaning |= tok.meaning
        preds = tuple(_bits(meaning))
        event = Event(
            index,
            kind,
            op,
            tuple(self.iteration),
            synchronous=synchronous,
            argument=argument,
            token_preds=preds,
            host_pred=self.last_host if kind is not EventKind.ARGUMENT else None,
        )
        t.events.append(event)
        t._ancestors.append(anc)
        t._by_key[event.key] = event
        if event.is_host_point:
            self.host = anc | (1 << index)
            self.last_host = index
        return event

    def _token(self, v: SSAValue, user: Operation | None) -> _Token:
        tok = self.tokens.get(v)
        if tok is None:
            where = _where(user) if user is not None else ""
            raise NotImplementedError(
                f"happens-before: cannot tell what the token {v.name_hint or v} used{where} stands for"
            )
        return tok

    # ---------------------------------------------------------- constants
    def _const(self, v: SSAValue, what: str, user: Operation) -> int:
        if v in self.consts:
            return self.consts[v]
        owner = v.owner
        if isinstance(owner, arith.ConstantOp):
            value = owner.value
            if isinstance(value, IntegerAttr):
                return int(value.value.data)
        raise NotImplementedError(
            f"happens-before: the {what} of '{op_name(user)}'{_where(user)} is not a constant"
        )

    # -------------------------------------------------------------- walk
    def run_func(self, f: func.FuncOp) -> Trace:
        if not f.body.blocks:
            return self.trace
        if len(f.body.blocks) > 1:
            raise NotImplementedError(
                f"happens-before: '{f.sym_name.data}' has several blocks (unstructured control flow)"
            )
        entry = f.body.blocks[0]
        for arg in entry.args:
            if _is_token(arg):
                e = self._add(EventKind.ARGUMENT, None, argument=arg)
                self.tokens[arg] = _Token(1 << e.index, 1 << e.index)
        self.run_block(entry)
        return self.trace

    def run_block(self, block: Block) -> list[SSAValue]:
        """Run the ops of `block`; return the operands of its terminator."""
        last = block.last_op
        for op in block.ops:
            if op is last and not isinstance(op, UnregisteredOp) and op.has_trait(IsTerminator):
                return list(op.operands)
            self.run_op(op)
        return []

    def _snapshot(self, values: list[SSAValue]) -> list[tuple[_Token | None, int | None]]:
        """What `values` stand for now (tokens and constants), before a loop body
        redefines them."""
        return [
            (self.tokens.get(v, _EMPTY) if _is_token(v) else None, self.consts.get(v))
            for v in values
        ]

    def _bind(self, targets: list[SSAValue], snaps: list[tuple[_Token | None, int | None]]) -> None:
        for t, (tok, c) in zip(targets, snaps, strict=True):
            if tok is not None:
                self.tokens[t] = tok
            if c is not None:
                self.consts[t] = c
            else:
                self.consts.pop(t, None)

    def run_op(self, op: Operation) -> None:
        if isinstance(op, WaitOp):
            deps = tuple(op.async_dependencies)
            if op.async_token is not None:
                meaning = closure = 0
                for d in deps:
                    tok = self._token(d, op)
                    meaning |= tok.meaning
                    closure |= tok.closure
                self.tokens[op.async_token] = _Token(meaning, closure)
            else:
                self._add(EventKind.WAIT, op, deps)
            return
        if _is_gpu_op(op):
            if isinstance(op, AsyncOpInterface):
                deps = tuple(op.async_dependencies)  # type: ignore[attr-defined]
                token = op.async_token  # type: ignore[attr-defined]
            else:
                deps, token = (), None
            e = self._add(EventKind.GPU, op, deps, synchronous=token is None)
            if token is not None:
                bit = 1 << e.index
                self.tokens[token] = _Token(bit, self.trace._ancestors[e.index] | bit)
            for r in op.results:
                if _is_token(r) and r is not token:
                    raise NotImplementedError(
                        f"happens-before: unexpected token result of '{op.name}'{_where(op)}"
                    )
            return
        if isinstance(op, scf.ForOp):
            self._run_for(op)
            return
        if isinstance(op, scf.IfOp):
            self._run_if(op)
            return
        if isinstance(op, arith.ConstantOp):
            v = op.value
            if isinstance(v, IntegerAttr):
                self.consts[op.result] = int(v.value.data)
            return
        effects = get_effects(op)
        if op.regions and not (effects is not None and not effects):
            raise NotImplementedError(
                f"happens-before: unsupported region op '{op_name(op)}'{_where(op)}"
            )
        if any(_is_token(r) for r in op.results):
            raise NotImplementedError(
                f"happens-before: '{op_name(op)}'{_where(op)} produces a token it cannot follow"
            )
        if effects is None or effects:
            self._add(EventKind.OBSERVE, op)

    def _run_for(self, op: scf.ForOp) -> None:
        lb = self._const(op.lb, "lower bound", op)
        ub = self._const(op.ub, "upper bound", op)
        step = self._const(op.step, "step", op)
        if step <= 0:
            raise NotImplementedError(f"happens-before: non-positive step{_where(op)}")
        body = op.body.block
        iv, *iter_args = body.args
        carried = self._snapshot(list(op.iter_args))
        for n, i in enumerate(range(lb, ub, step)):
            self._bind(iter_args, carried)
            self.consts[iv] = i
            self.iteration.append(n)
            carried = self._snapshot(self.run_block(body))
            self.iteration.pop()
        self._bind(list(op.results), carried)

    def _run_if(self, op: scf.IfOp) -> None:
        cond = self._const(op.cond, "condition", op)
        region = op.true_region if cond else op.false_region
        if not region.blocks:
            return
        yielded = self.run_block(region.blocks[0])
        self._bind(list(op.results), self._snapshot(yielded))


def build_trace(func_op: func.FuncOp) -> Trace:
    """The dynamic trace of the GPU events and host points of `func_op` and
    their happens-before relation. Raises NotImplementedError for host code it
    cannot run symbolically (non-constant loop bounds or if conditions,
    unstructured control flow, other region ops, tokens from unknown ops)."""
    return _Builder().run_func(func_op)


__all__ = ["Event", "EventKind", "Trace", "build_trace", "tag_key"]
