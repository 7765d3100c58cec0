"""The race detector's side of the lockstep engine (`--detect-races`).

Every load and store of the batch records, per storage the detector tracks,
its positions with the lanes that made them, the op, the barrier epoch and
a sequence number (program order within a lane). Checks, over index arrays:

- workgroup memory (private to a block, gone at its end): at each barrier
  and at the end of the block, the accesses of the interval that ends:
  a position written by one work-item and accessed by another races;
- global memory: at the end of the launch, per storage, each access gets
  one int64 key ordered as the work-item engine runs them (block, barrier
  epoch, work-item, sequence number: program order within a lane), as bit
  fields. The largest write key per position (`np.maximum.at`) is its last
  write; an access to a written position by another block races (blocks
  are never ordered), and the positions also accessed by another work-item
  or in another interval are checked per barrier interval (sorting only
  those): two work-items in one interval, one writing, race. Then each
  position is
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
sorting all accesses. Elementwise launches (in each batch, every access by
all lanes at the same increasing positions, the batches' positions after
each other) skip the keys: each position is one work-item's, in program
order; they are checked and entered batch by batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from xgpu.backend.sim.lockstep.vector import NeedsReplay
from xgpu.runtime.race_shadow import Offset, Span, as_array


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
        #: the positions of the last access recorded
        self._last_pos: Any = _EMPTY
        #: batch size -> (block in the batch, work-item) of each lane
        self._lane_tables: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._lane_columns: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        #: the positions of the interval's workgroup memory accesses, copied
        #: into one buffer reused from interval to interval (`_keep`)
        self._arena: np.ndarray = _EMPTY
        self._used = 0

    def lane_table(self, L: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Per lane of a batch of `L` lanes in blocks of `n`: its block in
        the batch and its work-item (numpy's integer division is slow:
        made once per batch size, then indexed)."""
        table = self._lane_tables.get(L)
        if table is None:
            blk, lid = np.divmod(np.arange(L, dtype=np.int64), n)
            table = self._lane_tables[L] = (blk, lid)
        return table

    def lane_columns(self, L: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """`lane_table` in the shadow tables' column types (int32 blocks,
        int16 work-items: entered without a conversion)."""
        cols = self._lane_columns.get(L)
        if cols is None:
            blk, lid = self.lane_table(L, n)
            cols = self._lane_columns[L] = (blk.astype(np.int32), lid.astype(np.int16))
        return cols

    def _op(self, op: Any) -> int:
        k = self.op_ids.get(id(op))
        if k is None:
            k = self.op_ids[id(op)] = len(self.ops)
            self.ops.append(op)
        return k

    def access(self, S: Any, storage: Any, pos: Any, sel: Any, write: bool, op: Any) -> None:
        if storage.shadow is None:
            return
        count = S.L if sel is None else len(sel)
        if not count:
            return
        if not isinstance(pos, np.ndarray):
            pos = np.full(count, pos, np.int64)
        elif sel is None and storage.kind != "workgroup":
            pos = _span_of(pos)
        if pos is not self._last_pos and _same(pos, self._last_pos):
            # Elementwise kernels access every buffer at the same positions:
            # one array kept for all (a new one kept per access costs fresh
            # memory, and the lane-wise plan then compares by identity).
            pos = self._last_pos
        self._last_pos = pos
        self.seq += 1
        if storage.kind == "workgroup":
            pos = self._keep(pos)
            lid = self.lane_table(S.L, S.n)[1]
            chunk: tuple = (pos, None, lid if sel is None else lid[sel], S.epoch, write)
            table = self.local
        else:
            # The lanes (None: all S.L of them), lanes // n + blk0: the
            # block, lanes % n: the work-item.
            last_blk = S.blk0 + (S.L - 1) // S.n
            chunk = (pos, sel, S.blk0, S.epoch, write, self._op(op), self.seq, S.n, last_blk, S.L)
            table = self.global_
        entry = table.get(id(storage))
        if entry is None:
            table[id(storage)] = (storage, [chunk])
        else:
            entry[1].append(chunk)

    def _keep(self, pos: np.ndarray) -> np.ndarray:
        """`pos` copied into the interval's buffer. Kept until the barrier,
        the position arrays of a whole interval would be freed together, and
        the allocator then gives their memory back to the system, to fault
        it in again in the next interval (a 128x128 tiled matmul's position
        arithmetic took three times as long as without race detection)."""
        k, n = self._used, len(pos)
        if k + n > len(self._arena):
            # The chunks recorded so far keep the old buffer.
            self._arena = np.empty(max(2 * len(self._arena), n, 1 << 16), np.int64)
            k = 0
        view = self._arena[k : k + n]
        view[:] = pos
        self._used = k + n
        return view

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
        self._used = 0  # the buffer is written again from its start

    block_end = barrier

    def finish(self) -> None:
        plans = [
            plan
            for storage, chunks in self.global_.values()
            for plan in self._plans(storage, chunks)
        ]
        for plan in plans:
            self._check(plan)
        for plan in plans:
            self._commit(plan)

    def _plans(self, storage: Any, chunks: list) -> list[tuple]:
        """`_plan` of the launch's accesses to one storage: one plan, or one
        per batch of an elementwise launch (`_plan_lanewise`)."""
        lanewise = self._plan_lanewise(storage, chunks)
        if lanewise is not None:
            return lanewise
        return [self._plan(storage, chunks)]

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
        # One int64 key per access, in that order: bit fields (block, epoch,
        # work-item, sequence number) that give back the block, epoch,
        # work-item and (by the sequence number) op.
        digits = ((epochs - 1).bit_length(), (n - 1).bit_length(), (seqs - 1).bit_length())
        if (blocks - 1).bit_length() + sum(digits) > 62:
            return self._plan_sorted(storage, chunks, n)
        reads = [c for c in chunks if not c[4]]
        writes = [c for c in chunks if c[4]]
        pos_r, key_r = self._keyed(reads, digits)
        pos_w, key_w = self._keyed(writes, digits)
        m = max(int(pos_r.max()) if len(pos_r) else -1, int(pos_w.max()) if len(pos_w) else -1)
        m += 1
        top = np.iinfo(np.int64).max
        sb = digits[2]
        written = _EMPTY
        w_at = w_key = _EMPTY
        wrote = None
        after = None
        if len(pos_w):
            last = np.full(m, -1, np.int64)
            np.maximum.at(last, pos_w, key_w)
            wrote = last >= 0
            written = np.flatnonzero(wrote)
            w_at, w_key = written, last[written]
            # Every access to a written position: by the work-item of its
            # last write, in the same interval (keys alike but for the
            # sequence number), or else in the same block (blocks are never
            # ordered) with a barrier between the accesses of different
            # work-items.
            # (In place where it can: fresh temporaries cost page faults.)
            diff = last[pos_w]
            diff ^= key_w
            diff >>= sb
            odd_w = diff != 0
            odd_r = None
            if len(pos_r):
                lr = last[pos_r]
                after = key_r > lr
                diff = lr ^ key_r
                diff >>= sb
                odd_r = diff != 0
                odd_r &= lr >= 0
            if odd_w.any() or (odd_r is not None and odd_r.any()):
                self._check_mixed(m, last, digits, pos_r, key_r, odd_r, pos_w, key_w, odd_w)
        if after is None:
            pr, kr = pos_r, key_r
        else:
            pr, kr = pos_r[after], key_r[after]
        first = np.full(m, top, np.int64)
        np.minimum.at(first, pr, kr)
        seen = first < top
        r_at = np.flatnonzero(seen)
        if wrote is not None:
            # A read before a position's last write is at a written position.
            seen |= wrote
        w_cols = self._decode(w_key, digits, writes)
        r_cols = self._decode(first[r_at], digits, reads)
        return storage, np.flatnonzero(seen), written, w_at, w_cols, r_at, r_cols

    def _keyed(self, chunks: list, digits: tuple) -> tuple[np.ndarray, np.ndarray]:
        """The positions and order keys of the accesses of `chunks`."""
        if not chunks:
            return _EMPTY, _EMPTY
        eb, nb, sb = digits
        keys = []
        for c in chunks:
            lanes, blk0, ep, seq, n, L = c[1], c[2], c[3], c[6], c[7], c[9]
            if n == 1 << nb and not eb:
                # Blocks of 2^k work-items, no barrier: block and work-item
                # fields together are the launch-wide lane.
                if lanes is None:
                    key = np.arange(blk0 << nb, (blk0 << nb) + L, dtype=np.int64)
                else:
                    key = lanes.astype(np.int64) + (blk0 << nb)
            else:
                blk, lid = self.lane_table(L, n)
                if lanes is not None:
                    blk, lid = blk[lanes], lid[lanes]
                key = blk + blk0
                key <<= eb
                key |= ep
                key <<= nb
                key |= lid
            key <<= sb
            key |= seq
            keys.append(key)
        if len(chunks) == 1:
            return as_array(chunks[0][0]), keys[0]
        return np.concatenate([as_array(c[0]) for c in chunks]), np.concatenate(keys)

    def _plan_lanewise(self, storage: Any, chunks: list) -> list[tuple] | None:
        """`_plan` where, in each batch, every access is by all lanes of the
        batch, each lane at its own position, the same in every access
        (elementwise kernels), and the batches' positions follow each other
        (increasing, so disjoint): each position is one work-item's, so no
        race among them, and its last write and first read after it are
        those of program order in its batch. One plan per batch (their
        positions are disjoint: checked and entered one by one, nothing is
        joined into launch-wide arrays); None where that does not hold."""
        batches: dict[int, list] = {}
        for c in chunks:
            if c[1] is not None:
                return None
            batches.setdefault(c[2], []).append(c)
        parts = []
        end = None
        for blk0 in sorted(batches):
            group = batches[blk0]
            c0 = group[0]
            pos = c0[0]
            if any(c[9] != c0[9] for c in group):
                return None
            if not isinstance(pos, Span) and len(pos) > 1 and not np.all(pos[1:] > pos[:-1]):
                return None
            if end is not None and len(pos) and pos[0] <= end:
                return None
            if any(c[0] is not pos and not _same(c[0], pos) for c in group[1:]):
                return None
            if len(pos):
                end = pos[-1]
            parts.append((storage, *self._lanewise_batch(group)))
        return parts

    def _lanewise_batch(self, chunks: list) -> tuple:
        """(positions, written, w_at, w_cols, r_at, r_cols) of one batch's
        accesses for `_plan_lanewise`."""
        c0 = chunks[0]
        pos = c0[0]
        blk, lid = self.lane_columns(c0[9], c0[7])
        # The blocks are the batch's (from its first, c0[2]): added when the
        # plan is entered (`_commit`), not kept for every batch.
        blk = Offset(blk, c0[2])

        def cols(c: tuple) -> tuple:
            return (blk, lid, c[3], self.detector.op_index(self.ops[c[5]]))

        none = (_EMPTY, (_EMPTY,) * 4)
        writes = [c for c in chunks if c[4]]
        after = chunks
        written, (w_at, w_cols) = _EMPTY, none
        if writes:
            last = max(writes, key=lambda c: c[6])
            after = [c for c in chunks if c[6] > last[6]]
            written, w_at, w_cols = pos, pos, cols(last)
        r_at, r_cols = none
        if after:
            r_at, r_cols = pos, cols(min(after, key=lambda c: c[6]))
        return pos, written, w_at, w_cols, r_at, r_cols

    def _decode(self, key: np.ndarray, digits: tuple, chunks: list) -> tuple:
        """(block, work-item, epoch, op index) of each key of `chunks`'
        accesses (scalars where all are alike)."""
        eb, nb, sb = digits
        ops = {c[5] for c in chunks}
        if len(ops) == 1:
            op: Any = self.detector.op_index(self.ops[ops.pop()])
        else:
            op = self._op_by_seq()[key & ((1 << sb) - 1)]
        if isinstance(op, np.ndarray):
            op = op.astype(np.int32)
        # In the shadow tables' column types: the plan is kept as the
        # launch's details (`race_shadow.Table.put_detail`).
        rest = key >> sb
        lid = (rest & ((1 << nb) - 1)).astype(np.int16)
        rest >>= nb
        if not eb:
            return rest.astype(np.int32), lid, 0, op
        return (rest >> eb).astype(np.int32), lid, (rest & ((1 << eb) - 1)).astype(np.int32), op

    def _op_by_seq(self) -> np.ndarray:
        """Per sequence number: the index of its op in the detector's table."""
        table = np.zeros(self.seq + 1, np.int32)
        ops = [self.detector.op_index(op) for op in self.ops]
        for _storage, chunks in self.global_.values():
            for c in chunks:
                table[c[6]] = ops[c[5]]
        return table

    @staticmethod
    def _check_mixed(m, last, digits, pos_r, key_r, odd_r, pos_w, key_w, odd_w) -> None:
        """The written positions accessed by another work-item or in another
        interval than their last write's (`odd_r`, `odd_w`): another block
        races (blocks are never ordered); else two work-items of one block
        that access a position in one barrier interval, one of them
        writing, race (`NeedsReplay`)."""
        eb, nb, sb = digits
        shift = sb + nb + eb
        block = last >> shift
        if np.any((key_w[odd_w] >> shift) != block[pos_w[odd_w]]):
            raise NeedsReplay
        picked = np.zeros(m, bool)
        picked[pos_w[odd_w]] = True
        if odd_r is not None:
            if np.any((key_r[odd_r] >> shift) != block[pos_r[odd_r]]):
                raise NeedsReplay
            picked[pos_r[odd_r]] = True
        parts = [(pos_w, key_w, True)]
        if odd_r is not None:
            parts.append((pos_r, key_r, False))
        sel = [(p[picked[p]], k[picked[p]], wr) for p, k, wr in parts]
        pos = np.concatenate([s[0] for s in sel])
        key = np.concatenate([s[1] for s in sel])
        wr = np.concatenate([np.full(len(s[0]), s[2]) for s in sel])
        rest = key >> sb
        interval = rest >> nb  # block and epoch
        lid = rest & ((1 << nb) - 1)
        order = np.lexsort((interval, pos))
        pos, interval, lid, wr = pos[order], interval[order], lid[order], wr[order]
        edge = np.r_[True, (pos[1:] != pos[:-1]) | (interval[1:] != interval[:-1])]
        start = np.flatnonzero(edge)
        anyw = np.logical_or.reduceat(wr, start)
        if np.any(anyw & (np.minimum.reduceat(lid, start) != np.maximum.reduceat(lid, start))):
            raise NeedsReplay

    def _plan_sorted(self, storage: Any, chunks: list, n: int) -> tuple:
        """`_plan` by sorting the accesses (keys too wide for one int64)."""
        pos = np.concatenate([as_array(c[0]) for c in chunks])
        blk = np.concatenate([_lanes(c) // n + c[2] for c in chunks])
        lid = np.concatenate([_lanes(c) % n for c in chunks])

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


def _same(a: Any, b: Any) -> bool:
    """Whether the positions `a` and `b` (arrays or spans) are equal."""
    if isinstance(a, Span) or isinstance(b, Span):
        return isinstance(a, Span) and isinstance(b, Span) and a.start == b.start and a.n == b.n
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))


def _span_of(pos: np.ndarray) -> Any:
    """`pos` as a `Span` where it is a run of consecutive positions, else
    itself (a launch keeps the positions it entered: a span holds none)."""
    n = len(pos)
    if n < 2:
        return pos
    first = int(pos[0])
    if int(pos[-1]) - first != n - 1:
        return pos
    if n > 2 and not bool((pos[1:] - pos[:-1] == 1).all()):
        return pos
    return Span(first, n)


def _lanes(chunk: tuple) -> np.ndarray:
    """The lanes of a chunk of global memory accesses (int64)."""
    if chunk[1] is None:
        return np.arange(chunk[9], dtype=np.int64)
    return chunk[1].astype(np.int64, copy=False)
