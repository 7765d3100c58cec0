"""`gpu-async-simplify`: remove async synchronization that cannot matter.

Semantics (GPU_AsyncOpInterface): an async op starts after the work its
dependency tokens stand for has completed; `gpu.wait async [deps]` is an alias
of the union of its dependencies; a blocking `gpu.wait [deps]` and an async op
without a token (the synchronous form) make the host wait for their
dependencies (and, for the op, for itself).

Completion is transitive along tokens: when the op producing `%b` has
completed, every token it depends on has completed too (it started after
them); a `gpu.wait async` join completes when all its dependencies have.

What the pass does, for every async op in pre-order (each change is reported
as a remark at the op when `remarks=true`):

1. dependency lists lose duplicates, and any dependency implied by another one
   (the token graph, through joins, reaches it from another dependency: the
   transitive reduction of the list). Block arguments and results of region
   ops (loop-carried tokens) are opaque: nothing is known of what they stand for;
2. a blocking `gpu.wait` absorbs each `gpu.wait async` join whose only user it
   is (`%j = gpu.wait async [%a, %b]; gpu.wait [%j]` -> `gpu.wait [%a, %b]`),
   and a blocking `gpu.wait` that follows another one with nothing in between
   but side-effect-free non-gpu ops absorbs it;
3. dependencies on tokens completed by a host synchronization point earlier in
   the same block, or in an enclosing block before the region op that holds
   the op, are dropped (a blocking `gpu.wait`, or a synchronous gpu op: each
   completes its dependencies and everything they depend on);
4. a dependency that stands for no work at all (a `gpu.wait async` without
   dependencies, directly or through joins) is dropped from `gpu.wait` ops, and
   from other ops when another dependency remains (an op keeps a single one:
   for gpu-to-llvm it names the stream the op is issued on).

Per op, a blocking wait first absorbs joins and the previous wait (rule 2),
then duplicates go, then completed dependencies (3), implied ones (1) and
those standing for no work (4). Rule 3 assumes that the regions of an op
run, if at all, after the op is reached (true of scf ops and of any op whose
regions are not code defined for later use; isolated regions cannot see outer
tokens anyway).

A blocking `gpu.wait` left without dependencies does nothing and is erased;
so are `gpu.wait async` ops whose token is unused. Nothing else moves: the
happens-before relation between GPU work and host observation points
(`xgpu.analysis.happens_before`) is unchanged.

Cost (programs have 10k+ launches): the work is per op and bounded, never a
scan of the block. For an op with several dependencies, whether one implies
another is answered first by a chain decomposition of the token graph (a
token extends the chain of the dependency that was last on its chain, so on
one stream "is %a implied by %b" is an O(1) comparison), then by a memoized
backward search that never goes below the older token's position and visits
at most `SEARCH_BUDGET` tokens per op. Tokens completed by a host
synchronization point are marked once per block (a marking stops at tokens
already marked). A search or marking cut short by its budget only keeps a
dependency that could have gone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BytesAttr, DenseArrayBase, ModuleOp, UnregisteredOp, i32
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsolatedFromAbove, is_side_effect_free

from xgpu import diagnostics
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType

SEARCH_BUDGET = 1024
"""Tokens the searches for one op's dependencies visit at most, all together
(past it, a dependency is kept)."""

MARK_BUDGET = 1 << 20
"""Tokens one host synchronization point marks as completed at most."""


@dataclass(frozen=True)
class Removal:
    """One change the pass makes: `dep` removed from `op`'s dependencies, or
    (`dep` None) the blocking wait `op` erased or merged into a later one."""

    op: Operation
    dep: SSAValue | None
    message: str


def removals(module: ModuleOp) -> list[Removal]:
    """What the pass would remove from `module`, which is left unchanged
    (the pass runs on a copy; the removals name `module`'s own ops and values)."""
    values: dict[SSAValue, SSAValue] = {}
    copy = module.clone(value_mapper=values)
    ops = {c: o for o, c in zip(module.walk(), copy.walk(), strict=True)}
    back = {c: o for o, c in values.items()}
    found: list[Removal] = []
    _Simplifier(False, found).run(copy)
    return [
        Removal(ops[r.op], back.get(r.dep) if r.dep is not None else None, r.message) for r in found
    ]


@dataclass(frozen=True)
class AsyncSimplifyPass(ModulePass):
    """Remove async-token synchronization that cannot matter (see the module doc)."""

    name = "gpu-async-simplify"

    remarks: bool = False
    """Report each removal as a remark at the op it concerns."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _Simplifier(self.remarks).run(op)


# ---------------------------------------------------------------------------
# The token graph
# ---------------------------------------------------------------------------


def _deps(op: Operation) -> tuple[SSAValue, ...]:
    """The async dependencies of an AsyncOpInterface op: its leading token
    operands (every gpu async op takes its dependencies first and no other
    token operand; this avoids the slower segment look-up)."""
    operands = op.operands
    n = 0
    for v in operands:
        if not isinstance(v.type, AsyncTokenType):
            break
        n += 1
    return tuple(operands[:n])


def _producer(v: SSAValue) -> Operation | None:
    """The async op whose token `v` is (None for block arguments, other results)."""
    if isinstance(v, OpResult) and isinstance(v.op, AsyncOpInterface):
        if isinstance(v.type, AsyncTokenType):
            return v.op
    return None


def _preds(v: SSAValue) -> tuple[SSAValue, ...]:
    """Tokens whose completion the completion of `v` implies, directly."""
    op = _producer(v)
    return _deps(op) if op is not None else ()


def _join(v: SSAValue) -> WaitOp | None:
    """The `gpu.wait async` op `v` is the token of, if it is one."""
    op = _producer(v)
    return op if isinstance(op, WaitOp) else None


def _is_blocking_wait(op: Operation) -> bool:
    return isinstance(op, WaitOp) and not op.results


def _set_deps(op: Operation, deps: Sequence[SSAValue]) -> None:
    """Replace the async dependencies of `op`, keeping operandSegmentSizes right."""
    old = len(_deps(op))
    if old == len(deps) and all(a is b for a, b in zip(op.operands, deps, strict=False)):
        return
    op.operands = [*deps, *op.operands[old:]]
    for store in (op.properties, op.attributes):
        seg = store.get("operandSegmentSizes")
        if isinstance(seg, DenseArrayBase):
            sizes = list(seg.get_values())
            sizes[0] = len(deps)
            # (from_list normalizes each value: slow on 10k ops.)
            store["operandSegmentSizes"] = DenseArrayBase(i32, BytesAttr(i32.pack(sizes)))


def _describe(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    op = _producer(v)
    if op is not None:
        return f"the token of the {_op_at(op)}"
    if isinstance(v, BlockArgument):
        return f"block argument #{v.index}"
    return "a token"


def _op_at(op: Operation) -> str:
    loc = diagnostics.location_of(op)
    name = diagnostics.op_name(op)
    return f"{name} at line {loc.line}" if loc else f"earlier {name}"


def _is_transparent(op: Operation) -> bool:
    """An op two blocking waits may be merged across: no gpu op, no region, no effect."""
    return (
        not op.regions
        and not op.name.startswith("gpu.")
        and not isinstance(op, UnregisteredOp)
        and is_side_effect_free(op)
    )


# ---------------------------------------------------------------------------
# The rewrite
# ---------------------------------------------------------------------------


class _Simplifier:
    def __init__(self, remarks: bool, record: list[Removal] | None = None):
        self.remarks = remarks
        self.record = record
        """Where each removal is also recorded (for gpu-async-graph)."""
        self.pos: dict[Operation, int] = {}
        self.completed: dict[SSAValue, Operation] = {}
        """Token -> the host synchronization point that completed it (in scope)."""
        self.merged_into: dict[Operation, Operation] = {}
        self.erased: set[Operation] = set()
        self.meanings: dict[SSAValue, frozenset[SSAValue] | None] = {}
        """Join token -> `meaning` (None: past the search budget)."""
        self.memo: dict[tuple[SSAValue, SSAValue], bool] = {}
        """(a, b) -> whether the completion of token a implies that of b."""
        self.budget = SEARCH_BUDGET
        """Tokens the searches for the current op may still visit."""
        self.chain: dict[SSAValue, tuple[int, int]] = {}
        """Token -> (chain, index in the chain)."""
        self.chain_length: list[int] = []
        self.chain_base: list[int] = []

    # ---------------------------------------------------------- helpers
    def remark(self, op: Operation, message: str) -> None:
        if self.remarks:
            diagnostics.emit(op, "remark", message)

    def removed(self, op: Operation, dep: SSAValue | None, message: str) -> None:
        """Report the removal of `dep` from `op` (of `op` itself when None)."""
        self.remark(op, message)
        if self.record is not None:
            self.record.append(Removal(op, dep, message))

    def erase(self, op: Operation) -> None:
        self.erased.add(op)
        op.detach()
        op.erase()

    def value_pos(self, v: SSAValue) -> int:
        if isinstance(v, OpResult):
            return self.pos.get(v.op, -1)
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            return self.pos.get(parent, -1) if parent is not None else -1
        return -1

    def meaning(self, v: SSAValue) -> set[SSAValue] | None:
        """The tokens that are not `gpu.wait async` joins which `v` stands for
        (None when there are more than SEARCH_BUDGET joins to look through).
        Memoized per join: a chain of aliases costs O(1) per alias. (A join's
        dependencies only lose implied or completed ones after its meaning is
        known, which leaves what its completion implies unchanged.)"""
        if _join(v) is None:
            return {v}
        if v in self.meanings:
            known = self.meanings[v]
            return set(known) if known is not None else None
        out: set[SSAValue] = set()
        seen = {v}
        stack = [v]
        while stack:
            t = stack.pop()
            j = _join(t)
            if j is None:
                out.add(t)
                continue
            if t is not v and t in self.meanings:
                known = self.meanings[t]
                if known is None:
                    self.meanings[v] = None
                    return None
                out |= known
                continue
            for d in j.operands:
                if d not in seen:
                    if len(seen) >= SEARCH_BUDGET:
                        self.meanings[v] = None
                        return None
                    seen.add(d)
                    stack.append(d)
        self.meanings[v] = frozenset(out)
        return out

    def implies(self, src: SSAValue, target: SSAValue) -> bool:
        """Whether the completion of `src` implies that of `target`: `target`
        is reached from `src` through dependencies (a bounded backward search
        that never goes below `target`'s position; results are memoized, so a
        chain of ops that each depend on their predecessor and on one old token
        costs O(1) per op)."""
        if src is target:
            return True
        key = (src, target)
        known = self.memo.get(key)
        if known is not None:
            return known
        chain, index = self.chain_of(target)
        if self.on_chain_after(src, chain, index):
            return True
        lo = self.value_pos(target)
        seen = {src}
        stack = [src]
        complete = True
        while stack:
            for u in _preds(stack.pop()):
                if (
                    u is target
                    or self.memo.get((u, target)) is True
                    or self.on_chain_after(u, chain, index)
                ):
                    self.memo[key] = True
                    return True
                if u in seen or self.value_pos(u) < lo:
                    continue
                seen.add(u)
                if self.memo.get((u, target)) is False:
                    continue
                if self.budget <= 0:
                    complete = False
                    stack.clear()
                    break
                self.budget -= 1
                stack.append(u)
        if complete:
            # Edges are only ever removed, so "not reached" stays true.
            for v in seen:
                self.memo[(v, target)] = False
        return False

    # A chain decomposition of the token graph. Each token gets (chain, index);
    # a token at index k implies every token of its chain at an index below
    # k. A token extends the chain of a dependency that implies the whole
    # chain so far: the last token of the chain, or a token after the last
    # "base" (the tokens after a base are single-dependency `gpu.wait async`
    # aliases of it, which complete with it). So on one stream, with or
    # without an alias after each op, "is %a implied by %b" is an O(1)
    # comparison.
    def chain_of(self, v: SSAValue) -> tuple[int, int]:
        c = self.chain.get(v)
        if c is None:
            c = self.chain[v] = (len(self.chain_length), 0)
            self.chain_length.append(1)
            self.chain_base.append(0)
        return c

    def on_chain_after(self, v: SSAValue, chain: int, index: int) -> bool:
        c = self.chain.get(v)
        return c is not None and c[0] == chain and c[1] > index

    def add_to_chain(self, token: SSAValue, deps: Sequence[SSAValue], alias: bool) -> None:
        for d in deps:
            c = self.chain.get(d)
            if c is not None and c[1] >= self.chain_base[c[0]]:
                k = self.chain_length[c[0]]
                self.chain[token] = (c[0], k)
                self.chain_length[c[0]] = k + 1
                if not alias:
                    self.chain_base[c[0]] = k
                return
        self.chain_of(token)

    def completer(
        self, v: SSAValue, meaning: set[SSAValue] | None, op: Operation
    ) -> Operation | None:
        """The host synchronization point (other than `op`) that already completed `v`."""

        def find(t: SSAValue) -> Operation | None:
            m = self.completed.get(t)
            while m is not None and m in self.merged_into:
                m = self.merged_into[m]
            return None if m is op else m

        if (m := find(v)) is not None:
            return m
        if meaning and meaning != {v}:
            first = None
            for t in meaning:
                m = find(t)
                if m is None:
                    return None
                first = first or m
            return first
        return None

    def mark_completed(
        self, sync: Operation, roots: Iterable[SSAValue], undo: list[SSAValue], budget: int
    ) -> None:
        """Record that `sync` completes `roots` and all they depend on (at most
        `budget` tokens: a token left unmarked is only a dependency kept)."""
        stack = [r for r in roots if r not in self.completed]
        while stack and budget > 0:
            t = stack.pop()
            if t in self.completed:
                continue
            self.completed[t] = sync
            undo.append(t)
            budget -= 1
            stack.extend(d for d in _preds(t) if d not in self.completed)

    # ------------------------------------------------------------ driver
    def run(self, module: ModuleOp) -> None:
        for i, op in enumerate(module.walk()):
            self.pos[op] = i
        for region in module.regions:
            for block in region.blocks:
                self.run_block(block)
        self.erase_dead_joins(module)

    def run_block(self, block: Block, top: bool = True) -> None:
        """Simplify the async ops of `block` and of the blocks nested in it.

        The tokens completed by a host synchronization point of `block` stay
        marked while the rest of `block` (nested blocks included) is simplified,
        and no longer. Marking is unbounded in the top block of a function; in
        nested blocks, which may mark again what an enclosing block could not,
        it is bounded (a loop body marking a long chain on each of 10k ifs
        would be quadratic)."""
        undo: list[SSAValue] = []
        budget = MARK_BUDGET if top else SEARCH_BUDGET
        for op in list(block.ops):
            if op in self.erased:
                continue
            if isinstance(op, AsyncOpInterface):
                self.simplify(op, undo, budget)
                if op in self.erased:
                    continue
            isolated = op.has_trait(IsolatedFromAbove, value_if_unregistered=False)
            for region in op.regions:
                for inner in region.blocks:
                    self.run_block(inner, top=isolated)
        for t in undo:
            del self.completed[t]

    def simplify(self, op: Operation, undo: list[SSAValue], budget: int) -> None:
        deps = list(_deps(op))
        blocking = _is_blocking_wait(op)
        if blocking:
            deps = self.fold_joins(op, deps)
            deps = self.merge_previous_wait(op, deps)
        deps = self.reduce(op, deps)
        _set_deps(op, deps)
        if blocking and not deps:
            self.removed(op, None, "gpu.wait removed: it has nothing left to wait for")
            self.erase(op)
            return
        token = next((r for r in op.results if isinstance(r.type, AsyncTokenType)), None)
        if token is None:
            self.mark_completed(op, deps, undo, budget)
        else:
            self.add_to_chain(token, deps, alias=isinstance(op, WaitOp) and len(deps) == 1)

    # ---------------------------------------------------- rule 2: folding
    def fold_joins(self, wait: Operation, deps: list[SSAValue]) -> list[SSAValue]:
        """Inline the `gpu.wait async` joins whose only user is this blocking wait."""
        deps = list(dict.fromkeys(deps))
        changed = True
        while changed:
            changed = False
            for i, d in enumerate(deps):
                j = _join(d)
                if j is None or any(use.operation is not wait for use in d.uses):
                    continue
                inner = list(j.operands)
                deps = list(dict.fromkeys([*deps[:i], *inner, *deps[i + 1 :]]))
                _set_deps(wait, deps)
                self.remark(
                    wait,
                    f"folded the gpu.wait async {_describe(d)} (line {self.line(j)}) into this gpu.wait",
                )
                self.erase(j)
                changed = True
                break
        return deps

    def merge_previous_wait(self, wait: Operation, deps: list[SSAValue]) -> list[SSAValue]:
        prev = wait.prev_op
        while prev is not None and _is_transparent(prev):
            prev = prev.prev_op
        if prev is None or not _is_blocking_wait(prev):
            return deps
        merged = list(dict.fromkeys([*_deps(prev), *deps]))
        self.removed(prev, None, f"gpu.wait merged into the gpu.wait at line {self.line(wait)}")
        _set_deps(wait, merged)
        self.merged_into[prev] = wait
        self.erase(prev)
        return merged

    def line(self, op: Operation) -> str:
        loc = diagnostics.location_of(op)
        return str(loc.line) if loc else "?"

    # ------------------------------------------------ rules 1, 3 and 4
    def reduce(self, op: Operation, deps: list[SSAValue]) -> list[SSAValue]:
        kept: list[SSAValue] = []
        for d in deps:
            if d in kept:
                self.removed(op, d, f"duplicate dependency {_describe(d)} removed")
            else:
                kept.append(d)
        if not kept:
            return kept
        meanings = {d: self.meaning(d) for d in kept}

        # Rule 3: completed by an earlier host synchronization point.
        for d in list(kept):
            m = meanings[d]
            sync = self.completer(d, m, op)
            if sync is not None:
                kept.remove(d)
                self.removed(
                    op,
                    d,
                    f"dependency {_describe(d)} removed: already completed by the {_op_at(sync)}",
                )

        # Rule 1: implied by another dependency. (Dependencies that stand for
        # no work are left to rule 4.)
        work = [d for d in kept if meanings[d] != set()]
        self.budget = SEARCH_BUDGET
        for d in list(work) if len(work) >= 2 else ():
            others = [e for e in work if e is not d]
            by = [e for e in others if self.implies(e, d)][:1]
            m = meanings[d]
            if not by and m and m != {d}:
                # A join is implied when each token it stands for is.
                for t in m:
                    e = next((e for e in others if self.implies(e, t)), None)
                    if e is None:
                        by = []
                        break
                    if e not in by:
                        by.append(e)
            if by:
                by.sort(key=others.index)
                kept.remove(d)
                work.remove(d)
                names = ", ".join(_describe(e) for e in by)
                self.removed(op, d, f"dependency {_describe(d)} removed: implied by {names}")

        # Rule 4: dependencies that stand for no work.
        empty = [d for d in kept if meanings[d] == set()]
        if empty:
            keep_one = not isinstance(op, WaitOp) and len(empty) == len(kept)
            for d in empty[1:] if keep_one else empty:
                kept.remove(d)
                self.removed(
                    op,
                    d,
                    f"dependency {_describe(d)} removed: it stands for no work "
                    "(a gpu.wait async without dependencies)",
                )
        return kept

    # ------------------------------------------------------- dead joins
    def erase_dead_joins(self, module: ModuleOp) -> None:
        work = [op for op in module.walk() if isinstance(op, WaitOp) and op.async_token is not None]
        while work:
            j = work.pop()
            if j in self.erased or j.async_token is None or j.async_token.first_use is not None:
                continue
            inner = [_join(d) for d in j.operands]
            self.remark(j, "gpu.wait async removed: its token is unused")
            self.erase(j)
            work.extend(w for w in inner if w is not None)


__all__ = ["AsyncSimplifyPass", "Removal", "SEARCH_BUDGET", "removals"]
