"""The words of a race report: the element, who made each access, and why
nothing orders them (`RaceDetector` finds the races)."""

from __future__ import annotations

from typing import Any

from xgpu.runtime.memref import Storage

Access = tuple  # (task | None, block | host epoch, work-item, epoch, op)


def race_text(
    storage: Storage | None, pos: int, prev: Access, prev_write: bool, cur: Access, write: bool
) -> tuple[str, str]:
    """The message of a race at `pos` between the earlier access `prev` and
    `cur`, and the note at the earlier one."""
    elem = element_name(storage, pos)
    message = (
        f"data race: {describe(cur)} {_verb(cur, write, True)} {elem}, which "
        f"{describe(prev)} {_verb(prev, prev_write, False)}: {_why(prev, cur)}"
    )
    note = f"the other access: {describe(prev)} {_verb(prev, prev_write, False)} {elem}"
    return message, note


def element_name(storage: Storage | None, pos: int) -> str:
    name = (storage.name if storage is not None else None) or "memory"
    shape = storage.shape if storage is not None else None
    if shape:
        idx = []
        rest = pos
        for size in reversed(shape):
            if size > 0:
                rest, i = divmod(rest, size)
            else:
                i = 0
            idx.append(i)
        if rest == 0:
            return f"{name}[{', '.join(map(str, reversed(idx)))}]{storage.where}"
    return f"{name}[{pos}] (element {pos})"


def _op_name(op: Any) -> str:
    return getattr(op, "name", "an op")


def describe(acc: Access) -> str:
    """`memref.store by work-item (...) of gpu.launch_func @m::@k`,
    `memref.load by the host`, `gpu.memcpy`."""
    if acc[0] is not None and acc[2] < 0:
        return acc[0].label
    return f"{_op_name(acc[4])} by {_who(acc)}"


def _verb(acc: Access, write: bool, present: bool) -> str:
    if write and _op_name(acc[4]) == "gpu.dealloc":
        return "frees" if present else "freed"
    if present:
        return "writes" if write else "reads"
    return "wrote" if write else "read"


def _who(acc: Access) -> str:
    task = acc[0]
    if task is None:
        return "the host"
    if acc[2] < 0:
        return task.label
    from xgpu.backend.sim.workgroup import unlinear

    block = task.launch_block
    grid = task.launch_grid
    tids = unlinear(acc[2], block)
    bids = unlinear(acc[1], grid)
    return (
        f"work-item ({tids[0]}, {tids[1]}, {tids[2]}) of block ({bids[0]}, {bids[1]}, "
        f"{bids[2]}) of {task.label}"
    )


def _why(prev: Access, cur: Access) -> str:
    pt, ct = prev[0], cur[0]
    if pt is None or ct is None:
        gpu = ct if pt is None else pt
        return (
            f"the host does not wait for {gpu.label} (no blocking gpu.wait on its token "
            "orders them)"
        )
    if pt is ct:
        if prev[1] != cur[1]:
            return "work-items of different blocks are not ordered (no barrier spans blocks)"
        return "no gpu.barrier between the two accesses of the block"
    return f"no async dependency orders {pt.label} and {ct.label}"
