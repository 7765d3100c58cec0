"""What the host compiler binds into a run's generated code (`Hooks`, for
`compile_host.HostCompiler`): the run's GPU runtime and launchers, the
semantics of arith/math ops, runner utilities, the race detector's host
accesses, and `memref.global` memory (`global_memref`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.ir import Operation

from xgpu.ir.nesting import on_caller_thread
from xgpu.runtime.compile_host import HostCompileError
from xgpu.runtime.memref import MemRef, RuntimeFailure, global_memref


class Hooks:
    """What the host compiler binds into the generated code."""

    def __init__(self, runner: Any):
        self.runner_ = runner
        sim = runner.options.backend == "sim"
        #: the simulator's runtime takes the op of each gpu op (its reports)
        self.pass_ops = sim
        #: host accesses go through the race detector
        self.instrument = sim and runner.options.detect_races
        #: allocations carry their names (the reports of the simulator and
        #: of OpenCL's bounds checks)
        self.name_storages = sim or runner.options.checked
        #: the entry's host memref arguments are registered with the device
        #: (`register_host_memory`): host accesses may need device copies merged
        self.registers_arguments = runner.options.register_host_memory

    def host_access(self, m: MemRef, pos: int, write: bool, op: Operation) -> None:
        races = self.runner_.gpu_runtime().races
        if races is not None:
            races.host_access(m, pos, write, op)

    def async_begin(self, op: Operation, deps: tuple) -> tuple:
        """An async.execute body starts (under --detect-races): its token."""
        gpu = self.runner_.gpu_runtime()
        task = gpu.new_task((), "async.execute", op)
        task.done = True
        tasks = [t for d in deps for t in d if t is not None]
        gpu.races.body_begin(task, tasks)
        return (task,)

    def async_end(self) -> None:
        self.runner_.gpu_runtime().races.body_end()

    def async_await(self, tokens: Sequence[tuple]) -> None:
        """The host awaits async tokens or values (their bodies' tasks)."""
        races = self.runner_.gpu_runtime().races
        races.host_observes([t for tok in tokens for t in tok if t is not None])

    def host_view_access(self, m: MemRef, write: bool, op: Operation) -> None:
        races = self.runner_.gpu_runtime().races
        if races is not None:
            races.range_access(m, write, None, op)

    def observed_runner(self, fn, op: Operation):
        """A runner utility whose memref arguments count as host reads."""

        def call(*args):
            for a in args:
                if isinstance(a, MemRef):
                    self.host_view_access(a, False, op)
            return fn(*args)

        return call

    def semantics(self, op: Operation):
        from xgpu.runtime.compile_host import op_semantics

        return op_semantics(op)

    def runner(self, name: str):
        return self.runner_.utils.functions()[name]

    # The device and its kernels are made on the thread that runs the program
    # (host code may be compiled on a deep stack: `xgpu.ir.nesting`).

    def gpu(self):
        return on_caller_thread(self.runner_.gpu_runtime)

    def lazy_gpu(self, ns: dict):
        """A stand-in that makes the runtime on the program's first use of the
        device (`xgpu.runtime.lazy_gpu`); None where a run reports on the
        device whether or not the program uses it (--verbose, --trace)."""
        options = self.runner_.options
        if options.verbose or options.trace is not None:
            return None
        from xgpu.runtime.lazy_gpu import LazyGpu

        return LazyGpu(self.gpu, ns)

    def coherence(self):
        """The run's `HostCoherence` (device copies of registered host memory),
        or None (the simulator; devices with unified host memory)."""
        if self.pass_ops:
            return None
        return self.gpu().coherence

    def launcher(self, op: Operation):
        return on_caller_thread(self._launcher, op)

    def _launcher(self, op: Operation):
        if self.pass_ops:  # the simulator: no OpenCL (pyopencl is not imported)
            try:
                return self.runner_.kernel_cache().launcher(op)
            except RuntimeFailure as err:
                raise HostCompileError(op, str(err)) from None
        from xgpu.runtime.api import _error
        from xgpu.runtime.kernels import KernelBuildError

        try:
            return self.runner_.kernel_cache().launcher(op)
        except KernelBuildError as err:
            raise _error(err.op, err.message, self.runner_.sources, err.notes) from None
        except RuntimeFailure as err:
            raise HostCompileError(op, str(err)) from None

    def global_memref(self, op: Operation) -> MemRef:
        return global_memref(op)
