"""Shortcuts of `verify_ir` for the ops that repeat thousands of times in a
host program.

Per block signature: for some op classes (registered in
`SIGNATURE_VERIFIED` by their dialect, which vouches for it), everything
`verify_ir` checks of an op without regions or successors depends only on
its class, the identity of its operand and result types, of its
properties and attributes, and on its parent block (through which it finds
its enclosing module, its kernel's symbol table...), not on its position in
the block nor on the ops that define its operands. Two such ops with the
same signature in the same block verify alike: the second is skipped once
the first passed. An op that fails is never recorded, so a failing op is
always checked, and reported, by the general path.

The signature names objects by identity (hashing nested types costs more
than the checks saved); the table lives for one verification, while the IR
does not change, and keeps the first op of each signature, so every object
it names stays alive.

Dominance by position: a use of a block argument or of a result of an
earlier op of the same block needs no dominance check (`users_to_check`
yields the ops that need one, in the order of `walk_ops`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import chain
from operator import attrgetter

from xdsl.ir import Block, Operation

#: op classes (exact classes, not subclasses) whose verification depends only
#: on the op's signature and its parent block (see the module's docstring)
SIGNATURE_VERIFIED: set[type[Operation]] = set()

# The signatures found valid in the current verification (None outside one).
_VALID: dict[tuple[int, ...], Operation] | None = None

# `value.type` without the property call (xDSL 0.75 keeps it in `_type`).
_value_type = attrgetter("_type")


@contextmanager
def memoized_signatures() -> Iterator[None]:
    """Within the block the IR must not change: valid signatures are remembered."""
    global _VALID
    outer = _VALID
    _VALID = {} if outer is None else outer
    try:
        yield
    finally:
        _VALID = outer


def signature(op: Operation) -> tuple[int, ...] | None:
    """The key of `op` in the table of valid signatures, or None when `op`
    cannot be skipped (its class is not registered, it has regions or
    successors, or no verification is under way)."""
    if _VALID is None or type(op) not in SIGNATURE_VERIFIED or op.regions:
        return None
    if op._successors:  # pyright: ignore[reportPrivateUsage]
        return None
    properties, attributes = op.properties, op.attributes
    return (
        id(type(op)),
        id(op.parent),
        *map(id, map(_value_type, op._operands)),  # pyright: ignore[reportPrivateUsage]
        -1,
        *map(id, map(_value_type, op.results)),
        -1,
        *map(id, properties),
        *map(id, properties.values()),
        -1,
        *map(id, attributes),
        *map(id, attributes.values()),
    )


def known_valid(key: tuple[int, ...] | None) -> bool:
    return key is not None and _VALID is not None and key in _VALID


def record_valid(key: tuple[int, ...] | None, op: Operation) -> None:
    if key is not None and _VALID is not None:
        _VALID[key] = op


def _blocks(op: Operation) -> Iterator[Block]:
    return chain.from_iterable(region.blocks for region in op.regions)


def users_to_check(
    root: Operation, with_root: bool = True, skip: Callable[[Operation], bool] | None = None
) -> Iterator[Operation]:
    """The ops of `root` (`root` first unless `with_root` is False, each op
    before the ops of its regions, as `walk_ops`) that have an operand other
    than an argument of their block or a result of an earlier op of it. The
    regions of the ops below `root` for which `skip` is true are not entered
    (the ops themselves are)."""
    if with_root and root._operands:  # pyright: ignore[reportPrivateUsage]
        yield root
    # frames: [blocks to visit, ops of the current block, values defined so far]
    frames: list[list] = [[_blocks(root), None, None]]
    while frames:
        frame = frames[-1]
        ops = frame[1]
        if ops is None:
            block = next(frame[0], None)
            if block is None:
                frames.pop()
                continue
            frame[1] = iter(block.ops)
            frame[2] = set(map(id, block._args))  # pyright: ignore[reportPrivateUsage]
            continue
        op = next(ops, None)
        if op is None:
            frame[1] = None
            continue
        defined: set[int] = frame[2]
        operands = op._operands  # pyright: ignore[reportPrivateUsage]
        if operands and not defined.issuperset(map(id, operands)):
            yield op
        defined.update(map(id, op.results))
        if op.regions and (skip is None or not skip(op)):
            frames.append([_blocks(op), None, None])
