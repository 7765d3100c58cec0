"""The race detector's shadow memory: numpy arrays per storage.

A `Shadow` belongs to one `Storage` that GPU work may touch
(`RaceDetector.track`); its arrays are made on the first recorded access,
one entry per element, and grow when an access lies past them. Each access
is stored as five columns (`Table`):

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
"""

from __future__ import annotations

import mmap
from typing import Any

import numpy as np

#: the `task` of an access by the host, and of no access
HOST = -2
NONE = -1


#: the columns, in the order they lie in a table's block; blocks hold at
#: most 1024 work-items (the simulator's limits)
_COLUMNS = (
    ("task", np.int32),
    ("blk", np.int32),
    ("ep", np.int32),
    ("op", np.int32),
    ("lid", np.int16),
)
_BYTES = sum(np.dtype(d).itemsize for _, d in _COLUMNS)


#: tables of at least this many bytes get a mapping of their own
_MAPPED = 1 << 20


def _zeroed(size: int) -> np.ndarray:
    """`size` zero bytes. A big table is an anonymous mapping of its own,
    in small pages: numpy asks for transparent huge pages on its big
    arrays, and a huge page's first touch can stall on finding 2 MiB of
    free memory (in a VM: memory the host never gave the guest): a call of
    bench/sim.py's saxpy 2^20 with --detect-races took 0.11 to 0.52 s from
    run to run, 0.16 to 0.20 s in small pages (on a 2-core VM). The mapping
    goes when the last array that views it does."""
    if size < _MAPPED:
        return np.zeros(size, np.uint8)
    return np.frombuffer(mmap.mmap(-1, size), np.uint8)


def _elements(storage: Any) -> int:
    """The element count of the storage's data, as far as it is known."""
    if storage is None:
        return 0
    data = storage.buf if storage.buf is not None else storage.host
    return int(data.size) if isinstance(data, np.ndarray) else 0


class Table:
    """One access per element (see the module docstring)."""

    __slots__ = ("task", "blk", "lid", "ep", "op")

    def __init__(self, n: int):
        self._make(n)

    def _make(self, n: int) -> None:
        # One allocation for the five columns: numpy's small arrays would
        # come from the heap and interleave with the engine's temporaries
        # (each freed run of the heap then returns to the system and is
        # faulted in again); one big block is mapped on its own.
        raw = _zeroed(n * _BYTES)
        at = 0
        for name, dtype in _COLUMNS:
            size = n * np.dtype(dtype).itemsize
            setattr(self, name, raw[at : at + size].view(dtype))
            at += size
        self.task[:] = NONE

    def grow(self, n: int) -> None:
        old = {name: getattr(self, name) for name, _ in _COLUMNS}
        self._make(n)
        for name, col in old.items():
            getattr(self, name)[: len(col)] = col

    def get(self, p: int) -> tuple[int, int, int, int, int]:
        return (
            self.task.item(p),
            self.blk.item(p),
            self.lid.item(p),
            self.ep.item(p),
            self.op.item(p),
        )

    def put(self, p: Any, task: Any, blk: Any, lid: Any, ep: Any, op: Any) -> None:
        """Store one access at `p` (an index, or an index array with scalar
        or per-index columns)."""
        self.task[p] = task
        self.blk[p] = blk
        self.lid[p] = lid
        self.ep[p] = ep
        self.op[p] = op


class Shadow:
    """The accesses to one storage: per element, the last write and the
    reads since (see the module docstring)."""

    __slots__ = ("storage", "size", "write", "reads")

    def __init__(self, storage: Any = None):
        self.storage = storage
        self.size = 0
        self.write: Table = _EMPTY
        self.reads: list[Table] = []

    def ensure(self, n: int) -> None:
        """Make the arrays cover elements `0 .. n - 1`."""
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

    def add_reads(self) -> Table:
        table = Table(self.size)
        self.reads.append(table)
        return table


_EMPTY = Table(0)
