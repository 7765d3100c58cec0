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

The record (`race_shadow.Shadow`, numpy arrays made for the storages GPU
work touches, on their first access) holds per element the last write and
*read slots* for the reads since. A read drops the kept reads it makes
needless, those a later write could race with only if it raced with the new
read too:

- a read that happens before the new one (another task in the new one's
  `hb`, a host read of an epoch the task was issued in or after, a task the
  host observed; the host keeps its latest read): happens-before sets are
  closed (a task's `hb` holds its dependencies' sets), so a write ordered
  after the new read is ordered after the old one;
- reads of the same kernel task, in the engines' order (blocks one after
  the other, a block's barrier epoch only grows): a read of an earlier
  block races with every later write of the launch (all in other blocks),
  so it makes a new read needless; a read of a later interval of the same
  block makes those of earlier intervals needless; within one interval two
  reads by different work-items are enough (a write by any work-item of the
  interval races with one of them).

So a write races with a kept read whenever it races with any read since the
last write: races are found as with every read kept (the earlier record
grouped reads by task, block and interval, and kept them all). What changes
is which pairs of ops are named: a write racing with two reads of which one
happens before the other is reported with the later read only. The number
of slots grows to the most reads of one element that none of them makes
needless (reads by tasks no dependency orders).

The lockstep engine enters a race-free launch's accesses with the bulk API
(`launch_races`, `enter_launch`) and GPU copies and host range accesses use
`bulk_access`: numpy operations over all positions at once; the tasks in a
table's column become a lookup table over the distinct ids present.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from xgpu.runtime.memref import MemRef, Storage
from xgpu.runtime.race_shadow import HOST, NONE, Shadow, Span, Table, pick
from xgpu.runtime.race_text import race_text
from xgpu.runtime.view_positions import row_major, view_positions_array
from xgpu.semantics.atomics import ATOMIC_OPS

Access = tuple  # (task | None, block | host epoch, work-item, epoch, op)


#: `RaceDetector.access` without a stored value
_NO_VALUE = object()


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

    def __init__(self, uniform_writes: bool = False) -> None:
        #: report a work-item's write of the value the element already holds
        #: from another work-item of the same launch (`--detect-races=all`)
        self.uniform_writes = uniform_writes
        self.host_epoch = 0
        self.host_hb = 0
        self.all_tasks = 0
        self.races: list[Race] = []
        self._seen: set[tuple[int, int, bool, bool]] = set()
        #: the shadows' tables name tasks by id and ops by index in `ops`
        self.tasks: dict[int, Any] = {}
        self.ops: list[Any] = []
        self._op_index: dict[int, int] = {}
        #: the async.execute bodies running (innermost last), each with the
        #: host's happens-before from before it (`body_begin`)
        self._bodies: list[tuple[Any, int]] = []

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
        self.tasks[task.id] = task

    # -- async.execute bodies ---------------------------------------------- #
    # A body runs where its op stands (sequential execution), but it is a
    # task of its own: issued after its dependencies, its accesses are its
    # task's, what it waits for it learns (not the host), and the host
    # learns all of that only at `async.await` (or `await_all` of a group).

    def body_begin(self, task: Any, deps: Iterable[Any]) -> None:
        self.issue(task, deps)
        self._bodies.append((task, self.host_hb))
        self.host_hb = task.hb

    def body_end(self) -> None:
        task, saved = self._bodies.pop()
        task.hb |= self.host_hb
        self.host_hb = saved

    def _host_task(self) -> Any:
        """The task host code runs as: an async.execute body, or None."""
        return self._bodies[-1][0] if self._bodies else None

    def host_observes(self, tasks: Iterable[Any]) -> None:
        """The host waited for `tasks` (blocking gpu.wait, synchronous op)."""
        for t in tasks:
            self.host_hb |= t.hb

    def host_observes_all(self) -> None:
        self.host_hb |= self.all_tasks

    def ordered(self, prev: Access, cur: Access) -> bool:
        """Whether `prev` happens before `cur` (`cur` is the access being made).
        Two atomic accesses of work-items are ordered one way or the other."""
        pt = prev[0]
        ct = cur[0]
        if prev[2] >= 0 and cur[2] >= 0 and _atomic(prev[4]) and _atomic(cur[4]):
            return True
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

    def before_all(self, tids: np.ndarray, blks: np.ndarray, cur: Any) -> np.ndarray:
        """Per entry of a table's columns: whether that access happens before
        every access of `cur` (a task; None: the host). No access counts as
        ordered, and so does one of `cur` itself (right for a GPU op that is
        not a kernel; the two work-items of one kernel are `ordered`'s).
        Where `tids` is one scalar for all entries, so is the result (or
        one per block where they are the host's)."""
        if np.ndim(tids) == 0:
            t = int(tids)
            if t == NONE or (t == HOST and cur is None):
                return np.True_
            if t == HOST:
                return blks <= cur.host_epoch
            return np.bool_(self.tasks[t].bit & (self.host_hb if cur is None else cur.hb))
        if cur is None:
            ok = tids < 0
            hb = self.host_hb
        else:
            ok = (tids == NONE) | ((tids == HOST) & (blks <= cur.host_epoch))
            hb = cur.hb
        gpu = tids >= 0
        every = gpu.all()
        if not every and not gpu.any():
            return ok
        ids = tids if every else tids[gpu]
        lo, hi = int(ids.min()), int(ids.max())
        if lo == hi:
            before = np.bool_(self.tasks[lo].bit & hb)
        else:
            present = np.zeros(hi - lo + 1, bool)
            present[ids - lo] = True
            table = np.zeros(len(present), bool)
            for i in np.flatnonzero(present).tolist():
                table[i] = bool(self.tasks[lo + i].bit & hb)
            before = table[ids - lo]
        if every:
            ok[:] = before
        else:
            ok[gpu] = before
        return ok

    # -- tracking ---------------------------------------------------------- #

    @staticmethod
    def track(storage: Storage) -> Shadow:
        """Start recording accesses to `storage` (GPU work may use it)."""
        if storage.shadow is None:
            storage.shadow = Shadow(storage)
        elif storage.shadow.storage is None:
            storage.shadow.storage = storage
        return storage.shadow

    def op_index(self, op: Any) -> int:
        """`op`'s index in the op table (the shadows' `op` column)."""
        k = self._op_index.get(id(op))
        if k is None:
            k = self._op_index[id(op)] = len(self.ops)
            self.ops.append(op)
        return k

    def _access_of(self, table: Table, pos: int) -> Access:
        tid, blk, lid, ep, op = table.get(pos)
        return (None if tid == HOST else self.tasks[tid], blk, lid, ep, self.ops[op])

    # -- one element (the work-item engine, host loads and stores) --------- #

    def access(
        self, shadow: Shadow, pos: int, write: bool, acc: Access, value: Any = _NO_VALUE
    ) -> None:
        """One access at `pos`; `value`: what a store writes (a write of the
        value the element holds, by another work-item of the same launch, is
        a uniform write: a race only under `uniform_writes`)."""
        if pos >= shadow.size:
            shadow.ensure(pos + 1)
        if shadow.lazy:
            shadow.plain()
        last = shadow.write
        if last.task.item(pos) != NONE:
            prev = self._access_of(last, pos)
            if not self.ordered(prev, acc) and not (
                write and self._uniform(shadow, pos, prev, acc, value)
            ):
                self._report(shadow, pos, prev, True, acc, write)
        task = acc[0]
        tid = HOST if task is None else task.id
        if write:
            for table in shadow.reads:
                if table.task.item(pos) != NONE:
                    prev = self._access_of(table, pos)
                    if not self.ordered(prev, acc):
                        self._report(shadow, pos, prev, False, acc, True)
                    table.task[pos] = NONE
            last.put(pos, tid, acc[1], acc[2], acc[3], self.op_index(acc[4]))
            return
        self._keep_read(shadow, pos, tid, acc)

    def _uniform(self, shadow: Shadow, pos: int, prev: Access, acc: Access, value: Any) -> bool:
        """Whether a store of `value` at `pos` after `prev`'s write is a
        uniform write left out (see `access`)."""
        if self.uniform_writes or value is _NO_VALUE or prev[0] is not acc[0]:
            return False
        if prev[2] < 0 or acc[2] < 0 or shadow.storage is None:
            return False
        st = shadow.storage
        data = st.buf if st.buf is not None else st.host
        if not isinstance(data, np.ndarray):
            return False
        flat = data.reshape(-1)
        if pos >= flat.size:
            return False
        return np.asarray(value, flat.dtype).tobytes() == flat[pos : pos + 1].tobytes()

    def _keep_read(self, shadow: Shadow, pos: int, tid: int, acc: Access) -> None:
        """Enter a read among the element's read slots, dropping those it
        makes needless (see the module docstring)."""
        task, blk, lid, ep, _ = acc
        free = None
        others = 0  # reads kept of this block and interval, by other work-items
        for table in shadow.reads:
            t = table.task.item(pos)
            if t == NONE:
                if free is None:
                    free = table
                continue
            if t == tid and t != HOST:
                if lid < 0 or table.blk.item(pos) != blk:
                    return  # the same op's read, or one of an earlier block
                kept_ep = table.ep.item(pos)
                if kept_ep > ep:
                    return
                if kept_ep == ep:
                    if table.lid.item(pos) == lid:
                        return
                    others += 1
                    continue
            elif t == HOST:
                if task is not None and table.blk.item(pos) > task.host_epoch:
                    continue
            elif not self.tasks[t].bit & (self.host_hb if task is None else task.hb):
                continue
            # The kept read happens before this one.
            table.task[pos] = NONE
            if free is None:
                free = table
        if others >= 2:
            return
        if free is None:
            free = shadow.add_reads()
            shadow.plain()
        free.put(pos, tid, blk, lid, ep, self.op_index(acc[4]))

    # The three kinds of accessors the runtime calls.

    def host_access(self, m: MemRef, pos: int, write: bool, op: Any) -> None:
        shadow = m.storage.shadow
        if shadow is None and self._bodies:
            # Host memory an async.execute body touches: tracked from now on
            # (what the host did before the body is ordered before it).
            shadow = self.track(m.storage)
        if shadow is not None:
            body = self._host_task()
            acc = (None, self.host_epoch, -1, 0, op) if body is None else (body, -1, -1, 0, op)
            self.access(shadow, pos, write, acc)

    def kernel_access(
        self, shadow: Shadow, pos: int, write: bool, w: Any, op: Any, value: Any = None
    ) -> None:
        acc = (w.task, w.blk, w.lid, w.bs.epoch, op)
        self.access(shadow, pos, write, acc, _NO_VALUE if value is None else value)

    def range_access(
        self, m: MemRef, write: bool, task: Any, op: Any, positions: Iterable[int] | None = None
    ) -> None:
        """Every element of the view `m` (or `positions`), by `task` (None: the host,
        or the async.execute body it runs)."""
        shadow = m.storage.shadow
        if shadow is None and task is None and self._bodies:
            shadow = self.track(m.storage)
        if shadow is None:
            return
        if task is None:
            task = self._host_task()
        ascending = False
        if positions is None:
            pos = view_positions_array(m)
            ascending = row_major(m)
        elif isinstance(positions, np.ndarray):
            pos = positions.astype(np.int64, copy=False)
        else:
            pos = np.asarray(list(positions), np.int64)
        self.bulk_access(shadow, pos, write, task, op, ascending)

    # -- many elements at once --------------------------------------------- #

    def bulk_access(
        self,
        shadow: Shadow,
        pos: np.ndarray,
        write: bool,
        task: Any,
        op: Any,
        ascending: bool = False,
    ) -> None:
        """`access` at each of `pos` in turn, by the host (`task` None) or a
        GPU op that is not a kernel; `ascending`: `pos` is known to be
        distinct and increasing."""
        if not len(pos):
            return
        if not ascending:
            ascending = len(pos) < 2 or bool(np.all(pos[1:] > pos[:-1]))
        if not ascending:
            _, first = np.unique(pos, return_index=True)
            if len(first) < len(pos):
                pos = pos[np.sort(first)]  # the first of each, in order
        shadow.ensure(int(pos[-1] if ascending else pos.max()) + 1)
        shadow.lazy = True
        blk = self.host_epoch if task is None else -1
        acc = (task, blk, -1, 0, op)
        tid = HOST if task is None else task.id
        ix = _index(pos, ascending)
        found: list[tuple[int, int, Access, bool]] = []
        self._unordered(found, shadow.write, pos, ix, task, 0, True)
        if write:
            for k, table in enumerate(shadow.reads):
                self._unordered(found, table, pos, ix, task, k + 1, False)
                table.clear(ix)
            shadow.write.put(ix, tid, blk, -1, 0, self.op_index(op))
        else:
            self.keep_reads(shadow, pos, task, (blk, -1, 0, self.op_index(op)), ascending)
        found.sort(key=lambda f: (f[0], f[1]))
        for i, _rank, prev, prev_write in found:
            self._report(shadow, int(pos[i]), prev, prev_write, acc, write)

    def _unordered(
        self,
        found: list,
        table: Table,
        pos: np.ndarray,
        ix: Any,
        cur: Any,
        rank: int,
        prev_write: bool,
    ) -> None:
        """Add to `found` the first entry at `pos` of each op of `table` that
        does not happen before `cur`: (index in pos, rank, access, write)."""
        before = self.before_all(table.task_at(ix), table.blk_at(ix), cur)
        if np.ndim(before) == 0:
            if before:
                return
            bad = np.arange(len(pos))
        else:
            bad = np.flatnonzero(~before)
            if not len(bad):
                return
        _, first = np.unique(table.ops_at(pos[bad]), return_index=True)
        for i in bad[first].tolist():
            found.append((i, rank, self._access_of(table, int(pos[i])), prev_write))

    def keep_reads(
        self,
        shadow: Shadow,
        pos: np.ndarray,
        task: Any,
        cols: tuple,
        ascending: bool = False,
        detail: bool = False,
    ) -> None:
        """Enter reads by `task` (None: the host) at the distinct positions
        `pos` (`cols`: block, work-item, epoch and op index, each a scalar
        or one per position), for a task whose reads the shadow holds none of
        or whose reads are all alike (not a kernel); `ascending`: `pos` is in
        increasing order; `detail`: a kernel's reads, entered as details
        (`Table.put_detail`)."""
        tid = HOST if task is None else task.id
        keep = None
        ix = _index(pos, ascending)
        for table in shadow.reads:
            tids = table.task_at(ix)
            old = self.before_all(tids, table.blk_at(ix), task) & (tids != NONE)
            if tid >= 0:
                same = tids == tid
                keep = ~same if keep is None else keep & ~same
                old &= ~same
            if old.all():
                table.clear(ix)
            elif old.any():
                table.clear(pos[old])
        if keep is not None and not keep.all():
            sel = np.flatnonzero(keep)
            pos = pos[sel]
            ix = pos
            cols = tuple(pick(c, sel) for c in cols)

        def put(table: Table, ix: Any, cols: tuple) -> None:
            if detail:
                table.put_detail(ix, tid, cols)
            else:
                table.put(ix, tid, *cols)

        for table in shadow.reads:
            if not len(pos):
                return
            free = table.task_at(ix) == NONE
            if free.all():
                put(table, ix, cols)
                return
            if free.any():
                put(table, pos[free], tuple(pick(c, free) for c in cols))
                rest = ~free
                pos = pos[rest]
                ix = pos
                cols = tuple(pick(c, rest) for c in cols)
        if len(pos):
            put(shadow.add_reads(), ix, cols)

    def launch_races(self, shadow: Shadow, task: Any, pos: np.ndarray, written: np.ndarray) -> bool:
        """Whether a launch of `task` that accesses the positions `pos` and
        writes `written` among them (each distinct, in increasing order) races with the accesses the
        shadow holds (earlier tasks, the host)."""
        if not len(pos):
            return False
        shadow.ensure(int(pos[-1]) + 1)
        last = shadow.write
        ix = _index(pos, True)
        if not self.before_all(last.task_at(ix), last.blk_at(ix), task).all():
            return True
        if len(written):
            ix = _index(written, True)
            for table in shadow.reads:
                if not self.before_all(table.task_at(ix), table.blk_at(ix), task).all():
                    return True
        return False

    def enter_launch(
        self,
        shadow: Shadow,
        task: Any,
        wpos: np.ndarray,
        wcols: tuple,
        rpos: np.ndarray,
        rcols: tuple,
    ) -> None:
        """Enter a race-free launch of `task`: at the positions `wpos` its
        last writes, then at `rpos` its first reads after them (each distinct,
        in increasing order; `wcols`, `rcols`: block, work-item, epoch and op
        index, each a scalar, an array or an `Offset`), as details of the
        launch (`Table.put_detail`)."""
        top = max(int(wpos[-1]) if len(wpos) else -1, int(rpos[-1]) if len(rpos) else -1)
        if top < 0:
            return
        shadow.ensure(top + 1)
        shadow.lazy = True
        if len(wpos):
            ix = _index(wpos, True)
            shadow.write.put_detail(ix, task.id, wcols)
            for table in shadow.reads:
                table.clear(ix)
        if len(rpos):
            self.keep_reads(shadow, rpos, task, rcols, True, detail=True)

    # -- reports ----------------------------------------------------------- #

    def _report(
        self, shadow: Shadow, pos: int, prev: Access, prev_write: bool, cur: Access, write: bool
    ) -> None:
        key = (id(prev[4]), id(cur[4]), prev_write, write)
        if key in self._seen:
            return
        self._seen.add(key)
        message, note = race_text(shadow.storage, pos, prev, prev_write, cur, write)
        self.races.append(Race(cur[4], message, prev[4], note, cur[0], prev[0]))


def _atomic(op: Any) -> bool:
    return getattr(op, "name", None) in ATOMIC_OPS


def _index(pos: np.ndarray, ascending: bool = False) -> Any:
    """`pos` as a slice where it is a run of consecutive positions (numpy
    reads and writes those faster), else `pos`. `ascending`: the positions
    are known to be distinct and in increasing order."""
    first = int(pos[0])
    if isinstance(pos, Span):
        return slice(first, first + len(pos))
    if int(pos[-1]) - first != len(pos) - 1:
        return pos
    if ascending or len(pos) < 2 or np.all(pos[1:] - pos[:-1] == 1):
        return slice(first, first + len(pos))
    return pos
