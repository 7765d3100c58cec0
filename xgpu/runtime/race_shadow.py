"""The race detector's shadow memory: per storage, one access per element.

A `Shadow` belongs to one `Storage` that GPU work may touch
(`RaceDetector.track`); its tables are made on the first recorded access,
one entry per element, and grow when an access lies past them. Each access
is five columns (`Table`):

- `task`: the task's id, `HOST` for the host, `NONE` for no access;
- `blk`: the block's linear id (-1 for a GPU op that is not a kernel), or
  for the host its epoch;
- `lid`: the work-item's linear local id (-1 for the host and non-kernels);
- `ep`: the number of barriers the block had passed;
- `op`: the op's index in the detector's op table (`RaceDetector.ops`).

`write` holds each element's last write; `reads` is a list of tables of
read *slots*: the reads of the element since its last write, reduced to
those a later write may race with (`RaceDetector` says which are kept).
A new table is added only when an element needs one more slot than every
table has free, so their number is the most reads any element keeps.

What a table stores is cheaper than an array per column and element where
it can be:

- *uniform columns*: a column is a single value while every element has it
  (a fresh table: no access; a whole-buffer copy, fill or free, a host
  access to a whole buffer). It becomes an array when an access to part of
  the elements gives it another value.
- *runs*: the task column is a few runs of one task each (`Runs`, at most
  `MAX_RUNS`) while accesses cover runs of elements (an elementwise launch's
  batches, one after the other); past that, an array.
- *details*: the lockstep engine enters a launch's accesses (`put_detail`)
  by writing only their task; their block, work-item, epoch and op stay in
  the launch's own arrays (`Table.details`: per task, its records of
  positions and columns), looked up when a report names the access. What
  orders accesses is the task (and for the host its epoch, always stored):
  checking a later access reads the task column only. Records of tasks no
  element holds any more are dropped, and those of a task holding few of
  its positions are written into the columns (`_prune`), so that details
  never take more than a few times the table's size. Consecutive positions
  are a `Span`, not an array.

The work-item engine and host accesses of single elements read and write
the columns element by element: `Shadow.plain` first turns every column
into an array and writes the details into them.
"""

from __future__ import annotations

import bisect
import mmap
from typing import Any

import numpy as np

#: the `task` of an access by the host, and of no access
HOST = -2
NONE = -1


#: the columns and their types; blocks hold at most 1024 work-items (the
#: simulator's limits)
_COLUMNS = (
    ("task", np.int32),
    ("blk", np.int32),
    ("lid", np.int16),
    ("ep", np.int32),
    ("op", np.int32),
)
_DTYPES = dict(_COLUMNS)
_DETAIL = ("blk", "lid", "ep", "op")

#: arrays of at least this many bytes get a mapping of their own
_MAPPED = 1 << 20


def _zeroed(n: int, dtype: Any) -> np.ndarray:
    """`n` zeros of `dtype`. A big array is an anonymous mapping of its own,
    in small pages: numpy asks for transparent huge pages on its big
    arrays, and a huge page's first touch can stall on finding 2 MiB of
    free memory (in a VM: memory the host never gave the guest): a call of
    bench/sim.py's saxpy 2^20 with --detect-races took 0.11 to 0.52 s from
    run to run, 0.16 to 0.20 s in small pages (on a 2-core VM). The mapping
    goes when the last array that views it does."""
    size = n * np.dtype(dtype).itemsize
    if size < _MAPPED:
        return np.zeros(n, dtype)
    return np.frombuffer(mmap.mmap(-1, size), dtype)


def _elements(storage: Any) -> int:
    """The element count of the storage's data, as far as it is known."""
    if storage is None:
        return 0
    data = storage.buf if storage.buf is not None else storage.host
    return int(data.size) if isinstance(data, np.ndarray) else 0


class Offset:
    """A column of per-position values yet to be computed: `base + offset`
    (the lockstep engine's blocks of one batch)."""

    __slots__ = ("base", "offset")

    def __init__(self, base: np.ndarray, offset: int):
        self.base = base
        self.offset = offset

    def __getitem__(self, sel: Any) -> np.ndarray:
        return self.base[sel] + self.offset

    def __len__(self) -> int:
        return len(self.base)

    def array(self) -> np.ndarray:
        return self.base + self.offset


class Span:
    """The positions `start` .. `start + n - 1`, without an array (what an
    elementwise kernel's batch of lanes accesses): kept as a launch's
    details, an array of them would hold memory for nothing."""

    __slots__ = ("start", "n")

    def __init__(self, start: int, n: int):
        self.start = start
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, (int, np.integer)):
            k = int(k)
            if k < 0:
                k += self.n
            if not 0 <= k < self.n:
                raise IndexError(k)
            return self.start + k
        return self.array()[k]

    def array(self) -> np.ndarray:
        return np.arange(self.start, self.start + self.n, dtype=np.int64)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.array()
        return arr if dtype is None else arr.astype(dtype)


def as_array(pos: Any) -> np.ndarray:
    """Positions as an array (a `Span` made one)."""
    return pos.array() if isinstance(pos, Span) else pos


def _count(ix: Any) -> int:
    return ix.stop - ix.start if isinstance(ix, slice) else len(ix)


def _positions(ix: Any) -> np.ndarray:
    return np.arange(ix.start, ix.stop, dtype=np.int64) if isinstance(ix, slice) else ix


def pick(col: Any, sel: Any) -> Any:
    """The values of a column value (scalar, array or `Offset`) at `sel`."""
    if isinstance(col, (np.ndarray, Offset)):
        return col[sel]
    return col


#: runs a task column holds at most before it becomes an array
MAX_RUNS = 32


class Runs:
    """A task column as runs of one value: run k holds `values[k]` from
    `starts[k]` to the next run's start (the last to the table's end)."""

    __slots__ = ("n", "starts", "values")

    def __init__(self, n: int, value: int):
        self.n = n
        self.starts = [0]
        self.values = [value]

    def at(self, p: int) -> int:
        return self.values[bisect.bisect_right(self.starts, p) - 1]

    def over(self, ix: Any) -> Any:
        """The values at `ix` (a slice or positions): one numpy scalar where
        a single run holds them all, else an array."""
        if len(self.values) == 1:
            return np.int32(self.values[0])
        if isinstance(ix, slice):
            a, b = ix.start, ix.stop
            starts = self.starts
            k = bisect.bisect_right(starts, a) - 1
            if k + 1 == len(starts) or starts[k + 1] >= b:
                return np.int32(self.values[k])
            out = np.empty(b - a, np.int32)  # the runs over the slice only
            while k < len(starts) and starts[k] < b:
                end = starts[k + 1] if k + 1 < len(starts) else self.n
                out[max(starts[k], a) - a : min(end, b) - a] = self.values[k]
                k += 1
            return out
        k = np.searchsorted(np.array(self.starts, np.int64), ix, "right") - 1
        return np.array(self.values, np.int32)[k]

    def set(self, a: int, b: int, value: int) -> bool:
        """`value` from `a` to `b` (exclusive); False (and nothing changed)
        where the column would need more than MAX_RUNS runs."""
        starts, values = self.starts, self.values
        ka = bisect.bisect_right(starts, a) - 1
        new_starts = starts[:ka]
        new_values = values[:ka]
        if starts[ka] < a:
            new_starts.append(starts[ka])
            new_values.append(values[ka])
        new_starts.append(a)
        new_values.append(value)
        if b < self.n:
            kb = bisect.bisect_right(starts, b) - 1
            new_starts.append(b)
            new_values.append(values[kb])
            new_starts += starts[kb + 1 :]
            new_values += values[kb + 1 :]
        merged_s, merged_v = [new_starts[0]], [new_values[0]]
        for st_, v in zip(new_starts[1:], new_values[1:]):
            if v != merged_v[-1]:
                merged_s.append(st_)
                merged_v.append(v)
        if len(merged_v) > MAX_RUNS:
            return False
        self.starts, self.values = merged_s, merged_v
        return True

    def grow(self, n: int) -> None:
        if self.values[-1] != NONE:
            self.starts.append(self.n)
            self.values.append(NONE)
        self.n = n

    def array(self) -> np.ndarray:
        arr = _zeroed(self.n, np.int32)
        ends = self.starts[1:] + [self.n]
        for a, b, v in zip(self.starts, ends, self.values):
            if v:
                arr[a:b] = v
        return arr

    def counts(self) -> dict[int, int]:
        """Per value, how many elements hold it."""
        out: dict[int, int] = {}
        ends = self.starts[1:] + [self.n]
        for a, b, v in zip(self.starts, ends, self.values):
            out[v] = out.get(v, 0) + b - a
        return out


class Table:
    """One access per element (see the module docstring). The task column
    is `Runs` or an array of the table's length; the others are an int
    (every element alike) or an array."""

    __slots__ = ("n", "task", "blk", "lid", "ep", "op", "details", "detail_size", "prune_at")

    def __init__(self, n: int):
        self.n = n
        self.task: Any = Runs(n, NONE)
        self.blk: Any = 0
        self.lid: Any = 0
        self.ep: Any = 0
        self.op: Any = 0
        #: task id -> [(positions: slice or sorted array, (blk, lid, ep, op))]
        self.details: dict[int, list] = {}
        self.detail_size = 0
        self.prune_at = 2 * n + 65536

    # -- columns ----------------------------------------------------------- #

    def _array(self, name: str) -> np.ndarray:
        """Column `name` as an array (made from its runs or single value)."""
        col = getattr(self, name)
        if isinstance(col, np.ndarray):
            return col
        if isinstance(col, Runs):
            arr = col.array()
        else:
            arr = _zeroed(self.n, _DTYPES[name])
            if col:
                arr[:] = col
        setattr(self, name, arr)
        return arr

    def _full(self, ix: Any) -> bool:
        return isinstance(ix, slice) and ix.start == 0 and ix.stop == self.n

    @property
    def is_plain(self) -> bool:
        return not self.details and all(
            isinstance(getattr(self, name), np.ndarray) for name, _ in _COLUMNS
        )

    def make_plain(self) -> None:
        """Every column an array, the details written into them."""
        if self.details:
            self._spill(list(self.details))
        for name, _ in _COLUMNS:
            self._array(name)

    def grow(self, n: int) -> None:
        old = self.n
        if isinstance(self.task, Runs):
            self.task.grow(n)
        else:
            task = self.task
            self.task = _zeroed(n, np.int32)
            self.task[:old] = task
            self.task[old:] = NONE
        for name in _DETAIL:
            col = getattr(self, name)
            if isinstance(col, np.ndarray):
                arr = _zeroed(n, _DTYPES[name])
                arr[:old] = col
                setattr(self, name, arr)
        self.n = n
        self.prune_at = max(self.prune_at, 2 * n + 65536)

    def column(self, name: str) -> np.ndarray:
        """Column `name` over the whole table, as an array (a copy where the
        column is runs or one value; details not looked up)."""
        col = getattr(self, name)
        if isinstance(col, np.ndarray):
            return col
        if isinstance(col, Runs):
            return col.array()
        return np.full(self.n, col, _DTYPES[name])

    def task_at(self, ix: Any) -> Any:
        """The tasks at `ix`: an array, or one numpy scalar for all."""
        t = self.task
        return t[ix] if isinstance(t, np.ndarray) else t.over(ix)

    def blk_at(self, ix: Any) -> Any:
        b = self.blk
        return b[ix] if isinstance(b, np.ndarray) else np.int32(b)

    def _set_task(self, ix: Any, task: int) -> None:
        t = self.task
        if isinstance(t, Runs):
            if isinstance(ix, slice) and t.set(ix.start, ix.stop, task):
                return
            t = self._array("task")
        t[ix] = task

    # -- entering accesses ------------------------------------------------- #

    def put(self, p: Any, task: Any, blk: Any, lid: Any, ep: Any, op: Any) -> None:
        """Store one access at `p` (an index, a slice or an index array,
        with scalar or per-index columns; `task` a scalar)."""
        task = int(task)
        if self.details and task in self.details:
            self._spill([task])
        values = (blk, lid, ep, op)
        if self._full(p):
            self.task = Runs(self.n, task)
            for name, v in zip(_DETAIL, values):
                setattr(
                    self, name, np.array(v, _DTYPES[name]) if isinstance(v, np.ndarray) else int(v)
                )
            self._drop_details()
            return
        self._set_task(p, task)
        for name, v in zip(_DETAIL, values):
            col = getattr(self, name)
            if not isinstance(col, np.ndarray):
                if not isinstance(v, np.ndarray) and col == v:
                    continue
                col = self._array(name)
            col[p] = v

    def put_detail(self, ix: Any, task: int, cols: tuple) -> None:
        """Enter accesses of the kernel task `task` at the positions `ix`
        (a slice, or distinct positions in increasing order), their block,
        work-item, epoch and op `cols` kept as they are (see the module
        docstring)."""
        count = _count(ix)
        if not count:
            return
        task = int(task)
        if self._full(ix):
            self.task = Runs(self.n, task)
            self.details = {task: [(ix, cols)]}
            self.detail_size = count
            return
        self._set_task(ix, task)
        self.details.setdefault(task, []).append((ix, cols))
        self.detail_size += count
        if self.detail_size > self.prune_at:
            self._prune()

    def clear(self, ix: Any) -> None:
        """No access at `ix` any more (the reads a write supersedes)."""
        t = self.task
        if isinstance(t, Runs) and t.values == [NONE]:
            return
        if self._full(ix):
            self.task = Runs(self.n, NONE)
            self._drop_details()
            return
        self._set_task(ix, NONE)

    def _drop_details(self) -> None:
        self.details = {}
        self.detail_size = 0

    # -- reading accesses -------------------------------------------------- #

    def get(self, p: int) -> tuple[int, int, int, int, int]:
        t = self.task
        tid = t.item(p) if isinstance(t, np.ndarray) else t.at(p)
        if tid in self.details:
            cols = self._detail_at(tid, p)
            if cols is not None:
                return (tid, *cols)
        return (
            tid,
            *(
                int(c.item(p)) if isinstance(c, np.ndarray) else int(c)
                for c in (self.blk, self.lid, self.ep, self.op)
            ),
        )

    def _detail_at(self, tid: int, p: int) -> tuple | None:
        found = None
        for ix, cols in self.details[tid]:
            if isinstance(ix, slice):
                if not ix.start <= p < ix.stop:
                    continue
                j = p - ix.start
            else:
                j = int(np.searchsorted(ix, p))
                if j >= len(ix) or int(ix[j]) != p:
                    continue
            found = tuple(int(pick(c, j)) for c in cols)
        return found

    def ops_at(self, pos: np.ndarray) -> np.ndarray:
        """The op indices of the accesses at the positions `pos`."""
        return self.resolve(pos)[3]

    def resolve(self, pos: np.ndarray) -> list[np.ndarray]:
        """(blk, lid, ep, op) arrays of the accesses at the positions `pos`."""
        out = []
        for name in _DETAIL:
            col = getattr(self, name)
            out.append(
                col[pos].astype(np.int64)
                if isinstance(col, np.ndarray)
                else np.full(len(pos), col, np.int64)
            )
        if not self.details or not len(pos):
            return out
        tids = self.task_at(pos)
        scalar = np.ndim(tids) == 0
        for tid, records in self.details.items():
            if scalar:
                if int(tids) != tid:
                    continue
                mine = np.arange(len(pos))
            else:
                mine = np.flatnonzero(tids == tid)
                if not len(mine):
                    continue
            sub = pos[mine]
            for ix, cols in records:
                if isinstance(ix, slice):
                    inside = (sub >= ix.start) & (sub < ix.stop)
                    j = sub[inside] - ix.start
                else:
                    j = np.searchsorted(ix, sub)
                    inside = j < len(ix)
                    inside[inside] = ix[j[inside]] == sub[inside]
                    j = j[inside]
                if not len(j):
                    continue
                at = mine[inside]
                for k, c in enumerate(cols):
                    out[k][at] = pick(c, j)
        return out

    # -- keeping details small --------------------------------------------- #

    def _spill(self, tids: list[int]) -> None:
        """Write the details of `tids` into the columns (where an element
        still holds the task) and forget them."""
        for tid in tids:
            for ix, cols in self.details.pop(tid, ()):
                pos = _positions(ix)
                owned = self.task_at(ix) == tid
                if np.ndim(owned):
                    sel = np.flatnonzero(owned)
                    pos = pos[sel]
                elif not owned:
                    continue
                else:
                    sel = slice(None)
                for name, c in zip(_DETAIL, cols):
                    self._array(name)[pos] = pick(c, sel)
        self.detail_size = sum(_count(ix) for rs in self.details.values() for ix, _ in rs)

    def _prune(self) -> None:
        t = self.task
        if isinstance(t, np.ndarray):
            held = t[t >= 0]
            bins = np.bincount(held) if len(held) else np.zeros(0, np.int64)
            counts = {tid: int(bins[tid]) for tid in self.details if tid < len(bins)}
        else:
            counts = t.counts()
        spill = []
        for tid in list(self.details):
            c = counts.get(tid, 0)
            if not c:
                del self.details[tid]
                continue
            size = sum(_count(ix) for ix, _ in self.details[tid])
            if size > 2 * c + 64:
                spill.append(tid)
        self._spill(spill)
        self.prune_at = max(2 * self.n, 2 * self.detail_size) + 65536


class Shadow:
    """The accesses to one storage: per element, the last write and the
    reads since (see the module docstring)."""

    __slots__ = ("storage", "size", "write", "reads", "lazy")

    def __init__(self, storage: Any = None):
        self.storage = storage
        self.size = 0
        self.write: Table = _EMPTY
        self.reads: list[Table] = []
        #: some table may have uniform columns or details (`plain` undoes it)
        self.lazy = False

    def ensure(self, n: int) -> None:
        """Make the tables cover elements `0 .. n - 1`."""
        if n <= self.size:
            return
        if self.size == 0:
            n = max(n, _elements(self.storage))
            self.write = Table(n)
        else:
            n = max(n, 2 * self.size)
            self.write.grow(n)
            for table in self.reads:
                table.grow(n)
        self.size = n
        self.lazy = True

    def add_reads(self) -> Table:
        table = Table(self.size)
        self.reads.append(table)
        self.lazy = True
        return table

    def plain(self) -> None:
        """Every table's columns as arrays, without details (for the
        element-by-element accesses)."""
        for table in (self.write, *self.reads):
            if table.n and not table.is_plain:
                table.make_plain()
        self.lazy = False


_EMPTY = Table(0)
