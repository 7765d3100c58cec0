"""Host code: the async dialect (see `compile_host` for the compiler).

An `async.execute` body runs where the op stands, to its end, before what
follows (sequential execution is one of the executions the async dialect
allows). Its token is complete once the body has run; an `!async.value<T>`
holds its T (a gpu token, for `!async.value<!gpu.async.token>`), so
`async.await` of a value is that value and of a token does nothing. A group
counts what is added to it (`async.add_to_group` returns the rank).

Under the simulator's `--detect-races` a body is a task of its own for the
race detector (`RaceDetector.body_begin`): issued after the tokens it lists
and the bodies that made its value operands, its accesses and the GPU work
it issues are ordered after those, not after what the host did since; what
it waits for only it learns; the host learns it at `async.await` of its
token or value, or `async.await_all` of a group it was added to. So a host
access between an `async.execute` and its `await` races with the body's.
"""

from __future__ import annotations

from xdsl.ir import Operation

from xgpu.runtime.compile_host import HostCompileError, HostCompiler


def _h_async_execute(c: HostCompiler, op: Operation) -> None:
    region = op.regions[0]
    if len(region.blocks) != 1:
        raise HostCompileError(op, "async.execute's body must be one block")
    deps = int(op.properties["operandSegmentSizes"].get_values()[0])  # type: ignore[attr-defined]
    block = region.blocks.first
    assert block is not None
    c.assign(c.vs(block.args), c.vs(op.operands[deps:]), op)
    token, *values = c.vs(op.results)
    if not c.instrument:
        c.w(f"{token} = ()", op)
    else:
        # Under --detect-races the body is a task of its own (see the module
        # docstring): after the tokens it waits for and the bodies that made
        # its value operands.
        after = c.vs(op.operands[:deps]) + [
            t for t in (_producer(c, v) for v in op.operands[deps:]) if t is not None
        ]
        begin = c.ns.setdefault("_abeg", c.hooks.async_begin)
        c.ns.setdefault("_aend", c.hooks.async_end)
        listed = "".join(f"{t}, " for t in after)
        c.w(f"{token} = {c.bind(begin, 'abeg')}({c.bind(op, 'op')}, ({listed}))", op)
        for r in op.results[1:]:
            _producers(c)[r] = token

    def on_exit(term: Operation) -> None:
        if term.name != "async.yield":
            raise HostCompileError(term, f"unexpected terminator '{term.name}'")
        c.assign(values, c.vs(term.operands), term)

    c.region(region, on_exit)
    if c.instrument:
        c.w("_aend()", op)


def _producers(c: HostCompiler) -> dict:
    """async.value -> the token variable of the body that yields it."""
    found = getattr(c, "async_producers", None)
    if found is None:
        found = c.async_producers = {}  # type: ignore[attr-defined]
    return found


def _producer(c: HostCompiler, value) -> str | None:
    return _producers(c).get(value)


def _h_async_await(c: HostCompiler, op: Operation) -> None:
    if c.instrument:
        # await of a token: that token; of a value: its body's token
        v = op.operands[0]
        token = _producer(c, v) if op.results else c.v(v)
        if token is not None:
            c.ns.setdefault("_await", c.hooks.async_await)
            c.w(f"_await(({token},))", op)
    if op.results:
        c.assign(c.vs(op.results), c.vs(op.operands), op)


def _h_async_create_group(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.results[0])} = [0]", op)


def _h_async_add_to_group(c: HostCompiler, op: Operation) -> None:
    group = c.v(op.operands[1])
    c.w(f"{c.v(op.results[0])} = {group}[0]; {group}[0] += 1", op)
    if c.instrument:  # the group keeps the tokens too (after its count)
        c.w(f"{group}.append({c.v(op.operands[0])})", op)


def _h_async_await_all(c: HostCompiler, op: Operation) -> None:
    if c.instrument:
        c.ns.setdefault("_await", c.hooks.async_await)
        c.w(f"_await({c.v(op.operands[0])}[1:])", op)
        return
    c.w("pass", op)


HANDLERS = {
    "async.execute": _h_async_execute,
    "async.await": _h_async_await,
    "async.create_group": _h_async_create_group,
    "async.add_to_group": _h_async_add_to_group,
    "async.await_all": _h_async_await_all,
}
