"""The race detector's array shadow and its bulk API.

- `bulk_access` (GPU copies, fills, frees, host range accesses) against the
  same accesses made element by element with `access`: the same reports, in
  the same order, and the same record left behind;
- the lockstep engine's plan of a launch (one order key per access) against
  the plan made by sorting all accesses;
- what the read slots keep: one slot for reads ordered one after the other,
  one per unordered reader, two work-items of one block and interval of a
  launch, and races still found; shadows made lazily with compact columns;
- a table's uniform columns and details (`Table.put_detail`) against a
  model that stores every access whole: the same access at every element
  after any sequence of puts, detail puts, clears, growth and pruning.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xgpu.backend.sim.lockstep.races import Recorder
from xgpu.backend.sim.lockstep.vector import NeedsReplay
from xgpu.runtime.memref import Storage
from xgpu.runtime.race_shadow import NONE
from xgpu.runtime.races import RaceDetector
from xgpu.runtime.sim_device import Task

N = 6


class Op:
    def __init__(self, name: str):
        self.name = name


def storage(n: int = N) -> Storage:
    data = np.zeros(n, np.float32)
    st_ = Storage(data, data, data.nbytes, "shared")
    st_.name = "%b"
    st_.shape = (n,)
    return st_


def record(det: RaceDetector, shadow) -> set:
    """The accesses the shadow holds: per element its write and its reads."""
    out = set()
    for p in range(shadow.size):
        w = shadow.write.get(p)
        reads = frozenset(t.get(p) for t in shadow.reads if t.get(p)[0] != NONE)
        if w[0] != NONE or reads:
            out.add((p, w if w[0] != NONE else None, reads))
    return out


steps = st.lists(
    st.tuples(
        st.sampled_from(["task", "host", "observe"]),
        st.booleans(),  # write
        st.lists(st.integers(0, N - 1), min_size=1, max_size=8),  # positions
        st.lists(st.integers(0, 7), max_size=3),  # dependencies (earlier tasks)
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_bulk_access_is_access_element_by_element(program) -> None:
    dets = [RaceDetector(), RaceDetector()]
    stores = [storage(), storage()]
    for det, s in zip(dets, stores):
        det.track(s)
    tasks: list[list[Task]] = [[], []]
    ops = [Op("gpu.memcpy"), Op("gpu.memset"), Op("memref.load"), Op("memref.store")]
    for k, (kind, write, positions, deps) in enumerate(program):
        for side, (det, s) in enumerate(zip(dets, stores)):
            mine = tasks[side]
            if kind == "observe":
                det.host_observes([mine[d % len(mine)] for d in deps] if mine else [])
                continue
            task = None
            if kind == "task":
                task = Task(k, (), "gpu.memcpy" if k % 2 else "gpu.memset", None)
                det.issue(task, [mine[d % len(mine)] for d in deps] if mine else [])
                mine.append(task)
            op = ops[k % len(ops)]
            if side == 0:
                det.bulk_access(s.shadow, np.array(positions, np.int64), write, task, op)
            else:
                blk = det.host_epoch if task is None else -1
                for p in positions:
                    det.access(s.shadow, p, write, (task, blk, -1, 0, op))
    assert [(r.message, r.note) for r in dets[0].races] == [
        (r.message, r.note) for r in dets[1].races
    ]
    assert record(dets[0], stores[0].shadow) == record(dets[1], stores[1].shadow)


class FakeDetector:
    def op_index(self, op: object) -> int:
        return int(op)  # type: ignore[call-overload]


class Batch:
    def __init__(self, L: int, n: int, blk0: int, epoch: int):
        self.L, self.n, self.blk0, self.epoch = L, n, blk0, epoch


class Global:
    shadow = object()
    kind = "global"


chunks = st.tuples(
    st.integers(1, 4),  # work-items per block (powers of two and not)
    st.lists(
        st.tuples(
            st.integers(0, 2),  # batch (blocks 2b, 2b + 1)
            st.integers(0, 1),  # barriers passed before
            st.booleans(),  # write
            st.integers(0, 3),  # op
            st.lists(st.tuples(st.integers(0, 7), st.integers(0, 11)), min_size=1, max_size=4),
            st.sampled_from(["some", "own", "all"]),  # lanes: those drawn, at their own
            # position (the launch-wide lane), or every lane at its own position
        ),
        min_size=1,
        max_size=8,
    ),
)


def plan_of(rec: Recorder, sorted_: bool):
    storage_, chunks_ = next(iter(rec.global_.values()))
    try:
        if sorted_:
            plan = rec._plan_sorted(storage_, chunks_, chunks_[0][7])
        else:
            plan = rec._plan(storage_, chunks_)
    except NeedsReplay:
        return "race"
    _, at, written, w_at, w_cols, r_at, r_cols = plan

    def rows(at_, cols):
        cols = (np.broadcast_to(c, at_.shape).tolist() for c in cols)
        return sorted(zip(at_.tolist(), *cols))

    return (sorted(at.tolist()), sorted(written.tolist()), rows(w_at, w_cols), rows(r_at, r_cols))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chunks)
def test_the_keyed_plan_is_the_sorted_plan(case) -> None:
    # Blocks of n work-items, 2 blocks per batch; each access: lanes and
    # positions (a lane at most once per access).
    n, program = case
    rec = Recorder(FakeDetector(), None, (n, 1, 1))
    for batch, epoch, write, op, lanes, how in sorted(program, key=lambda c: (c[0], c[1])):
        if how == "all":
            sel = None
            pos = np.arange(2 * n, dtype=np.int64) + 2 * n * batch
        else:
            seen: dict[int, int] = {}
            for lane, p in lanes:
                lane %= 2 * n
                seen.setdefault(lane, 2 * n * batch + lane if how == "own" else p)
            sel = np.array(sorted(seen), np.int64)
            pos = np.array([seen[k] for k in sorted(seen)], np.int64)
        rec.access(Batch(2 * n, n, 2 * batch, epoch), Global, pos, sel, write, op)
    assert plan_of(rec, False) == plan_of(rec, True)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 4),
    st.lists(st.tuples(st.booleans(), st.integers(0, 3)), min_size=1, max_size=6),
    st.integers(0, 2),
)
def test_elementwise_launches_plan_as_the_sorted_plan(n, accesses, batch) -> None:
    # Every access by all lanes of one batch, each lane at its own position
    # (the shortcut for elementwise kernels), barriers between some.
    rec = Recorder(FakeDetector(), None, (n, 1, 1))
    pos = np.arange(2 * n, dtype=np.int64) * 3 + 1
    for k, (write, op) in enumerate(accesses):
        rec.access(Batch(2 * n, n, 2 * batch, k // 2), Global, pos.copy(), None, write, op)
    assert plan_of(rec, False) == plan_of(rec, True)


def test_reads_ordered_one_after_the_other_keep_one_slot() -> None:
    det = RaceDetector()
    s = storage(1 << 10)
    det.track(s)
    load = Op("memref.load")
    prev: list[Task] = []
    for k in range(40):
        t = Task(k, (), f"task {k}", None)
        det.issue(t, prev[-1:])
        det.bulk_access(s.shadow, np.arange(1 << 10), False, t, load)
        prev.append(t)
    assert len(s.shadow.reads) == 1
    assert set(s.shadow.reads[0].column("task").tolist()) == {39}
    # A write after the last reader races with none; the host's write
    # without a wait races with the last reader only.
    det.access(s.shadow, 3, True, (None, det.host_epoch, -1, 0, Op("memref.store")))
    assert [r.other_task for r in det.races] == [prev[-1]]


def test_unordered_readers_keep_a_slot_each_and_a_write_finds_the_unordered_one() -> None:
    det = RaceDetector()
    s = storage(8)
    det.track(s)
    readers = [Task(k, (), f"reader {k}", None) for k in range(4)]
    for t in readers:
        det.issue(t, [])
        det.bulk_access(s.shadow, np.arange(8), False, t, Op("gpu.memcpy"))
    assert len(s.shadow.reads) == 4
    writer = Task(9, (), "writer", None)
    det.issue(writer, readers[:2] + readers[3:])
    det.bulk_access(s.shadow, np.arange(8), True, writer, Op("gpu.memset"))
    assert [(r.task, r.other_task) for r in det.races] == [(writer, readers[2])]
    assert "%b[0]" in det.races[0].message
    # The write cleared every read slot.
    assert all((t.column("task") == NONE).all() for t in s.shadow.reads)


def test_shadows_are_made_on_first_access_with_compact_columns() -> None:
    det = RaceDetector()
    s = storage(1 << 22)
    shadow = det.track(s)
    assert shadow.size == 0 and not shadow.reads
    t = Task(0, (), "gpu.memset", None)
    det.issue(t, [])
    det.bulk_access(shadow, np.array([5]), True, t, Op("gpu.memset"))
    assert shadow.size == 1 << 22
    cols = shadow.write
    shadow.plain()
    assert cols.task.dtype == np.int32 and cols.lid.dtype == np.int16
    # An access past the known size grows the arrays.
    det.access(shadow, (1 << 22) + 3, False, (None, det.host_epoch, -1, 0, Op("memref.load")))
    assert shadow.size > (1 << 22) + 3


class WorkItem:
    def __init__(self, task: Task, blk: int, lid: int, epoch: int):
        self.task, self.blk, self.lid = task, blk, lid
        self.bs = type("BlockState", (), {"epoch": epoch})()


def test_reads_of_one_launch_keep_two_work_items_of_an_interval() -> None:
    det = RaceDetector()
    s = storage(4)
    shadow = det.track(s)
    t = Task(0, (), "gpu.launch_func @k::@k", None)
    t.launch_block, t.launch_grid = (4, 1, 1), (2, 1, 1)
    det.issue(t, [])
    load, store = Op("memref.load"), Op("memref.store")
    for lid in (0, 1, 2, 3):
        det.kernel_access(shadow, 0, False, WorkItem(t, 0, lid, 0), load)
    kept = sorted(tab.get(0)[2] for tab in shadow.reads if tab.get(0)[0] != NONE)
    assert kept == [0, 1]
    # Work-item 1 writes: it races with work-item 0's read.
    det.kernel_access(shadow, 0, True, WorkItem(t, 0, 1, 0), store)
    assert len(det.races) == 1
    assert det.races[0].message.startswith(
        "data race: memref.store by work-item (1, 0, 0) of block (0, 0, 0)"
    )
    assert "which memref.load by work-item (0, 0, 0) of block (0, 0, 0)" in det.races[0].message
    # After a barrier: a read of a later interval replaces the earlier ones;
    # one of block 1 adds nothing (block 0's read races with all of block 1).
    # (Other ops: each race is reported once per pair of ops.)
    load2, store2 = Op("memref.load"), Op("memref.store")
    det.kernel_access(shadow, 1, False, WorkItem(t, 0, 2, 0), load2)
    det.kernel_access(shadow, 1, False, WorkItem(t, 0, 3, 1), load2)
    det.kernel_access(shadow, 1, False, WorkItem(t, 1, 0, 0), load2)
    kept1 = [tab.get(1)[1:4] for tab in shadow.reads if tab.get(1)[0] != NONE]
    assert kept1 == [(0, 3, 1)]
    det.kernel_access(shadow, 1, True, WorkItem(t, 1, 0, 0), store2)
    assert len(det.races) == 2
    assert "work-items of different blocks are not ordered" in det.races[-1].message
    assert "which memref.load by work-item (3, 0, 0) of block (0, 0, 0)" in det.races[-1].message


# -- Table: uniform columns and details against a plain model --------------- #

M = 12


def _where(draw, n: int):
    """A slice (sometimes the whole table) or distinct increasing positions."""
    kind = draw(st.sampled_from(["full", "slice", "array"]))
    if kind == "full":
        return slice(0, n)
    if kind == "slice":
        a = draw(st.integers(0, n - 1))
        b = draw(st.integers(a + 1, n))
        return slice(a, b)
    picked = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True))
    return np.array(sorted(picked), np.int64)


@st.composite
def table_steps(draw):
    steps = []
    n = M
    for _ in range(draw(st.integers(1, 14))):
        what = draw(st.sampled_from(["put", "put", "detail", "detail", "clear", "grow", "prune"]))
        if what == "grow":
            n += draw(st.integers(1, 6))
            steps.append(("grow", n))
            continue
        if what == "prune":
            steps.append(("prune",))
            continue
        ix = _where(draw, n)
        count = ix.stop - ix.start if isinstance(ix, slice) else len(ix)
        cols = []
        for _k in range(4):
            form = draw(st.sampled_from(["scalar", "array", "offset"]))
            if form == "scalar" or (what == "put" and form == "offset"):
                cols.append(draw(st.integers(-1, 9)))
            elif form == "array":
                cols.append(
                    np.array(
                        draw(st.lists(st.integers(-1, 9), min_size=count, max_size=count)), np.int64
                    )
                )
            else:
                base = np.array(
                    draw(st.lists(st.integers(0, 9), min_size=count, max_size=count)), np.int64
                )
                cols.append(draw(st.integers(0, 5)))
                cols[-1] = ("offset", base, cols[-1])
        task = draw(st.sampled_from([-2, 0, 1, 2, 3, 4, 5]))
        steps.append((what, ix, task, tuple(cols)))
    return steps


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_steps(), st.sampled_from([2, 4, 32]))
def test_table_uniform_columns_and_details_hold_every_access(steps, max_runs: int) -> None:
    from xgpu.runtime import race_shadow

    saved = race_shadow.MAX_RUNS
    race_shadow.MAX_RUNS = max_runs  # task columns of runs, and runs made arrays
    try:
        _check_table(steps)
    finally:
        race_shadow.MAX_RUNS = saved


def _check_table(steps) -> None:
    from xgpu.runtime.race_shadow import Offset, Table

    table = Table(M)
    model: dict[int, tuple] = {}
    n = M
    for step in steps:
        if step[0] == "grow":
            n = step[1]
            table.grow(n)
            continue
        if step[0] == "prune":
            table._prune()
            continue
        what, ix, task, cols = step
        cols = tuple(Offset(c[1], c[2]) if isinstance(c, tuple) else c for c in cols)
        positions = list(range(ix.start, ix.stop)) if isinstance(ix, slice) else ix.tolist()
        if what == "clear":
            table.clear(ix)
            for p in positions:
                model.pop(p, None)
            continue
        if what == "detail" and task < 0:
            task = 6  # details are a kernel task's
        if what == "put":
            table.put(ix, task, *cols)
        else:
            table.prune_at = 4  # prune often
            table.put_detail(ix, task, cols)
        for j, p in enumerate(positions):
            model[p] = (task, *(int(c[j]) if not isinstance(c, int) else c for c in cols))
    for p in range(n):
        got = table.get(p)
        assert (got if got[0] != NONE else None) == model.get(p), p
    held = np.array(sorted(model), np.int64)
    if len(held):
        resolved = table.resolve(held)
        for k, p in enumerate(held.tolist()):
            assert tuple(int(r[k]) for r in resolved) == model[p][1:], p
    table.make_plain()
    assert table.is_plain
    for p in range(n):
        got = table.get(p)
        assert (got if got[0] != NONE else None) == model.get(p), p


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(-3, 12)), min_size=1, max_size=3),
    st.integers(0, 20),
)
def test_view_positions_of_any_view(dims, offset) -> None:
    """The positions of a view's elements, built whole or as one run of
    consecutive elements: those of the element-by-element walk; and a view
    counts as row-major exactly where they increase."""
    from types import SimpleNamespace

    from xgpu.runtime.view_positions import row_major, view_positions, view_positions_array

    m = SimpleNamespace(sizes=[d[0] for d in dims], strides=[d[1] for d in dims], offset=offset)
    walk = view_positions(m)
    assert view_positions_array(m).tolist() == walk
    if walk:
        assert row_major(m) == all(b > a for a, b in zip(walk, walk[1:]))
