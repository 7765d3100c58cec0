"""What ops do to the abstract state of the async-hazard analysis
(`_OpTransfer`): `gpu.wait`, async and synchronous gpu ops, host ops and
`func.return`."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue

from xgpu.analysis.async_hazards.core import _AnalysisCore, _WaitRecord
from xgpu.analysis.async_hazards.state import _ALL, _bits, _State
from xgpu.analysis.buffer_effects import ALLOC, READ, RW, WRITE_LIKE, is_buffer, is_token
from xgpu.diagnostics import op_name
from xgpu.dialects.gpu.host import AllocOp, WaitOp


class _OpTransfer(_AnalysisCore):
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
