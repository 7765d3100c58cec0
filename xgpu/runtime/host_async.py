"""Host code: the async dialect (see `compile_host` for the compiler).

An `async.execute` body runs where the op stands, to its end, before what
follows (sequential execution is one of the executions the async dialect
allows). Its token is complete once the body has run; an `!async.value<T>`
holds its T (a gpu token, for `!async.value<!gpu.async.token>`), so
`async.await` of a value is that value and of a token does nothing. A group
counts what is added to it (`async.add_to_group` returns the rank).
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
    c.w(f"{token} = ()", op)

    def on_exit(term: Operation) -> None:
        if term.name != "async.yield":
            raise HostCompileError(term, f"unexpected terminator '{term.name}'")
        c.assign(values, c.vs(term.operands), term)

    c.region(region, on_exit)


def _h_async_await(c: HostCompiler, op: Operation) -> None:
    if op.results:
        c.assign(c.vs(op.results), c.vs(op.operands), op)


def _h_async_create_group(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.results[0])} = [0]", op)


def _h_async_add_to_group(c: HostCompiler, op: Operation) -> None:
    group = c.v(op.operands[1])
    c.w(f"{c.v(op.results[0])} = {group}[0]; {group}[0] += 1", op)


def _h_async_await_all(c: HostCompiler, op: Operation) -> None:
    c.w("pass", op)


HANDLERS = {
    "async.execute": _h_async_execute,
    "async.await": _h_async_await,
    "async.create_group": _h_async_create_group,
    "async.add_to_group": _h_async_add_to_group,
    "async.await_all": _h_async_await_all,
}
