"""Running one kernel launch, block by block, work-item by work-item.

Blocks run one after the other (x fastest, then y, then z); inside a block
the work-items run in linear local-id order (x fastest). A kernel without
synchronizing ops runs each work-item to completion in turn. A kernel with
them (a generator, see `kernel`) runs every work-item up to its next request:

- `("block", op, combine, payload)`: `gpu.barrier` (no combine) or
  `gpu.all_reduce`: once every work-item of the block waits at the same op,
  `combine(payloads in linear order)` gives each its result, and all resume.
  A barrier ends a *barrier interval*: the block's `epoch` counts them, and
  the race detector orders the accesses of different intervals;
- `("subgroup", op, combine, payload)`: the subgroup ops; resolved as soon as
  every work-item of the subgroup (lanes `subgroup_size` by `subgroup_size`
  in linear order, the last subgroup possibly partial) waits at the same op.

A block where some work-items wait at a barrier (or collective) that others
never reach (they returned, or wait at another op) is an error: MLIR and
OpenCL require every work-item of the block to reach each barrier.

Failures inside a work-item (`kernel.OutOfBounds`, `Uninitialized`, `Freed`,
undefined behaviour, ...) become an `OpFailure` at the op that failed, naming
the work-item, the block and the indices (read from the frame's locals).

Launch sizes are checked before a launch is issued (`sim_device`,
`xgpu.runtime.launch_limits.SIM_LIMITS`); blocks are made one at a time. With
a timeout, a launch that runs longer is ended with an error at the
`gpu.launch_func`: the clock is read between work-items, and a timer thread
interrupts a work-item that loops forever (`_Alarm`).
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation

from xgpu.backend.sim.asserts import KernelAssertion, message_of, origin_of
from xgpu.backend.sim.kernel import (
    SPIN,
    Freed,
    KernelProgram,
    OutOfBounds,
    Uninitialized,
    new_memory,
    write_output,
)
from xgpu.ir.locations import assertion_line
from xgpu.runtime.compile_host import python_error_message
from xgpu.runtime.memref import MemRef, OpFailure, RuntimeFailure, numpy_dtype


class _Expired(BaseException):
    """The launch's time is up (a BaseException: kernels' `except Exception`
    handlers must not catch it)."""


class _Alarm:
    """Interrupts the launching thread with `_Expired` after `seconds`: a
    timer thread raises it there asynchronously (`PyThreadState_SetAsyncExc`,
    at the next bytecode), so a work-item that loops forever stops too, in any
    thread and without touching the program's signal handlers."""

    def __init__(self, seconds: float):
        self.ident = threading.get_ident()
        self.lock = threading.Lock()
        self.done = False
        self.fired = False
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()

    def _fire(self) -> None:
        with self.lock:
            if self.done:
                return
            self.fired = True
            _set_async_exc(self.ident, _Expired)

    def disarm(self) -> None:
        """No interruption after this returns (a pending one is dropped)."""
        with self.lock:
            if self.done:
                return
            self.done = True
            self.timer.cancel()
            if self.fired:
                _set_async_exc(self.ident, None)


def _set_async_exc(ident: int, exc: type[BaseException] | None) -> None:
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exc) if exc is not None else None
    )


class BlockState:
    __slots__ = ("epoch", "dsm", "ids")

    def __init__(self, ids: tuple[int, int, int], dsm: MemRef | None):
        self.epoch = 0
        self.dsm = dsm
        self.ids = ids


class WorkItem:
    """What a running work-item carries besides its ids."""

    __slots__ = ("task", "blk", "lid", "bs", "lane", "sg", "sgn", "nsg", "out")

    def __init__(self, task: Any, blk: int, lid: int, bs: BlockState, sg_size: int, n: int, out):
        self.task = task
        self.blk = blk
        self.lid = lid
        self.bs = bs
        self.lane = lid % sg_size
        self.sg = lid // sg_size
        self.sgn = min(sg_size, n - self.sg * sg_size)
        self.nsg = (n + sg_size - 1) // sg_size
        self.out = out


def unlinear(lid: int, dims: Sequence[int]) -> tuple[int, int, int]:
    nx, ny = dims[0], dims[1]
    z, rem = divmod(lid, nx * ny)
    y, x = divmod(rem, nx)
    return x, y, z


def _fmt3(ids: Sequence[int]) -> str:
    return f"({ids[0]}, {ids[1]}, {ids[2]})"


# How failures of a work-item are worded (the OpenCL runtime's bounds checks,
# `xgpu.runtime.fault_record`, report theirs with the same functions).


def who_text(local_ids: Sequence[int], block_ids: Sequence[int]) -> str:
    """`work-item (x, y, z) of block (x, y, z)`."""
    return f"work-item {_fmt3(local_ids)} of block {_fmt3(block_ids)}"


def element_text(label: str, indices: Sequence[Any]) -> str:
    """An element of the memory `label` names (`%d{}` with `{}` where the
    indices go, e.g. `%s{} (workgroup memory of block (0, 0, 0))`)."""
    return label.format(f"[{', '.join(map(str, indices))}]")


def out_of_bounds_message(elem: str, sizes: Sequence[Any], who: str, symbol: str) -> str:
    return f"out-of-bounds access to {elem} (sizes [{', '.join(map(str, sizes))}]) by {who} of {symbol}"


def failure_message(message: str, who: str, symbol: str) -> str:
    """A `RuntimeFailure` of a work-item (a bad subview, ...)."""
    return f"{message} ({who} of {symbol})"


def block_label(kind: str, block_ids: Sequence[int]) -> str:
    """What follows the name of memory private to one block."""
    if kind == "dsm":
        return f" (of block {_fmt3(block_ids)})"
    return f" (workgroup memory of block {_fmt3(block_ids)})"


class Launch:
    """One `gpu.launch_func` being simulated."""

    def __init__(
        self,
        program: KernelProgram,
        kernel: str,
        symbol: str,
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        args: Sequence[Any],
        shmem: int,
        task: Any,
        sg_size: int,
        out: Any,
        races: Any = None,
        timeout: float | None = None,
    ):
        self.program = program
        self.kernel = kernel
        self.symbol = symbol
        self.grid = grid
        self.block = block
        self.args = list(args)
        self.shmem = shmem
        self.task = task
        self.sg_size = sg_size
        self.out = out
        #: the race detector (None: not detecting): workgroup memory is tracked
        self.races = races
        self.work_items = 0
        #: seconds the launch may run (None: no limit), and when it ends
        self.timeout = timeout
        self.deadline: float | None = None
        #: the error of the first failing `cf.assert` (`xgpu.backend.sim.asserts`)
        self.assertion: OpFailure | None = None

    # -- errors ------------------------------------------------------------ #

    def who(self, lid: int, bids: Sequence[int]) -> str:
        return who_text(unlinear(lid, self.block), bids)

    def failure(self, err: BaseException, lid: int, bids: Sequence[int]) -> OpFailure:
        """`err`, raised by a work-item, as an error at the op that failed."""
        op, frame = self._failing_op(err)
        who = self.who(lid, bids)
        if isinstance(err, OpFailure):
            return err
        access = self.program.access_names.get(op) if op is not None else None
        indices: list = []
        dims: list = []
        if access is not None and frame is not None:
            m, names = access
            indices = [frame.f_locals.get(n, "?") for n in names]
            dims = [frame.f_locals.get(f"{m}_n{d}", "?") for d in range(len(names))]
            label = self._buffer_label(frame, m)
            elem = element_text(label, indices)
        else:
            elem = "memory"
        if isinstance(err, OutOfBounds):
            msg = out_of_bounds_message(elem, dims, who, self.symbol)
        elif isinstance(err, Uninitialized):
            msg = f"read of never-written memory {elem} by {who} of {self.symbol}"
        elif isinstance(err, Freed):
            msg = f"use of freed memory {elem} by {who} of {self.symbol}"
            freed_by = self._freed_by(frame, access)
            if freed_by is not None:
                return OpFailure(op, msg, [(freed_by, "the memory was freed here")])
        else:
            from xgpu.semantics import UndefinedBehavior

            if isinstance(err, UndefinedBehavior):
                msg = f"undefined behavior: {err} ({who} of {self.symbol})"
            elif isinstance(err, RuntimeFailure):
                msg = failure_message(str(err), who, self.symbol)
            elif python_error_message(err) is not None:
                msg = f"{python_error_message(err)} ({who} of {self.symbol})"
            else:
                msg = f"internal error: {type(err).__name__}: {err} ({who} of {self.symbol})"
        return OpFailure(op, msg)

    def _freed_by(self, frame: Any, access: Any) -> Operation | None:
        if frame is None or access is None:
            return None
        value = frame.f_locals.get(access[0])
        if isinstance(value, MemRef):
            return value.storage.freed_by
        return None

    def _buffer_label(self, frame: Any, m: str) -> str:
        value = frame.f_locals.get(m)
        if isinstance(value, MemRef) and value.storage.name:
            return value.storage.name + "{}" + value.storage.where
        return "memory{}"

    def _failing_op(self, err: BaseException) -> tuple[Operation | None, Any]:
        op = None
        frame = None
        for fr, line in traceback.walk_tb(err.__traceback__):
            if fr.f_code.co_filename == self.program.filename:
                found = self.program.op_at(line)
                if found is not None:
                    op, frame = found, fr
        return op, frame

    # -- running ----------------------------------------------------------- #

    def run(self) -> None:
        if not self.timeout:
            self._run()
            return
        self.deadline = time.monotonic() + self.timeout
        alarm = _Alarm(self.timeout)
        try:
            try:
                self._run()
            finally:
                alarm.disarm()  # a pending interruption may still land here
        except _Expired:
            alarm.disarm()
            from xgpu.runtime.launch_limits import timeout_message

            raise OpFailure(self.task.op, timeout_message(self.symbol, self.timeout)) from None

    def _blocks(self) -> Iterator[tuple[int, int, int]]:
        gx, gy, gz = self.grid
        for bz in range(gz):
            for by in range(gy):
                for bx in range(gx):
                    yield bx, by, bz

    def _in_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Expired

    def steps(self) -> Iterator[None]:
        """`run` as a generator that yields whenever every work-item of the
        running block spins (a spin loop: `kernel.is_spin_loop`), so that
        the scheduler can run other GPU work meanwhile (kernels that wait
        for each other); the timeout is checked between steps."""
        if self.timeout:
            self.deadline = time.monotonic() + self.timeout
        try:
            yield from self._run_steps()
        except _Expired:
            from xgpu.runtime.launch_limits import timeout_message

            raise OpFailure(self.task.op, timeout_message(self.symbol, self.timeout)) from None

    def _run(self) -> None:
        for _ in self._run_steps():
            pass  # a spinning block runs on (nothing else can run here)

    def _run_steps(self) -> Iterator[None]:
        fn = self.program.functions[self.kernel]
        is_gen = self.kernel in self.program.generators
        nx, ny, nz = self.block
        gx, gy, gz = self.grid
        n = nx * ny * nz
        if n == 0 or gx * gy * gz == 0:
            return
        threads = [(tx, ty, tz) for tz in range(nz) for ty in range(ny) for tx in range(nx)]
        specs = self._workgroup_specs()
        for blk, bids in enumerate(self._blocks()):
            wg, dsm = self._block_memory(specs, bids)
            bs = BlockState(bids, dsm)
            # The parameters after the thread ids: block ids, sizes, arguments.
            rest = (*bids, nx, ny, nz, gx, gy, gz, *self.args, *wg)
            if is_gen:
                gens = [
                    fn(WorkItem(self.task, blk, lid, bs, self.sg_size, n, self.out), *tids, *rest)
                    for lid, tids in enumerate(threads)
                ]
                yield from self._run_block(gens, bs, bids)
            else:
                for lid, tids in enumerate(threads):
                    if self.deadline is not None:
                        self._in_time()
                    w = WorkItem(self.task, blk, lid, bs, self.sg_size, n, self.out)
                    try:
                        fn(w, *tids, *rest)
                    except KernelAssertion as err:
                        self._assertion_failed(err, lid, bids)
                    except Exception as err:
                        raise self.failure(err, lid, bids) from None
            self.work_items += n
            if self.assertion is not None:
                raise self.assertion

    def _workgroup_specs(self) -> list[tuple[Any, tuple[int, ...], str]]:
        """(dtype, shape, name) of each workgroup attribution of the kernel."""
        func_op = self.program.func_ops[self.kernel]
        entry = func_op.body.blocks.first
        n_inputs = len(func_op.function_type.inputs.data)
        n_wg = func_op.num_workgroup_attributions if func_op.name == "gpu.func" else 0
        specs = []
        for value in list(entry.args)[n_inputs : n_inputs + n_wg]:
            t = value.type
            label = f"%{value.name_hint}" if value.name_hint else "workgroup memory"
            specs.append((numpy_dtype(t.element_type), tuple(t.get_shape()), label))
        return specs

    def _block_memory(self, specs: list, bids: tuple[int, int, int]) -> tuple[list, Any]:
        """A block's workgroup attributions and dynamic shared memory (tracked
        by the race detector when there is one)."""
        wg = [
            new_memory(dt, shape, "workgroup", label, f" (workgroup memory of block {_fmt3(bids)})")
            for dt, shape, label in specs
        ]
        dsm = None
        if self.shmem:
            dsm = new_memory(
                np.dtype(np.int8),
                (self.shmem,),
                "workgroup",
                "dynamic shared memory",
                f" (of block {_fmt3(bids)})",
            )
        if self.races is not None:
            for m in (*wg, *([dsm] if dsm is not None else [])):
                self.races.track(m.storage)
        return wg, dsm

    def _run_block(self, gens: list, bs: BlockState, bids: tuple[int, int, int]) -> Iterator[None]:
        n = len(gens)
        sg = self.sg_size
        send: list[Any] = [None] * n
        waiting: list[Any] = [None] * n
        done = [False] * n
        runnable = list(range(n))
        n_done = 0
        ops = self.program.op_ids
        while True:
            if self.deadline is not None:
                self._in_time()
            spun: list[int] = []
            for w in runnable:
                try:
                    req = gens[w].send(send[w])
                    if req is SPIN:
                        spun.append(w)
                        send[w] = None
                        continue
                except StopIteration:
                    done[w] = True
                    waiting[w] = None
                    n_done += 1
                    continue
                except KernelAssertion as err:
                    # The work-item stops where its assertion failed.
                    self._assertion_failed(err, w, bids)
                    done[w] = True
                    waiting[w] = None
                    n_done += 1
                    continue
                except Exception as err:
                    raise self.failure(err, w, bids) from None
                waiting[w] = req
            if n_done == n:
                return
            runnable = []
            # Subgroups whose lanes all wait at the same subgroup op.
            for base in range(0, n, sg):
                lanes = range(base, min(base + sg, n))
                first = waiting[base]
                if first is None or first[0] != "subgroup":
                    continue
                if all(waiting[i] is not None and waiting[i][1] == first[1] for i in lanes):
                    try:
                        results = first[2]([waiting[i][3] for i in lanes])
                    except Exception as err:
                        raise self._collective_failure(err, ops[first[1]], base, bids) from None
                    for i, r in zip(lanes, results):
                        send[i] = r
                        waiting[i] = None
                        runnable.append(i)
            if spun:
                if not runnable:
                    yield  # only spinning work-items: let other GPU work run
                runnable += spun
                continue
            if runnable:
                continue
            # The whole block at one barrier or all_reduce.
            first = next(r for r in waiting if r is not None)
            op = ops[first[1]]
            if n_done == 0 and all(
                r is not None and r[0] == "block" and r[1] == first[1] for r in waiting
            ):
                if first[2] is None:
                    bs.epoch += 1
                    results = [None] * n
                else:
                    try:
                        results = first[2]([r[3] for r in waiting])
                    except Exception as err:
                        raise self._collective_failure(err, op, 0, bids) from None
                for i in range(n):
                    send[i] = results[i]
                    waiting[i] = None
                runnable = list(range(n))
                continue
            if self.assertion is not None:
                # The others wait for a work-item that stopped at its assertion.
                raise self.assertion
            raise self._divergence(waiting, done, bids)

    def _assertion_failed(self, err: KernelAssertion, lid: int, bids: Sequence[int]) -> None:
        """A work-item's `cf.assert` failed: its line on the run's output, and
        the launch's error if it is the first."""
        op = err.op
        thread = unlinear(lid, self.block)
        text = assertion_line(origin_of(op), tuple(bids), thread, message_of(op))
        write_output(self.out, (text + "\n").encode())
        if self.assertion is None:
            who = self.who(lid, bids)
            message = failure_message(f"assertion failed: {message_of(op)}", who, self.symbol)
            self.assertion = OpFailure(op, message)

    def _collective_failure(self, err, op, lid, bids) -> OpFailure:
        if isinstance(err, RuntimeFailure):
            return OpFailure(op, f"{err} ({self.who(lid, bids)} of {self.symbol})")
        return OpFailure(op, f"internal error: {type(err).__name__}: {err} ({self.who(lid, bids)})")

    def _divergence(self, waiting: list, done: list, bids) -> OpFailure:
        ops = self.program.op_ids
        w = next(i for i, r in enumerate(waiting) if r is not None)
        op = ops[waiting[w][1]]
        what = op.name
        scope = "subgroup" if waiting[w][0] == "subgroup" else "block"
        for i, r in enumerate(waiting):
            if done[i]:
                other = f"{self.who(i, bids)} returned without reaching it"
                break
            if r is not None and r[1] != waiting[w][1]:
                other = f"{self.who(i, bids)} waits at another {ops[r[1]].name}"
                break
        else:  # pragma: no cover - every lane of each subgroup waits here
            other = "the others do not reach it"
        note_op = None
        for i, r in enumerate(waiting):
            if r is not None and r[1] != waiting[w][1]:
                note_op = ops[r[1]]
                break
        err = OpFailure(
            op,
            f"{what} not reached by every work-item of its {scope}: {self.who(w, bids)} of "
            f"{self.symbol} waits here, {other}",
        )
        if note_op is not None:
            err.notes.append((note_op, "the other work-item waits here"))
        return err
