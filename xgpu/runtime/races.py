"""The simulator's race detector (`xgpu-run --backend sim --detect-races`).

For every element of every buffer that GPU work touches, the detector keeps
the last write and the reads since, each as an *access*
`(task, block, work-item, barrier epoch, op)`:

- the host: `task` None, `block` the host's epoch (see below);
- an async GPU op that is not a kernel (`gpu.memcpy`, `gpu.memset`,
  `gpu.dealloc`): its task, work-item -1;
- a kernel's work-item: the launch's task, the block's linear id, the
  work-item's linear local id and the number of barriers its block has passed.

Happens-before:

- host program order, and host before GPU: the host's *epoch* grows by one
  each time it issues GPU work; a task remembers the epoch it was issued in,
  and every host access of that epoch or an earlier one happens before it;
- GPU before host: the host's set of observed tasks (`host_hb`) grows at each
  blocking `gpu.wait` (the tasks of its tokens, and what happens before them),
  at a plain `gpu.wait` (every task issued), and when a synchronous op
  completes;
- GPU before GPU: a task's `hb` (a bit set) holds itself, its dependencies'
  sets and the host's observed set when it was issued (program order after a
  wait);
- inside a launch: two accesses of one work-item are ordered; two of
  different work-items of one block are ordered when a `gpu.barrier` lies
  between them (different epochs); work-items of different blocks are never
  ordered.

Two accesses to one element race when at least one writes and neither
happens before the other. Each race is reported once per pair of ops, as an
error at the later access with a note at the earlier one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from xgpu.runtime.memref import MemRef, Storage

Access = tuple  # (task | None, block | host epoch, work-item, epoch, op)


class Shadow:
    """The accesses to one buffer: per element, the last write and the reads since."""

    __slots__ = ("storage", "writes", "reads")

    def __init__(self, storage: Storage | None = None):
        self.storage = storage
        self.writes: dict[int, Access] = {}
        #: per element: reads since the last write, grouped (see `access`)
        self.reads: dict[int, dict[tuple, list[Access]]] = {}


class Race:
    """One reported race: `op` (the later access) with its message, and the
    earlier access's op and note."""

    def __init__(self, op: Any, message: str, other_op: Any, note: str, task: Any, other_task: Any):
        self.op = op
        self.message = message
        self.other_op = other_op
        self.note = note
        #: the tasks of the two accesses (None: the host)
        self.task = task
        self.other_task = other_task


class RaceDetector:
    """The happens-before state of one run and the races found so far."""

    def __init__(self) -> None:
        self.host_epoch = 0
        self.host_hb = 0
        self.all_tasks = 0
        self.races: list[Race] = []
        self._seen: set[tuple[int, int, bool, bool]] = set()

    # -- happens-before ---------------------------------------------------- #

    def issue(self, task: Any, deps: Iterable[Any]) -> None:
        """`task` is issued by the host now, after `deps`."""
        task.bit = 1 << task.id
        hb = self.host_hb | task.bit
        for dep in deps:
            hb |= dep.hb
        task.hb = hb
        task.host_epoch = self.host_epoch
        self.host_epoch += 1
        self.all_tasks |= task.bit

    def host_observes(self, tasks: Iterable[Any]) -> None:
        """The host waited for `tasks` (blocking gpu.wait, synchronous op)."""
        for t in tasks:
            self.host_hb |= t.hb

    def host_observes_all(self) -> None:
        self.host_hb |= self.all_tasks

    def ordered(self, prev: Access, cur: Access) -> bool:
        """Whether `prev` happens before `cur` (`cur` is the access being made)."""
        pt = prev[0]
        ct = cur[0]
        if pt is None:
            return ct is None or prev[1] <= ct.host_epoch
        if ct is None:
            return bool(pt.bit & self.host_hb)
        if pt is ct:
            if prev[2] < 0 or cur[2] < 0:
                return True
            if prev[1] != cur[1]:
                return False
            return prev[2] == cur[2] or prev[3] != cur[3]
        return bool(pt.bit & ct.hb)

    # -- tracking ---------------------------------------------------------- #

    @staticmethod
    def track(storage: Storage) -> Shadow:
        """Start recording accesses to `storage` (GPU work may use it)."""
        if storage.shadow is None:
            storage.shadow = Shadow(storage)
        elif storage.shadow.storage is None:
            storage.shadow.storage = storage
        return storage.shadow

    def access(self, shadow: Shadow, pos: int, write: bool, acc: Access) -> None:
        last = shadow.writes.get(pos)
        if last is not None and not self.ordered(last, acc):
            self._report(shadow, pos, last, True, acc, write)
        if write:
            groups = shadow.reads.pop(pos, None)
            if groups:
                for group in groups.values():
                    for r in group:
                        if not self.ordered(r, acc):
                            self._report(shadow, pos, r, False, acc, True)
            shadow.writes[pos] = acc
            return
        # Reads since the last write, grouped by (task, block, barrier epoch):
        # a later write is ordered after all reads of a group or after none,
        # except for the work-item test inside its own block and epoch, for
        # which two reads by different work-items are enough. The host keeps
        # its latest read (the one a GPU write is least likely to follow).
        task = acc[0]
        key = (None,) if task is None else (task.id, acc[1], acc[3])
        groups = shadow.reads.get(pos)
        if groups is None:
            shadow.reads[pos] = {key: [acc]}
            return
        group = groups.get(key)
        if group is None:
            groups[key] = [acc]
        elif task is None:
            group[0] = acc
        elif len(group) == 1 and group[0][2] != acc[2]:
            group.append(acc)

    # The three kinds of accessors the runtime calls.

    def host_access(self, m: MemRef, pos: int, write: bool, op: Any) -> None:
        shadow = m.storage.shadow
        if shadow is not None:
            self.access(shadow, pos, write, (None, self.host_epoch, -1, 0, op))

    def kernel_access(self, shadow: Shadow, pos: int, write: bool, w: Any, op: Any) -> None:
        self.access(shadow, pos, write, (w.task, w.blk, w.lid, w.bs.epoch, op))

    def range_access(
        self, m: MemRef, write: bool, task: Any, op: Any, positions: Iterable[int] | None = None
    ) -> None:
        """Every element of the view `m` (or `positions`), by `task` (None: the host)."""
        shadow = m.storage.shadow
        if shadow is None:
            return
        if positions is None:
            positions = view_positions(m)
        acc = (None, self.host_epoch, -1, 0, op) if task is None else (task, -1, -1, 0, op)
        for pos in positions:
            self.access(shadow, pos, write, acc)

    # -- reports ----------------------------------------------------------- #

    def _report(
        self, shadow: Shadow, pos: int, prev: Access, prev_write: bool, cur: Access, write: bool
    ) -> None:
        key = (id(prev[4]), id(cur[4]), prev_write, write)
        if key in self._seen:
            return
        self._seen.add(key)
        elem = element_name(shadow.storage, pos)
        why = _why(prev, cur)
        message = (
            f"data race: {_describe(cur)} {_verb(cur, write, True)} {elem}, which "
            f"{_describe(prev)} {_verb(prev, prev_write, False)}: {why}"
        )
        note = f"the other access: {_describe(prev)} {_verb(prev, prev_write, False)} {elem}"
        self.races.append(Race(cur[4], message, prev[4], note, cur[0], prev[0]))


def view_positions(m: MemRef) -> list[int]:
    """Storage positions of the elements of a view, in row-major order."""
    positions = [m.offset]
    for size, stride in zip(m.sizes, m.strides):
        positions = [p + i * stride for p in positions for i in range(size)]
    if any(s == 0 for s in m.sizes):
        return []
    return positions


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


def _describe(acc: Access) -> str:
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
