"""Which functions of a module reach an op of some kind, themselves or
through `func.call`s (the OpenCL backend: functions that need the fault
record; the simulator: functions that yield at barriers and collectives)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from xdsl.ir import Operation


def nested_ops(op: Operation) -> Iterator[Operation]:
    """`op` and every op nested in it, in order, without recursion (deeply
    nested programs stay within Python's limits)."""
    stack = [op]
    while stack:
        current = stack.pop()
        yield current
        for region in reversed(current.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(list(block.ops)))


def functions_reaching(funcs: Mapping[str, Operation], op_names: frozenset[str]) -> set[str]:
    """The symbols of `funcs` whose bodies hold an op named in `op_names`, or
    call (transitively) a function that does."""
    reaching: set[str] = set()
    calls: dict[str, set[str]] = {}
    for name, func in funcs.items():
        calls[name] = set()
        for op in nested_ops(func):
            if op.name in op_names:
                reaching.add(name)
            elif op.name == "func.call":
                calls[name].add(op.callee.root_reference.data)
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            if name not in reaching and callees & reaching:
                reaching.add(name)
                changed = True
    return reaching
