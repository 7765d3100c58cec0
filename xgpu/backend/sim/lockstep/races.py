"""The race detector's side of the lockstep engine (`--detect-races`).

Every load and store of the batch records, per storage the detector tracks,
its positions with the lanes that made them, the op, the barrier epoch and
a sequence number (program order within a lane). Checks, over index arrays:

- workgroup memory (private to a block, gone at its end): at each barrier
  and at the end of the block, the accesses of the interval that ends:
  a position written by one work-item and accessed by another races;
- global memory: at the end of the launch, a position accessed by two
  blocks with at least one write races (blocks are never ordered), and so
  does one accessed in one block and one barrier interval by two
  work-items with at least one write; then each position is checked
  against the accesses recorded before the launch (`xgpu.runtime.races`:
  earlier tasks, the host), with the detector's happens-before.

Any race makes the launch replay on the work-item engine, which reports it
with the usual messages, once per pair of ops (`NeedsReplay`). Without
races the launch's accesses are entered in the detector's shadows as the
work-item engine would leave them for later tasks and host accesses: per
position the last write in the work-item order (block, epoch, work-item,
program order) and the first read after it. (The work-item engine keeps
one read per block and barrier interval; later tasks are ordered alike
with all reads of one launch, so only their op pairs can differ.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xgpu.backend.sim.lockstep.vector import NeedsReplay


class Recorder:
    def __init__(self, detector: Any, task: Any, block: tuple[int, int, int]):
        self.detector = detector
        self.task = task
        self.ops: list[Any] = []
        self.op_ids: dict[int, int] = {}
        self.seq = 0
        #: storage id -> (storage, chunks) of global memory for the whole launch
        self.global_: dict[int, tuple[Any, list]] = {}
        #: the same for the current interval's workgroup memory
        self.local: dict[int, tuple[Any, list]] = {}

    def _op(self, op: Any) -> int:
        k = self.op_ids.get(id(op))
        if k is None:
            k = self.op_ids[id(op)] = len(self.ops)
            self.ops.append(op)
        return k

    def access(self, S: Any, storage: Any, pos: Any, sel: Any, write: bool, op: Any) -> None:
        if storage.shadow is None:
            return
        lanes = np.arange(S.L, dtype=np.int64) if sel is None else sel
        if not isinstance(pos, np.ndarray):
            pos = np.full(len(lanes), pos, np.int64)
        if not len(lanes):
            return
        self.seq += 1
        chunk = (pos, lanes // S.n + S.blk0, lanes % S.n, S.epoch, write, self._op(op), self.seq)
        table = self.local if storage.kind == "workgroup" else self.global_
        entry = table.get(id(storage))
        if entry is None:
            table[id(storage)] = (storage, [chunk])
        else:
            entry[1].append(chunk)

    def barrier(self, S: Any) -> None:
        """The end of a barrier interval of one block: its workgroup memory."""
        for storage, chunks in self.local.values():
            writes = [c for c in chunks if c[4]]
            if not writes:
                continue
            data = storage.buf if storage.buf is not None else storage.host
            writer = np.full(data.size, -1, np.int64)
            for c in writes:
                writer[c[0]] = c[2]
            for c in chunks:
                other = writer[c[0]]
                if c[4]:
                    if np.any(other != c[2]):
                        raise NeedsReplay
                elif np.any((other >= 0) & (other != c[2])):
                    raise NeedsReplay
        self.local = {}

    block_end = barrier

    def finish(self) -> None:
        plans = [self._plan(storage, chunks) for storage, chunks in self.global_.values()]
        for plan in plans:
            self._check(plan)
        for plan in plans:
            self._commit(plan)

    def _plan(self, storage: Any, chunks: list) -> tuple:
        cols = [np.concatenate([c[k] for c in chunks]) for k in (0, 1, 2)]
        n = [len(c[0]) for c in chunks]
        ep = np.repeat([c[3] for c in chunks], n)
        wr = np.repeat([c[4] for c in chunks], n)
        opi = np.repeat([c[5] for c in chunks], n)
        seq = np.repeat([c[6] for c in chunks], n)
        pos, blk, lid = cols
        order = np.lexsort((seq, lid, ep, blk, pos))
        pos, blk, lid, ep, wr, opi = (a[order] for a in (pos, blk, lid, ep, wr, opi))
        edge = np.r_[True, pos[1:] != pos[:-1]]
        start = np.flatnonzero(edge)
        anyw = np.logical_or.reduceat(wr, start)
        if np.any(anyw & (np.minimum.reduceat(blk, start) != np.maximum.reduceat(blk, start))):
            raise NeedsReplay
        edge2 = edge | np.r_[True, (blk[1:] != blk[:-1]) | (ep[1:] != ep[:-1])]
        start2 = np.flatnonzero(edge2)
        anyw2 = np.logical_or.reduceat(wr, start2)
        if np.any(anyw2 & (np.minimum.reduceat(lid, start2) != np.maximum.reduceat(lid, start2))):
            raise NeedsReplay
        idx = np.arange(len(pos))
        last_w = np.maximum.reduceat(np.where(wr, idx, -1), start)
        counts = np.diff(np.r_[start, len(pos)])
        after = ~wr & (idx > np.repeat(last_w, counts))
        big = len(pos)
        first_r = np.minimum.reduceat(np.where(after, idx, big), start)
        return storage, pos, blk, lid, ep, opi, start, last_w, first_r, big

    def _check(self, plan: tuple) -> None:
        storage, pos, blk, lid, ep, opi, start, last_w, first_r, big = plan
        at = pos[start]
        written = at[last_w >= 0]
        if self.detector.launch_races(storage.shadow, self.task, at, written):
            raise NeedsReplay

    def _commit(self, plan: tuple) -> None:
        storage, pos, blk, lid, ep, opi, start, last_w, first_r, big = plan
        ops = np.array([self.detector.op_index(op) for op in self.ops], np.int32)
        w = last_w[last_w >= 0]
        r = first_r[first_r < big]
        self.detector.enter_launch(
            storage.shadow,
            self.task,
            pos[w],
            (blk[w], lid[w], ep[w], ops[opi[w]]),
            pos[r],
            (blk[r], lid[r], ep[r], ops[opi[r]]),
        )
