"""The simulator's lockstep engine: a block (or many blocks) at a time.

The work-item engine (`xgpu.backend.sim.workgroup`) runs one work-item after
another, each op as Python code on Python values. This engine runs every
work-item of a batch together, one numpy operation per IR op over all of
their lanes (`codegen`: the generated code; `vector`: arith and math over
lanes; `memory`: loads, stores, checks, barriers; `races`: the race
detector's side). Uniform values stay Python values, varying ones are
arrays, divergent control flow runs under masks, and a `gpu.barrier` is a
point the whole block reaches together by construction.

Which engine runs a launch (`select`):

- kernels with ops this engine does not handle run on the work-item engine:
  `gpu.printf` (its output order is the work-items'), calls, subgroup ops
  other than `gpu.subgroup_reduce` (shuffles, rotates, broadcasts, the
  `gpu.subgroup_mma_*` ops, ...),
  `gpu.all_reduce` regions with ops other than arith/math ones, private
  memory (`memref.alloca`,
  private attributions), unstructured control flow (cf branches), vector
  types, memrefs that differ between work-items, `scf.while` loops that read
  memory (spin loops wait for other work-items: they need the work-item
  order), `scf.parallel`;
- `XGPU_SIM_ENGINE=workitem` forces the work-item engine, `lockstep` (or
  `auto`, the default) uses this one where it can.

Batches: a kernel without barriers, workgroup memory or dynamic shared
memory runs as batches of up to `MAX_LANES` lanes (whole blocks, in the
work-item engine's block order); others run one block at a time.

Collectives (`collective`): `gpu.all_reduce` (kind or region form) and
`gpu.subgroup_reduce` (whole or clustered) reduce every block or subgroup of
the batch at once, in `SimOptions.reduction`'s order, with the combiner's
vector form. Every lane of the block (subgroup) must reach them; otherwise,
and for partial subgroups, the launch is replayed (see below).

Failures: a launch runs with the memory it may write saved first (`_saved`).
When anything fails in lockstep (out of bounds, freed memory, a read of
never-written memory, undefined behaviour, a divergent barrier, a data race
under `--detect-races`, any Python error), the memory is restored and the
whole launch is replayed on the work-item engine, which reports the failure
it always reported: the first in its order (lowest block, then lowest
linear local id, then program order), with the same message. The lockstep
run itself never reports anything, so both engines fail identically by
construction. Timeouts (`--timeout`) stop either engine the same way.

Programs with data races may compute different values on the two engines
(the work-item engine runs a work-item to its next barrier before the next
one starts, lockstep runs them op by op); `--detect-races` reports them.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from xgpu.backend.sim.lockstep.codegen import LockstepCompiler, Unsupported
from xgpu.backend.sim.lockstep.memory import Batch, batch_memory, frozen
from xgpu.backend.sim.workgroup import Launch, _Expired

#: lanes of a batch of a kernel without barriers: each IR op makes arrays of
#: this many lanes, which the allocator reuses from batch to batch (at 2^20
#: lanes each array was fresh memory, and its page faults were most of a
#: 2^20-element saxpy's time: 40-250 ms against 21 ms now)
MAX_LANES = 1 << 16
#: lanes of a batch of a kernel with barriers or workgroup memory
MAX_BARRIER_LANES = 1 << 16
ENGINES = ("auto", "lockstep", "workitem")


def engine_choice() -> str:
    value = os.environ.get("XGPU_SIM_ENGINE", "auto") or "auto"
    return value if value in ENGINES else "auto"


def _batched(func_op: Any) -> bool:
    """Whether blocks of the kernel can run together: no dynamic shared
    memory, and workgroup attributions only loaded and stored."""
    if any(op.name == "gpu.dynamic_shared_memory" for op in func_op.walk()):
        return False
    entry = func_op.body.blocks.first
    if entry is None:
        return False
    n_inputs = len(func_op.function_type.inputs.data)
    for value in list(entry.args)[n_inputs : n_inputs + func_op.num_workgroup_attributions]:
        for use in value.uses:
            name = use.operation.name
            if name not in ("memref.load", "memref.store") or use.index != (
                0 if name == "memref.load" else 1
            ):
                return False
    return True


def select(program: Any, kernel: str, options: Any, hooks: Any) -> tuple[Any, bool] | None:
    """(lockstep function, batched) for `kernel`, or None: the work-item engine."""
    if engine_choice() == "workitem":
        return None
    cache = program.lockstep
    if kernel in cache:
        return cache[kernel]
    func_op = program.func_ops[kernel]
    if kernel in program.spinning:
        # A spin loop may wait for another kernel: the work-item engine
        # yields at each of its iterations (`kernel.is_spin_loop`).
        cache[kernel] = None
        return None
    batched = _batched(func_op)
    if options is None:
        options = program.options
    try:
        fn = LockstepCompiler(program, func_op, batched, options, hooks).compile()
        result: tuple[Any, bool] | None = (fn, batched)
    except Unsupported:
        result = None
    except Exception:  # anything the generator did not expect: the safe engine
        result = None
    cache[kernel] = result
    return result


class LockstepLaunch(Launch):
    """A launch run by the lockstep engine, replayed by the work-item engine
    when anything fails (see the module docstring)."""

    def __init__(self, fn: Any, batched: bool, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fn = fn
        self.batched = batched
        self.engine = "lockstep"
        self.barriers = any(
            op.name == "gpu.barrier" for op in self.program.func_ops[self.kernel].walk()
        )

    def _run(self) -> None:
        saved = self._saved()
        recorder = None
        if self.races is not None:
            from xgpu.backend.sim.lockstep.races import Recorder

            recorder = Recorder(self.races, self.task, self.block)
        try:
            with np.errstate(all="ignore"):
                self._run_lockstep(recorder)
            if recorder is not None:
                recorder.finish()
            return
        except _Expired:
            raise
        except Exception:
            pass
        self._restore(saved)
        self.work_items = 0
        self.engine = "workitem"
        super()._run()

    def _saved(self) -> list[tuple[Any, np.ndarray, bytes | None]]:
        seen: dict[int, Any] = {}
        for value in (*self.args, *self.program.device_globals.values()):
            st = getattr(value, "storage", None)
            if st is not None and not st.released:
                seen.setdefault(id(st), st)
        saved = []
        for st in seen.values():
            data = st.buf if st.buf is not None else st.host
            if data is None:
                continue
            saved.append((st, data.copy(), bytes(st.init) if st.init is not None else None))
        return saved

    @staticmethod
    def _restore(saved: list) -> None:
        for st, data, init in saved:
            target = st.buf if st.buf is not None else st.host
            target[...] = data
            if init is not None and st.init is not None:
                st.init[:] = init

    def _run_lockstep(self, recorder: Any) -> None:
        nx, ny, nz = self.block
        gx, gy, gz = self.grid
        n = nx * ny * nz
        nblocks = gx * gy * gz
        if n == 0 or nblocks == 0:
            return
        lid = np.arange(n, dtype=np.int64)
        tz0, rem = np.divmod(lid, nx * ny)
        ty0, tx0 = np.divmod(rem, nx)
        sizes = (nx, ny, nz, gx, gy, gz)
        if self.batched:
            specs = self._workgroup_specs()
            per = max(1, (MAX_BARRIER_LANES if specs or self.barriers else MAX_LANES) // n)
            #: batch size (in blocks) -> the lanes' block in the batch, thread
            #: ids and a zero per lane (all batches but the last share them)
            shapes: dict[int, tuple] = {}
            for first in range(0, nblocks, per):
                if self.deadline is not None:
                    self._in_time()
                count = min(per, nblocks - first)
                shape = shapes.get(count)
                if shape is None:
                    shape = shapes[count] = tuple(
                        frozen(a)
                        for a in (
                            np.repeat(np.arange(count, dtype=np.int64), n),
                            *(np.tile(a, count) for a in (tx0, ty0, tz0)),
                            np.zeros(count * n, np.int64),
                        )
                    )
                rep, tx, ty, tz, zero = shape
                blk = rep + first
                if gx * gy == 1:
                    bx = by = zero
                    bz = blk
                elif gy * gz == 1:
                    bx, by, bz = blk, zero, zero
                else:
                    bz, brem = np.divmod(blk, gx * gy)
                    by, bx = np.divmod(brem, gx)
                L = count * n
                S = Batch(L, n, self.sg_size, None, recorder, first)
                wg = [batch_memory(dt, shape, label, count, n) for dt, shape, label in specs]
                if self.races is not None:
                    for m in wg:
                        self.races.track(m.storage)
                self.fn(S, L, tx, ty, tz, bx, by, bz, *sizes, *self.args, *wg)
                if recorder is not None:
                    recorder.block_end(S)
                self.work_items += L
            return
        specs = self._workgroup_specs()
        for blk, bids in enumerate(self._blocks()):
            if self.deadline is not None:
                self._in_time()
            wg, dsm = self._block_memory(specs, bids)
            S = Batch(n, n, self.sg_size, dsm, recorder, blk)
            self.fn(S, n, tx0, ty0, tz0, *bids, *sizes, *self.args, *wg)
            if recorder is not None:
                recorder.block_end(S)
            self.work_items += n
