"""The simulator's side of xgpu-run (`--backend sim`): memory, async tasks and
their scheduler, and kernel launches, with the interface of
`opencl_device.GpuRuntime` so the compiled host code is the same.

Memory: device memory (`gpu.alloc`) is a numpy array in `Storage.buf` (the
host cannot touch it), with a per-element *written* flag (`Storage.init`):
reading an element never written is an error. `gpu.alloc host_shared` and
`gpu.host_register` let kernels use the host array itself (all its elements
count as written). `gpu.dealloc` marks the storage released: any later use
is an error at the op.

Async work (`sim_scheduler`): every `gpu.memcpy`, `gpu.memset`, `gpu.dealloc` and
`gpu.launch_func` is a `Task` with the tasks of its token operands as
dependencies; a token is a tuple of tasks. The scheduler starts a task only
when its dependencies are complete:

- `program-order` (default): each task runs as soon as the host issues it;
- `random` (`--seed N`): issued tasks wait in a pool; after each issue the
  scheduler runs a random number of random ready tasks, a blocking
  `gpu.wait` runs random ready tasks until the awaited ones are complete,
  and the end of the run drains the pool. A missing dependency therefore
  changes the output with the seed.

A synchronous op (no `async`) waits for its dependencies, runs, and the host
goes on once it is complete. `gpu.alloc` allocates when issued.

Under `--detect-races` every task is registered with the `races.RaceDetector`
and every access goes through it (see `races`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation

from xgpu.diagnostics import symbol_text
from xgpu.runtime.memref import (
    HOST_MEMORY_FIX,
    OUTLINED_FROM,
    MemRef,
    OpFailure,
    RuntimeFailure,
    Storage,
    allocation_label,
    copy_overlap_message,
    find_kernel,
    kernel_name,
    numpy_dtype,
    overlapping,
    row_major_strides,
    zeros,
)
from xgpu.runtime.race_text import element_name
from xgpu.runtime.races import RaceDetector
from xgpu.runtime.sim_scheduler import SCHEDULES, Scheduler, Task, union
from xgpu.runtime.view_positions import view_positions, view_positions_array

__all__ = ["SCHEDULES", "Scheduler", "SimRuntime", "SimTokens", "Task", "union"]


class SimTokens:
    """`TokenOps` for the simulator: tokens are tuples of `Task`."""

    def __init__(self, runtime: SimRuntime):
        self.rt = runtime

    def join(self, *tokens: tuple) -> tuple:
        return union(*tokens)

    def wait(self, token: tuple, what: str = "gpu.wait") -> None:
        if not token:
            return
        self.rt.scheduler.complete(token)
        if self.rt.trace is not None:
            self.rt.trace.waited(what, token)
        if self.rt.races is not None:
            self.rt.races.host_observes(token)

    def wait_all(self, what: str = "gpu.wait") -> None:
        self.rt.scheduler.drain()
        if self.rt.trace is not None:
            self.rt.trace.waited(what, None)
        if self.rt.races is not None:
            self.rt.races.host_observes_all()


class _Description:
    description = "the xgpu simulator"


class SimRuntime:
    """The state of one simulated run (see the module docstring)."""

    def __init__(
        self,
        schedule: str = "program-order",
        seed: int | None = None,
        detect_races: bool | str = False,
        subgroup_size: int = 32,
        out: Any = None,
        record_order: bool = False,
        timeout: float | None = None,
        reduction: str = "fold",
        trace: Any = None,
    ):
        import sys

        from xgpu.backend.sim.memory_policy import keep_freed_memory

        keep_freed_memory()
        self.scheduler = Scheduler(schedule, seed)
        if record_order:
            self.scheduler.order = []
        self.races = RaceDetector(uniform_writes=detect_races == "all") if detect_races else None
        self.subgroup_size = subgroup_size
        #: the order of reductions ("fold" or "tree", `xgpu.semantics.gpu`)
        self.reduction = reduction
        self.tokens = SimTokens(self)
        self.tracer = None
        #: `sim_trace.SimTrace` (--trace) or None
        self.trace = trace
        self.scheduler.trace = trace
        self.dctx = _Description()
        self.out = out if out is not None else sys.stdout
        self.n_tasks = 0
        self.work_items = 0
        self.launches = 0
        #: the `Launch` being simulated (its blocks done count for progress)
        self.current_launch: Any = None
        #: seconds one launch may run (None: no limit)
        self.timeout = timeout

    # -- tasks ------------------------------------------------------------- #

    def order_summary(self, limit: int = 64) -> str:
        """The GPU ops in the order they ran (with --verbose), as
        `gpu.memcpy (line 7), gpu.launch_func @m::@k (line 8), ...`."""
        from xgpu.diagnostics import location_of

        order = self.scheduler.order or []
        parts = []
        for task in order[:limit]:
            loc = location_of(task.op) if task.op is not None else None
            parts.append(f"{task.label} (line {loc.line})" if loc is not None else task.label)
        if len(order) > limit:
            parts.append(f"... ({len(order) - limit} more)")
        return ", ".join(parts)

    def new_task(self, deps: tuple, label: str, op: Operation | None) -> Task:
        task = Task(self.n_tasks, deps, label, op)
        self.n_tasks += 1
        if self.trace is not None:
            self.trace.issued(task)
        return task

    def submit(self, task: Task, is_async: bool) -> tuple:
        """Issue `task`; an async op returns its token, a synchronous one runs
        to completion first."""
        if self.races is not None:
            self.races.issue(task, task.deps)
        if is_async:
            self.scheduler.issue(task)
            return (task,)
        self.scheduler.complete(task.deps)
        if task in self.scheduler.pending:  # pragma: no cover
            self.scheduler.pending.remove(task)
        if not task.done:
            self.scheduler._execute(task)
        if not task.done:  # a kernel that spins: the host waits for its end
            self.scheduler.complete((task,))
        if self.trace is not None:
            self.trace.waited_for(task)
        if self.races is not None:
            self.races.host_observes((task,))
        return ()

    def finish(self) -> None:
        self.scheduler.drain()

    def _wait_deps(self, deps: tuple, is_async: bool) -> None:
        if not is_async and deps:
            self.tokens.wait(deps)

    def _track(self, m: MemRef) -> None:
        if self.races is not None:
            self.races.track(m.storage)

    # -- memory ------------------------------------------------------------ #

    def alloc(
        self,
        dtype: np.dtype,
        sizes: tuple[int, ...],
        host_shared: bool,
        deps: tuple,
        is_async: bool,
        op: Operation | None = None,
    ) -> tuple[MemRef, tuple]:
        self._wait_deps(deps, is_async)
        n = 1
        for s in sizes:
            if s < 0:
                raise RuntimeFailure(f"gpu.alloc of negative size {s}")
            n *= s
        data = zeros(n, dtype, "gpu.alloc")
        if host_shared:
            storage = Storage(data, data, n * dtype.itemsize, "shared")
            storage.host_proxy = _SharedHost(storage, data)
        else:
            storage = Storage(None, data, n * dtype.itemsize, "device")
            storage.init = bytearray(max(n, 1))
        storage.name = _label(op)
        storage.shape = tuple(sizes)
        memref = MemRef(storage, dtype, 0, tuple(sizes), row_major_strides(tuple(sizes)))
        self._track(memref)
        return memref, (union(deps) if is_async else ())

    def dealloc(self, memref: MemRef, deps: tuple, is_async: bool, op=None) -> tuple:
        storage = memref.storage
        if storage.kind not in ("device", "shared"):
            raise RuntimeFailure("gpu.dealloc of memory not allocated by gpu.alloc")
        task = self.new_task(union(deps), "gpu.dealloc", op)

        def run() -> None:
            if storage.released:
                raise OpFailure(op, "gpu.dealloc of memory already deallocated")
            if self.races is not None:
                whole = MemRef(
                    storage,
                    memref.dtype,
                    0,
                    storage.shape or (0,),
                    row_major_strides(storage.shape or (0,)),
                )
                self.races.range_access(whole, True, task, op)
            storage.released = True
            storage.freed_by = op

        task.run = run
        return self.submit(task, is_async)

    def host_register(self, memref: MemRef, op=None) -> None:
        storage = memref.storage
        if storage.host is None:
            raise RuntimeFailure("gpu.host_register of device memory")
        storage.buf = storage.host
        self._track(memref)

    def host_unregister(self, memref: MemRef, op=None) -> None:
        storage = memref.storage
        if storage.kind != "shared":
            storage.buf = None

    # -- copies and fills -------------------------------------------------- #

    def _data(self, m: MemRef, op, what: str, write: bool) -> np.ndarray:
        st = m.storage
        if st.released:
            notes = [(st.freed_by, "the memory was freed here")] if st.freed_by is not None else []
            raise OpFailure(
                op, f"{what} of memory already deallocated ({st.name or 'memory'})", notes
            )
        data = st.buf if st.buf is not None else st.host
        return data

    def memcpy(self, dst: MemRef, src: MemRef, deps: tuple, is_async: bool, op=None) -> tuple:
        if dst.sizes != src.sizes:
            raise RuntimeFailure(
                f"gpu.memcpy between memrefs of shapes {list(src.sizes)} and {list(dst.sizes)}"
            )
        if dst.dtype.itemsize != src.dtype.itemsize:
            raise RuntimeFailure("gpu.memcpy between memrefs of different element types")
        if overlapping(dst, src):
            raise RuntimeFailure(copy_overlap_message("gpu.memcpy"))
        self._track(dst)
        self._track(src)
        task = self.new_task(union(deps), "gpu.memcpy", op)

        def run() -> None:
            sdata = self._data(src, op, "gpu.memcpy", False)
            ddata = self._data(dst, op, "gpu.memcpy", True)
            spos = view_positions_array(src)
            dpos = view_positions_array(dst)
            sinit = src.storage.init
            if sinit is not None and len(spos):
                never = np.flatnonzero(np.frombuffer(sinit, np.uint8)[spos] == 0)
                if len(never):
                    raise OpFailure(
                        op,
                        f"gpu.memcpy reads never-written memory {_element(src, int(never[0]))}",
                    )
            if self.races is not None:
                self.races.range_access(src, False, task, op, spos)
                self.races.range_access(dst, True, task, op, dpos)
            if len(spos):
                ddata[dpos] = sdata[spos].view(ddata.dtype)
                _mark_written(dst, dpos)
            if self.trace is not None:
                way = "".join("D" if m.storage.buf is not None else "H" for m in (src, dst))
                self.trace.detail(task, f"memcpy {way[0]}2{way[1]}", elements=len(spos))

        task.run = run
        return self.submit(task, is_async)

    def memset(self, dst: MemRef, value: Any, deps: tuple, is_async: bool, op=None) -> tuple:
        self._track(dst)
        task = self.new_task(union(deps), "gpu.memset", op)

        def run() -> None:
            ddata = self._data(dst, op, "gpu.memset", True)
            dpos = view_positions_array(dst)
            if self.races is not None:
                self.races.range_access(dst, True, task, op, dpos)
            if len(dpos):
                ddata[dpos] = value
                _mark_written(dst, dpos)
            if self.trace is not None:
                self.trace.detail(task, "memset", elements=len(dpos))

        task.run = run
        return self.submit(task, is_async)

    def read_device(self, m: MemRef) -> np.ndarray:
        """A copy of the elements of a view of device memory (results of the entry)."""
        data = m.storage.buf
        pos = view_positions(m)
        return np.array(data[np.asarray(pos, dtype=np.int64)], dtype=m.dtype).reshape(m.sizes)


class _SharedHost:
    """The host's loads and stores of `gpu.alloc host_shared` memory: they fail
    once a `gpu.dealloc` has freed it."""

    __slots__ = ("storage", "data")

    def __init__(self, storage: Storage, data: np.ndarray):
        self.storage = storage
        self.data = data

    def _freed(self, pos: int) -> OpFailure:
        st = self.storage
        notes = [(st.freed_by, "the memory was freed here")] if st.freed_by is not None else []
        return OpFailure(None, f"host access to freed memory {element_name(st, pos)}", notes)

    def item(self, pos: int) -> Any:
        if self.storage.released:
            raise self._freed(pos)
        return self.data.item(pos)

    def __setitem__(self, pos: int, value: Any) -> None:
        if self.storage.released:
            raise self._freed(pos)
        self.data[pos] = value


_label = allocation_label


def _mark_written(m: MemRef, pos: np.ndarray) -> None:
    """Mark the elements at `pos` of `m`'s storage as written."""
    init = m.storage.init
    if init is not None:
        np.frombuffer(init, np.uint8)[pos] = 1


def _element(m: MemRef, k: int) -> str:
    """The k-th element (row-major) of view `m`, as `%name[i, j]`."""
    idx = []
    for size in reversed(m.sizes):
        k, i = divmod(k, size)
        idx.append(i)
    return f"{m.storage.name or 'memory'}[{', '.join(map(str, reversed(idx)))}]"


# --------------------------------------------------------------------------- #
# Kernels


class SimKernelCache:
    """The compiled gpu.modules of one simulated run, and launch sites."""

    def __init__(self, module: ModuleOp, gpu: SimRuntime):
        self.module = module
        self.gpu = gpu
        self.programs: dict[int, Any] = {}

    def program(self, module_op: Operation):
        from xgpu.backend.sim.kernel import KernelCompiler, SimOptions

        key = id(module_op)
        prog = self.programs.get(key)
        if prog is None:
            options = SimOptions(
                self.gpu.subgroup_size, self.gpu.races is not None, self.gpu.reduction
            )
            prog = KernelCompiler(module_op, options, _KernelHooks(self.gpu)).compile()
            self.programs[key] = prog
        return prog

    def launcher(self, launch: Operation):
        ref: SymbolRefAttr = launch.kernel
        module_op, func_op = find_kernel(self.module, ref)
        prog = self.program(module_op)
        name = func_op.sym_name.data
        n_args = len(func_op.function_type.inputs.data)
        if len(launch.kernel_operands) != n_args:
            raise RuntimeFailure(
                f"{symbol_text(module_op.sym_name.data)}::{symbol_text(name)} takes {n_args} operands, "
                f"{len(launch.kernel_operands)} given"
            )
        symbol = kernel_name(module_op, func_op)
        return make_launcher(
            self.gpu, prog, name, symbol, launch, launch.async_token is not None, func_op
        )


class _KernelHooks:
    def __init__(self, gpu: SimRuntime):
        self.gpu = gpu
        if gpu.races is not None:
            self.kernel_access = gpu.races.kernel_access

    def semantics(self, op: Operation):
        from xgpu.runtime.compile_host import op_semantics

        return op_semantics(op)


def _launch_facts(func_op: Operation) -> tuple[list[tuple[str, int]], Any, Any]:
    """(workgroup memory parts, known_block_size, known_grid_size) of a kernel."""
    wg_bytes = 0
    entry = func_op.body.blocks.first
    if entry is not None and func_op.name == "gpu.func":
        n_inputs = len(func_op.function_type.inputs.data)
        for value in list(entry.args)[n_inputs : n_inputs + func_op.num_workgroup_attributions]:
            n = 1
            for s in value.type.get_shape():
                n *= s
            wg_bytes += n * numpy_dtype(value.type.element_type).itemsize
    known = []
    for attr in (func_op.known_block_size, func_op.known_grid_size):
        known.append(tuple(attr.get_values()) if attr is not None else None)
    return [("workgroup attributions", wg_bytes)], known[0], known[1]


def make_launcher(
    gpu: SimRuntime,
    prog: Any,
    name: str,
    symbol: str,
    op: Operation,
    is_async: bool,
    func_op: Operation | None = None,
):
    from xgpu.backend.sim.workgroup import Launch
    from xgpu.runtime.launch_limits import SIM_LIMITS, check_launch

    outlined = func_op is not None and OUTLINED_FROM in func_op.attributes
    label = symbol if outlined else f"gpu.launch_func {symbol}"
    facts = _launch_facts(func_op) if func_op is not None else ([], None, None)

    def launch(deps, gx, gy, gz, bx, by, bz, shmem, *operands):
        for k, value in enumerate(operands):
            if isinstance(value, MemRef):
                st = value.storage
                if st.buf is None and not st.released:
                    raise RuntimeFailure(
                        f"operand {k} of {symbol} is host memory that the device cannot use "
                        f"({HOST_MEMORY_FIX})"
                    )
                if gpu.races is not None:
                    gpu.races.track(st)
        bad = check_launch(SIM_LIMITS, (gx, gy, gz), (bx, by, bz), shmem, *facts)
        if bad is not None:
            raise RuntimeFailure(f"{label}: {bad}")
        task = gpu.new_task(union(deps), label, op)
        task.launch_grid = (gx, gy, gz)
        task.launch_block = (bx, by, bz)

        def run() -> None:
            from xgpu.backend.sim import lockstep

            chosen = lockstep.select(prog, name, None, None)
            cls = Launch
            extra: tuple = ()
            if chosen is not None:
                cls = lockstep.LockstepLaunch
                extra = chosen
            sim = cls(
                *extra,
                prog,
                name,
                symbol,
                (gx, gy, gz),
                (bx, by, bz),
                operands,
                shmem,
                task,
                gpu.subgroup_size,
                gpu.out,
                gpu.races,
                gpu.timeout,
            )
            if cls is Launch and name in prog.spinning:
                return _stepped(sim)
            gpu.current_launch = sim
            try:
                sim.run()
            finally:
                gpu.current_launch = None
            gpu.work_items += sim.work_items
            gpu.launches += 1
            if gpu.trace is not None:
                gpu.trace.cost(task, sim.work_items)
            return None

        def _stepped(sim: Any):
            # A kernel that may wait for other GPU work: the scheduler runs
            # it step by step, with that work between the steps.
            yield from sim.steps()
            gpu.work_items += sim.work_items
            gpu.launches += 1
            if gpu.trace is not None:
                gpu.trace.cost(task, sim.work_items)

        task.run = run
        return gpu.submit(task, is_async)

    return launch
