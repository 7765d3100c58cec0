"""Control flow in the async-hazard analysis (`_ControlFlow`): running a
function, its regions and blocks (to a fixpoint over `cf` branches), each op
(dispatched by kind), and `scf` ops and unknown region ops; the successors of
a branch (`successors`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import get_effects

from xgpu.analysis.async_hazards.core import _Val
from xgpu.analysis.async_hazards.state import MAX_ITERATIONS, _join, _join_all, _State
from xgpu.analysis.async_hazards.transfer import _OpTransfer
from xgpu.analysis.buffer_effects import is_terminator as _is_terminator
from xgpu.analysis.buffer_effects import is_token
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp


def _is_gpu_op(op: Operation) -> bool:
    return op.name.startswith("gpu.") and not isinstance(op, UnregisteredOp)


class _ControlFlow(_OpTransfer):
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
