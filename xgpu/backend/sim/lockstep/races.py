"""The race detector's side of the lockstep engine (`--detect-races`).

Every load and store of the batch records, per storage the detector tracks,
its positions with the lanes that made them, the op, the barrier epoch and
a sequence number (program order within a lane). Checks, over index arrays:

- workgroup memory (private to a block, gone at its end): at each barrier
  and at the end of the block, the accesses of the interval that ends:
  a position written by one work-item and accessed by another races;
- global memory: at the end of the launch, per storage, each access gets
  one int64 key ordered as the work-item engine runs them (block, barrier
  epoch, work-item, sequence number: program order within a lane). With
  the smallest and largest key per written position (`np.minimum.at`,
  `np.maximum.at`), a written position accessed by two blocks races
  (blocks are never ordered), and one accessed by two work-items of a block
  is checked per barrier interval (sorting only those positions): two
  work-items in one interval, one writing, race. Then each position is
  checked against the accesses recorded before the launch
  (`xgpu.runtime.races`: earlier tasks, the host), with the detector's
  happens-before.

Any race makes the launch replay on the work-item engine, which reports it
with the usual messages, once per pair of ops (`NeedsReplay`). Without
races the launch's accesses are entered in the detector's shadows as the
work-item engine would leave them for later tasks and host accesses: per
position the last write (the largest write key) and the first read after it
(the smallest read key above it); the keys give back block, work-item,
epoch and op. (The work-item engine may keep two reads of one block and
interval; later tasks are ordered alike with all reads of one launch, so
only their op pairs can differ.) Keys too wide for an int64 fall back to
sorting all accesses.
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
        if storage.kind == "workgroup":
            chunk: tuple = (pos, None, lanes % S.n, S.epoch, write)
            table = self.local
        else:
            # lanes // n + blk0: the block, lanes % n: the work-item
            last_blk = S.blk0 + (S.L - 1) // S.n
            chunk = (pos, lanes, S.blk0, S.epoch, write, self._op(op), self.seq, S.n, last_blk)
            table = self.global_
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
        """Check the launch's accesses to one storage among themselves, and
        find per position its last write and the first read after it, in the
        work-item engine's order (block, barrier epoch, work-item, program
        order): (storage, positions accessed, positions written, then per
        write and per read entered, its position, block, work-item, epoch
        and op)."""
        n = chunks[0][7]
        blocks = max(c[8] for c in chunks) + 1
        epochs = max(c[3] for c in chunks) + 1
        seqs = self.seq + 1
        if blocks * epochs * n * seqs >= 1 << 62:
            return self._plan_sorted(storage, chunks, n)
        # One int64 key per access, in that order; its digits give back the
        # block, epoch, work-item and (by the sequence number) op.
        digits = (blocks, epochs, n, seqs)
        reads = [c for c in chunks if not c[4]]
        writes = [c for c in chunks if c[4]]
        pos_r, key_r = _keyed(reads, digits)
        pos_w, key_w = _keyed(writes, digits)
        m = max(int(pos_r.max()) if len(pos_r) else -1, int(pos_w.max()) if len(pos_w) else -1)
        m += 1
        top = np.iinfo(np.int64).max
        written = _EMPTY
        w_at = w_key = _EMPTY
        after = None
        if len(pos_w):
            last = np.full(m, -1, np.int64)
            np.maximum.at(last, pos_w, key_w)
            wrote = last >= 0
            written = np.flatnonzero(wrote)
            w_at, w_key = written, last[written]
            # Every access to a written position: by one work-item in one
            # interval (the first and the last key alike but for the program
            # order), or else in one block (blocks are never ordered) with a
            # barrier between the accesses of different work-items.
            lo = np.full(m, top, np.int64)
            np.minimum.at(lo, pos_w, key_w)
            hi = last
            if len(pos_r):
                at_w = wrote[pos_r]
                pr, kr = (pos_r, key_r) if at_w.all() else (pos_r[at_w], key_r[at_w])
                np.minimum.at(lo, pr, kr)
                hi = last.copy()
                np.maximum.at(hi, pr, kr)
                after = key_r > last[pos_r]
            unit = seqs
            lo, hi = lo[written], hi[written]
            mixed = lo // unit != hi // unit
            if mixed.any():
                unit *= epochs * n
                if np.any(lo[mixed] // unit != hi[mixed] // unit):
                    raise NeedsReplay
                self._check_intervals(m, written[mixed], pos_r, key_r, pos_w, key_w, digits)
        if after is None:
            pr, kr = pos_r, key_r
        else:
            pr, kr = pos_r[after], key_r[after]
        first = np.full(m, top, np.int64)
        np.minimum.at(first, pr, kr)
        r_at = np.flatnonzero(first < top)
        seen = first < top
        if len(pos_r):
            seen[pos_r] = True
        if len(written):
            seen[written] = True
        w_cols = self._decode(w_key, digits)
        r_cols = self._decode(first[r_at], digits)
        return storage, np.flatnonzero(seen), written, w_at, w_cols, r_at, r_cols

    def _decode(self, key: np.ndarray, digits: tuple) -> tuple:
        """(block, work-item, epoch, op index) of each key."""
        blocks, epochs, n, seqs = digits
        rest, seq = np.divmod(key, seqs)
        rest, lid = np.divmod(rest, n)
        blk, ep = np.divmod(rest, epochs)
        return blk, lid, ep, self._op_by_seq()[seq]

    def _op_by_seq(self) -> np.ndarray:
        """Per sequence number: the index of its op in the detector's table."""
        table = np.zeros(self.seq + 1, np.int32)
        ops = [self.detector.op_index(op) for op in self.ops]
        for _storage, chunks in self.global_.values():
            for c in chunks:
                table[c[6]] = ops[c[5]]
        return table

    @staticmethod
    def _check_intervals(
        m: int, where: np.ndarray, pos_r, key_r, pos_w, key_w, digits: tuple
    ) -> None:
        """At the positions `where`: two work-items of one block that access
        one position in one barrier interval, one of them writing, race
        (`NeedsReplay`)."""
        blocks, epochs, n, seqs = digits
        picked = np.zeros(m, bool)
        picked[where] = True
        parts = [(pos_r, key_r, False), (pos_w, key_w, True)]
        sel = [
            (p[picked[p]], k[picked[p]], np.full(int(picked[p].sum()), wr)) for p, k, wr in parts
        ]
        pos = np.concatenate([s[0] for s in sel])
        key = np.concatenate([s[1] for s in sel])
        wr = np.concatenate([s[2] for s in sel])
        rest = key // seqs
        interval = rest // n  # block and epoch
        lid = rest % n
        order = np.lexsort((interval, pos))
        pos, interval, lid, wr = pos[order], interval[order], lid[order], wr[order]
        edge = np.r_[True, (pos[1:] != pos[:-1]) | (interval[1:] != interval[:-1])]
        start = np.flatnonzero(edge)
        anyw = np.logical_or.reduceat(wr, start)
        if np.any(anyw & (np.minimum.reduceat(lid, start) != np.maximum.reduceat(lid, start))):
            raise NeedsReplay

    def _plan_sorted(self, storage: Any, chunks: list, n: int) -> tuple:
        """`_plan` by sorting the accesses (keys too wide for one int64)."""
        pos = np.concatenate([c[0] for c in chunks])
        blk = np.concatenate([c[1] // n + c[2] for c in chunks])
        lid = np.concatenate([c[1] % n for c in chunks])

        def each(k: int, dtype: Any) -> np.ndarray:
            return np.concatenate([np.full(len(c[0]), c[k], dtype) for c in chunks])

        ep, wr, seq = each(3, np.int64), each(4, bool), each(6, np.int64)
        order = np.lexsort((seq, lid, ep, blk, pos))
        pos, blk, lid, ep, wr, seq = (a[order] for a in (pos, blk, lid, ep, wr, seq))
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
        first_r = np.minimum.reduceat(np.where(after, idx, len(pos)), start)
        w = last_w[last_w >= 0]
        r = first_r[first_r < len(pos)]
        ops = self._op_by_seq()
        w_cols = (blk[w], lid[w], ep[w], ops[seq[w]])
        r_cols = (blk[r], lid[r], ep[r], ops[seq[r]])
        return storage, pos[start], pos[w], pos[w], w_cols, pos[r], r_cols

    def _check(self, plan: tuple) -> None:
        storage, at, written = plan[:3]
        if self.detector.launch_races(storage.shadow, self.task, at, written):
            raise NeedsReplay

    def _commit(self, plan: tuple) -> None:
        storage, _at, _written, w_at, w_cols, r_at, r_cols = plan
        self.detector.enter_launch(storage.shadow, self.task, w_at, w_cols, r_at, r_cols)


_EMPTY = np.zeros(0, np.int64)


def _keyed(chunks: list, digits: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The positions and order keys of the accesses of `chunks`."""
    if not chunks:
        return _EMPTY, _EMPTY
    blocks, epochs, n, seqs = digits
    keys = []
    for c in chunks:
        lanes, blk0, ep, seq = c[1], c[2], c[3], c[6]
        blk = lanes // n
        lid = lanes - blk * n
        keys.append((((blk + blk0) * epochs + ep) * n + lid) * seqs + seq)
    if len(chunks) == 1:
        return chunks[0][0], keys[0]
    return np.concatenate([c[0] for c in chunks]), np.concatenate(keys)
