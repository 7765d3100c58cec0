"""Phases 2 and 3 of `gpu-async-region`: `async.execute` regions.

2. Deferral: where every user of an `async.execute`'s token is an
   `async.execute` or an `async.await`, and the last op with effects in its
   body is a blocking `gpu.wait`, that wait is removed; the tokens it waited
   for are yielded as new `!async.value<!gpu.async.token>` results, and each
   user of the execute's token waits for them instead: after an `async.await`
   (new `async.await`s of the values), or at the start of an `async.execute`
   body (new body operands). There, the first op that is a terminator or has
   effects takes them as dependencies if it is a gpu async op; otherwise a
   blocking `gpu.wait` is put in front of it, which is deferred in turn when
   it ends an execute body whose token qualifies.
3. Single use: a `!async.value<!gpu.async.token>` result used more than once
   is yielded once more for each use after the first; as in MLIR 22, only the
   second use takes its copy (see `_single_token_uses`).

Which use is "the first" and in which order the users of a token are visited
is MLIR's use-list order: the newest use first. `_UseOrder` models it: MLIR's
parser creates an op after the ops in its regions, an op's operands join the
front of their values' use lists in operand order, and replacing all uses of
a value moves them one by one to the front of the new value's list (so they
end up in reverse order). An op given more operands than its operand storage
holds (MLIR then moves them to a larger one) re-inserts all of them, and so
does each op of a body that MLIR clones into a rebuilt `async.execute` (xgpu
moves the body instead).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import DenseArrayBase, i32
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation, SSAValue, Use

from xgpu.dialects.async_ import AwaitOp, ExecuteOp, ValueType, unwrapped
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType


def post_order(op: Operation) -> Iterator[Operation]:
    """The ops nested in `op`, each after the ops in its regions (MLIR's
    default walk order, and the order in which its parser creates ops)."""
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                yield from post_order(nested)
                yield nested


def pre_order(op: Operation) -> Iterator[Operation]:
    """The ops nested in `op`, each before the ops in its regions (the order
    in which MLIR's `Region::cloneInto` creates them)."""
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                yield nested
                yield from pre_order(nested)


class _UseOrder:
    """MLIR's use-list order of the values the phases look at (see the module doc)."""

    def __init__(self, func: FuncOp) -> None:
        self._stamps: dict[tuple[Operation, int], int] = {}
        self._capacity: dict[Operation, int] = {}
        self._counter = itertools.count()
        for op in post_order(func):
            self.insert(op)

    def insert(self, op: Operation) -> None:
        """`op` is created: its operands join the front of their lists, in order."""
        self._capacity[op] = len(op.operands)
        self._stamp(op, 0)

    def grow(self, op: Operation, old_size: int) -> None:
        """Operands were appended to `op`'s `old_size` ones. Past the capacity of
        its operand storage, MLIR moves every operand to a new one (re-inserting
        each in its list), the capacity becoming the power of two above the old
        capacity + 2 (or the new size)."""
        capacity = self._capacity.get(op, old_size)
        size = len(op.operands)
        if size <= capacity:
            self._stamp(op, old_size)
            return
        self._capacity[op] = max(1 << (capacity + 2).bit_length(), size)
        self._stamp(op, 0)

    def _stamp(self, op: Operation, start: int) -> None:
        for index in range(start, len(op.operands)):
            self._stamps[(op, index)] = next(self._counter)

    def uses(self, value: SSAValue) -> list[Use]:
        return sorted(
            value.uses,
            key=lambda u: self._stamps.get((u.operation, u.index), -1),
            reverse=True,
        )

    def replace_all_uses(self, old: SSAValue, new: SSAValue) -> None:
        for use in self.uses(old):
            self._stamps[(use.operation, use.index)] = next(self._counter)
        old.replace_all_uses_with(new)

    def set_operand(self, use: Use, value: SSAValue) -> None:
        op, index = use.operation, use.index
        operands = list(op.operands)
        operands[index] = value
        op.operands = operands
        self._stamps[(op, index)] = next(self._counter)


def _is_execute_or_await_only(token: SSAValue, order: _UseOrder) -> bool:
    """MLIR's `areAllUsersExecuteOrAwait`."""
    users = [use.operation for use in order.uses(token)]
    return bool(users) and all(isinstance(u, (ExecuteOp, AwaitOp)) for u in users)


def _segments(deps: int, operands: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, [deps, operands])


def add_execute_results(
    execute: ExecuteOp, values: Sequence[SSAValue], order: _UseOrder
) -> ExecuteOp:
    """Replace `execute` with an `async.execute` that also yields `values`
    (MLIR's `addExecuteResults`: MLIR's builder, so only the operand segment
    sizes survive of the old op's attributes)."""
    block = execute.body_region.blocks.first
    assert block is not None and block.last_op is not None
    yield_op = block.last_op
    old_size = len(yield_op.operands)
    yield_op.operands = (*yield_op.operands, *values)
    order.grow(yield_op, old_size)
    result_types = [unwrapped(r.type) for r in execute.body_results]
    result_types += [v.type for v in values]
    new = ExecuteOp.build_execute(
        list(execute.dependencies),
        list(execute.body_operands),
        result_types,
        execute.detach_region(execute.body_region),
    )
    new.location = execute.location
    parent = execute.parent_block()
    assert parent is not None
    parent.insert_op_before(new, execute)
    order.insert(new)
    # MLIR clones the body into the new op: every op in it is created anew,
    # each before the ops in its regions.
    for op in pre_order(new):
        order.insert(op)
    for old_result, new_result in zip(execute.results, new.results):
        if old_result.name_hint is not None:
            new_result.name_hint = old_result.name_hint
        order.replace_all_uses(old_result, new_result)
    parent.erase_op(execute)
    return new


def _nearest_execute(op: Operation) -> ExecuteOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ExecuteOp):
        parent = parent.parent_op()
    return parent


class _Deferral:
    """MLIR's DeferWaitCallback."""

    def __init__(self, order: _UseOrder, is_terminator, has_side_effects) -> None:
        self.order = order
        self.is_terminator = is_terminator
        self.has_side_effects = has_side_effects
        self.worklist: list[WaitOp] = []

    def collect(self, execute: ExecuteOp) -> None:
        if not _is_execute_or_await_only(execute.token, self.order):
            return
        block = execute.body_region.blocks.first
        if block is None:
            return
        ops = list(block.ops)
        if ops and self.is_terminator(ops[-1]):
            ops.pop()
        for op in reversed(ops):
            if isinstance(op, WaitOp):
                if op.async_token is None:
                    self.worklist.append(op)
                return
            if self.has_side_effects(op):
                return

    def run(self) -> None:
        index = 0
        while index < len(self.worklist):
            wait = self.worklist[index]
            index += 1
            execute = _nearest_execute(wait)
            assert execute is not None
            deps = list(wait.async_dependencies)
            block = wait.parent_block()
            assert block is not None
            block.erase_op(wait)
            execute = add_execute_results(execute, deps, self.order)
            tokens = list(execute.results[len(execute.results) - len(deps) :])
            users = [use.operation for use in self.order.uses(execute.token)]
            for user in users:
                self._add_dependency_after(tokens, user)

    def _add_dependency_after(self, values: list[SSAValue], user: Operation) -> None:
        tokens: list[SSAValue] = []
        if isinstance(user, AwaitOp):
            block = user.parent_block()
            assert block is not None
            anchor = user
            for value in values:
                await_op = AwaitOp(value)
                await_op.location = user.location
                block.insert_op_after(await_op, anchor)
                self.order.insert(await_op)
                anchor = await_op
                assert await_op.result is not None
                tokens.append(await_op.result)
            it = anchor.next_op
        elif isinstance(user, ExecuteOp):
            body = user.body_region.blocks.first
            assert body is not None
            it = body.first_op
            deps, operands = len(user.dependencies), len(user.body_operands)
            user.operands = (*user.operands, *values)
            user.properties["operandSegmentSizes"] = _segments(deps, operands + len(values))
            self.order.grow(user, deps + operands)
            for _ in values:
                tokens.append(body.insert_arg(AsyncTokenType(), len(body.args)))
        else:
            return
        while it is not None and not (self.is_terminator(it) or self.has_side_effects(it)):
            it = it.next_op
        if it is None:
            return
        if isinstance(it, AsyncOpInterface):
            for token in tokens:
                it.add_async_dependency(token)
            return
        wait = WaitOp(tokens, is_async=False)
        wait.location = user.location
        block = it.parent_block()
        assert block is not None
        block.insert_op_before(wait, it)
        self.order.insert(wait)
        parent = it.parent_op()
        if (
            isinstance(parent, ExecuteOp)
            and _is_execute_or_await_only(parent.token, self.order)
            and it.next_op is None
        ):
            self.worklist.append(wait)


def _is_gpu_token_value(value: SSAValue) -> bool:
    return isinstance(value.type, ValueType) and isinstance(value.type.value_type, AsyncTokenType)


def _single_token_uses(execute: ExecuteOp, order: _UseOrder) -> None:
    """MLIR's SingleTokenUseCallback for one `async.execute`."""
    indices = [
        i
        for i, result in enumerate(execute.body_results)
        if len(order.uses(result)) > 1 and _is_gpu_token_value(result)
    ]
    for index in indices:
        later = order.uses(execute.body_results[index])[1:]
        block = execute.body_region.blocks.first
        assert block is not None and block.last_op is not None
        value = block.last_op.operands[index]
        execute = add_execute_results(execute, [value] * len(later), order)
        later = order.uses(execute.body_results[index])[1:]
        if later:
            # MLIR walks the later uses while it moves them: once the first
            # one is set to its copy, the walk follows that copy's (empty) use
            # list and ends. The other uses keep the original, the other
            # copies stay unused.
            order.set_operand(
                later[0], execute.body_results[len(execute.body_results) - len(later)]
            )


def rewrite_async_executes(func: FuncOp, is_terminator, has_side_effects) -> None:
    """Phases 2 and 3 on `func`, after the token threading of phase 1."""
    order = _UseOrder(func)
    deferral = _Deferral(order, is_terminator, has_side_effects)
    for op in post_order(func):
        if isinstance(op, ExecuteOp):
            deferral.collect(op)
    deferral.run()
    for op in [op for op in post_order(func) if isinstance(op, ExecuteOp)]:
        _single_token_uses(op, order)


__all__ = ["add_execute_results", "post_order", "rewrite_async_executes"]
