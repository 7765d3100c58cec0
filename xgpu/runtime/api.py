"""Running host programs: `xgpu.run` and what `xgpu-run` calls.

    import numpy as np, xgpu
    x = np.arange(8, dtype=np.float32)
    xgpu.run(text, entry="main", args=[x, 8])   # x is updated in place

`run(module_or_text, entry="main", args=(), *, device=None, trace=None,
stdout=None, name="<input>")`:

- `module_or_text`: MLIR text (parsed and verified as xgpu-opt does) or a
  `ModuleOp` (verified; left unchanged: it is cloned before `gpu.launch` ops
  are outlined);
- `args`: one per argument of the entry function: a numpy array for a memref
  (used in place, no copy: what the program writes to it is in the array
  afterwards; its dtype must be the memref's element type: index is int64,
  i1 is uint8), a Python or numpy scalar for a scalar, a tuple of
  `pyopencl.Event` (or None) for an `!gpu.async.token`;
- returns None (no result), the result, or a tuple of results: scalars as
  Python values, memrefs as numpy arrays (a view of host memory; device memory
  is copied back), tokens as tuples of `pyopencl.Event`. The run waits for all
  its device work before returning;
- `device`: a device name as for `--device` (default: `$XGPU_DEVICE`, else a
  GPU, else the CPU); `trace`: a path to write a Chrome trace to; `stdout`:
  where the runner utilities print (default `sys.stdout`; `gpu.printf` output
  of kernels is written by the OpenCL driver to file descriptor 1, by the
  simulator to `stdout`).

Errors are `RunError`s carrying an MLIR-style `Diagnostic` at the op that
failed (parse and verifier errors, ops the runtime does not support, OpenCL
build failures with the generated line, runtime failures such as host access
to device memory or `cf.assert`).

Safety (OpenCL): launch sizes are checked against the device's limits
before anything is enqueued (`launch_limits`); with `checked=True` (the
default) every kernel memory access is bounds-checked: an out-of-bounds
access is not done and the first one is reported at the next blocking point
with the simulator's message (`fault_record`); `checked=False` runs the
kernels without the checks. `timeout=SECONDS` (default None: no limit; the
`xgpu-run` command line has 60 s) bounds how long a blocking point waits
for a kernel: a kernel still running then raises a `RunError` at its launch,
with `fatal` set. OpenCL cannot stop the kernel: it goes on running, the
device cannot be used again in this process (later runs on it raise a
`RunError`), and the process may not exit normally while it runs
(`os._exit` ends it). The simulator (`backend="sim"`) checks every access
and the same launch sizes (CUDA's limits, `launch_limits.SIM_LIMITS`), and
ends a launch that takes longer than `timeout` with the same error.

A `KeyboardInterrupt` (Ctrl-C) during a run propagates, carrying
`xgpu_running`, the op that was running (`xgpu.runtime.interrupt`); a
device still busy then is marked unusable, as after a timeout (the process
may not exit normally while a kernel still runs: `os._exit` ends it).

The simulator's options: `schedule` ("program-order" or "random"), `seed`,
`detect_races` (the races found are raised as one `RunError` whose
`diagnostics` has one error per race, each with a note at the other access),
`subgroup_size` (default 32 on the simulator; on OpenCL, the size of emulated
subgroups, default one per workgroup).

`reduction` ("fold" or "tree", default `$XGPU_REDUCTION`, else "fold" on the
simulator and on CPU devices, "tree" on other OpenCL devices): how
`gpu.all_reduce` and `gpu.subgroup_reduce` combine their values (see
`xgpu.backend.opencl.reductions`): on OpenCL the algorithm of the generated
code, on the simulator the order it reproduces (float sums then agree bit for
bit with a device that reduces in that order).
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xgpu import diagnostics
from xgpu.diagnostics import Diagnostic, SourceFiles, location_of, symbol_text
from xgpu.ir.nesting import TOO_DEEP, deep_call, deep_call_for
from xgpu.runtime import progress
from xgpu.runtime.arguments import convert_arg, read_device
from xgpu.runtime.compile_host import HostCompileError, HostCompiler, HostProgram
from xgpu.runtime.memref import (
    MemRef,
    RuntimeFailure,
)
from xgpu.runtime.prepare import prepare
from xgpu.runtime.progress import is_terminal
from xgpu.runtime.run_hooks import Hooks
from xgpu.runtime.runner_utils import RunnerUtils


class RunError(Exception):
    """A program that cannot be run, or that failed while running. `more`:
    further diagnostics of the same failure (the other races found).
    `fatal`: the failure leaves the device busy (a kernel that timed out
    still runs): nothing else can run on it in this process."""

    fatal = False

    def __init__(
        self,
        diagnostic: Diagnostic,
        sources: SourceFiles | None = None,
        more: Sequence[Diagnostic] = (),
    ):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.sources = sources
        self.more = list(more)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [self.diagnostic, *self.more]

    def format(self) -> str:
        return "\n".join(diagnostics.format_diagnostic(d, self.sources) for d in self.diagnostics)

    def __str__(self) -> str:
        return self.format()


def _error(op: Operation | None, message: str, sources: SourceFiles | None, notes=()) -> RunError:
    diag = Diagnostic("error", message, location_of(op), op=op)
    for note_op, note in notes:
        diag.notes.append(
            Diagnostic("note", note, location_of(note_op) if note_op is not None else None)
        )
    return RunError(diag, sources)


def load(module_or_text: str | ModuleOp, name: str = "<input>") -> tuple[ModuleOp, SourceFiles]:
    """Parse (if text), verify and outline `gpu.launch` ops; a `ModuleOp` is
    cloned first when it has launches to outline."""
    return deep_call(_load, module_or_text, name)


def _load(module_or_text: str | ModuleOp, name: str) -> tuple[ModuleOp, SourceFiles]:
    from xgpu.ir.verifier import verify_ir
    from xgpu.tools.xgpu_opt import (
        LocatedParseError,
        make_context,
        parse_error_diagnostic,
        parse_exception_message,
    )

    sources = SourceFiles()
    ctx = make_context()
    if isinstance(module_or_text, str):
        from xdsl.utils.exceptions import ParseError

        from xgpu.tools.xgpu_opt import LocatingParser

        sources.add(name, module_or_text)
        parser = None
        try:
            # The constructor lexes the first token: it can raise a ParseError too.
            parser = LocatingParser(ctx, module_or_text, name)
            module = parser.parse_module()
        except ParseError as err:
            raise RunError(parse_error_diagnostic(err, 0, ctx), sources) from None
        except LocatedParseError as err:
            raise RunError(err.diag, sources) from None
        except Exception as err:  # as xgpu-opt: reported where the parser stands
            if isinstance(err, RecursionError):
                message = TOO_DEEP
            else:
                message = parse_exception_message(err)
            if parser is None:
                raise RunError(Diagnostic("error", message, None), sources) from None
            raise RunError(parser.diagnostic_here(message), sources) from None
    elif isinstance(module_or_text, ModuleOp):
        module = module_or_text
    else:
        raise TypeError("run() takes MLIR text or a builtin.module")
    try:
        diag = verify_ir(module)
    except RecursionError:  # a module built deeper than any parsed one
        raise RunError(Diagnostic("error", TOO_DEEP, None), sources) from None
    if diag is not None:
        raise RunError(diag, sources)
    module = prepare(module, module is module_or_text, ctx, sources)
    return module, sources


BACKENDS = ("opencl", "sim")

#: the GPU ops that take memrefs (`register_host_memory` registers arguments
#: only for programs that have one)
_MEMORY_GPU_OPS = frozenset(
    {"gpu.launch_func", "gpu.memcpy", "gpu.memset", "gpu.host_register", "gpu.host_unregister"}
)


@dataclass
class RunOptions:
    device: str | None = None
    trace: str | None = None
    stdout: TextIO | None = None
    verbose: bool = False
    in_order: bool | None = None
    #: "opencl" or "sim" (the simulator, `xgpu.runtime.sim_device`)
    backend: str = "opencl"
    #: simulator: "program-order" or "random" (with `seed`)
    schedule: str = "program-order"
    seed: int | None = None
    #: simulator: report data races (`xgpu.runtime.races`); "all": also
    #: uniform writes (work-items writing the same value to one element)
    detect_races: bool | str = False
    #: subgroup size (simulator: default 32; OpenCL: emulated subgroups of
    #: this size, default one subgroup per workgroup)
    subgroup_size: int | None = None
    #: OpenCL: keep device copies of registered and shared host memory even on
    #: a device with unified host memory (`xgpu.runtime.coherence`; tests that
    #: path on PoCL; also `$XGPU_HOST_COPIES=1`)
    host_copies: bool | None = None
    #: OpenCL: bounds-checked kernel memory accesses (`--unchecked`: False)
    checked: bool = True
    #: seconds a blocking point may wait for a kernel (None or 0: no limit)
    timeout: float | None = None
    #: "fold" or "tree" (None: $XGPU_REDUCTION, else by device; see the docstring)
    reduction: str | None = None
    #: register each host memref argument of the entry function with the
    #: device for the call, as `gpu.host_register` would (`--register-host-memory`)
    register_host_memory: bool = False
    #: a progress line on stderr once the run lasts 2 s, if it is a terminal
    #: (`xgpu.runtime.progress`; xgpu-run's default, off with --quiet)
    progress: bool = False
    #: OpenCL: blocking waits poll the device, so that Ctrl-C interrupts
    #: them even without a timeout (xgpu-run's)
    interruptible: bool = False


class Runner:
    """One program, compiled for one run on one device."""

    def __init__(self, module: ModuleOp, sources: SourceFiles, options: RunOptions):
        self.module = module
        #: whether the program has GPU ops that take memrefs (computed once)
        self._device_memory: bool | None = None
        self.sources = sources
        self.options = options
        self.out = options.stdout if options.stdout is not None else sys.stdout
        self.utils = RunnerUtils(self.out)
        self._gpu = None
        self._kernels = None
        #: a progress line may be shown (`progress`: stderr is a terminal)
        self.show_progress = options.progress and is_terminal(sys.stderr)
        compiler = HostCompiler(module, Hooks(self))
        #: the host track of --trace (`host_trace`; simulated time on the simulator)
        self.trace = None
        if options.trace is not None:
            from xgpu.runtime import host_trace

            self.trace = host_trace.new_trace(options.backend)
            host_trace.install(compiler, self.trace)
        try:
            self.program: HostProgram = deep_call_for(module, compiler.compile)
        except HostCompileError as err:
            raise _error(err.op, err.message, sources) from None
        except RunError:
            raise
        except Exception as err:  # a bug of xgpu-run: say where, no traceback
            op = compiler.current_op
            raise _error(op, f"internal error: {type(err).__name__}: {err}", sources) from err

    def gpu_runtime(self):
        if self._gpu is None and self.options.backend == "sim":
            from xgpu.runtime.sim_device import SimRuntime

            try:
                self._gpu = SimRuntime(
                    schedule=self.options.schedule,
                    seed=self.options.seed,
                    detect_races=self.options.detect_races,
                    subgroup_size=self.options.subgroup_size or 32,
                    out=self.out,
                    record_order=self.options.verbose,
                    timeout=self.options.timeout or None,
                    reduction=self.reduction() or "fold",
                    trace=self.trace,
                )
            except ValueError as err:
                raise RunError(Diagnostic("error", str(err), None)) from None
            if self.options.verbose:
                print("xgpu-run: device: the xgpu simulator", file=sys.stderr)
        if self._gpu is None:
            from xgpu.runtime.opencl_device import (
                DeviceError,
                GpuRuntime,
                QueueConfig,
                describe,
                select_device,
            )

            try:
                device = select_device(self.options.device)
            except DeviceError as err:
                raise RunError(Diagnostic("error", str(err), None)) from None
            if self.options.verbose:
                print(f"xgpu-run: device: {describe(device)}", file=sys.stderr)
            config = QueueConfig(
                profile=self.options.trace is not None,
                in_order=self.options.in_order,
                host_copies=self.options.host_copies,
                checked=self.options.checked,
                timeout=self.options.timeout or None,
                interruptible=self.options.interruptible,
            )
            try:
                self._gpu = GpuRuntime(device, config)
            except DeviceError as err:
                raise RunError(Diagnostic("error", str(err), None)) from None
            if self.show_progress:
                self._gpu.launch_count = [0]
            if self._gpu.tracer is not None and self.trace is not None:
                self._gpu.tracer.host = self.trace
        return self._gpu

    def kernel_cache(self):
        if self._kernels is None and self.options.backend == "sim":
            from xgpu.runtime.sim_device import SimKernelCache

            self._kernels = SimKernelCache(self.module, self.gpu_runtime())
        if self._kernels is None:
            from xgpu.runtime.kernels import KernelCache

            self._kernels = KernelCache(
                self.module,
                self.gpu_runtime(),
                subgroup_size=self.options.subgroup_size,
                reduction=self.reduction(),
            )
        return self._kernels

    def reduction(self) -> str | None:
        """The forced reduction order (`RunOptions.reduction`, else
        `$XGPU_REDUCTION`), None for the device's own choice."""
        from xgpu.backend.opencl.device import check_reduction, forced_reduction

        try:
            if self.options.reduction is not None:
                return check_reduction(self.options.reduction)
            return forced_reduction()
        except ValueError as err:
            raise RunError(Diagnostic("error", str(err), None)) from None

    # -- calling ----------------------------------------------------------- #

    def call(self, entry: str, args: Sequence[Any]) -> Any:
        func = self.program.func_ops.get(entry)
        if func is None or entry not in self.program.functions:
            raise RunError(
                Diagnostic("error", f"no function {symbol_text(entry)} to run", None), self.sources
            )
        arg_types = list(func.function_type.inputs.data)
        if len(args) != len(arg_types):
            raise _error(
                func,
                f"{symbol_text(entry)} takes {len(arg_types)} arguments, {len(args)} given",
                self.sources,
            )
        values = [
            convert_arg(a, t, func, i, self.sources)
            for i, (a, t) in enumerate(zip(args, arg_types))
        ]
        shown = progress.start(sys.stderr, self._counts) if self.show_progress else None
        try:
            registered = self._register(values) if self.options.register_host_memory else ()
            start = self.trace.now() if self.trace is not None else 0
            result = self.program.functions[entry](*values)
            if self.trace is not None:
                self.trace.add(symbol_text(entry), "host call", start, self.trace.now())
            if self._gpu is not None:
                self._gpu.finish()
                for m in registered:
                    self._gpu.host_unregister(m)
                if self.options.verbose and self.options.backend == "sim":
                    g = self._gpu
                    print(
                        f"xgpu-run: simulated {g.work_items} work-items in {g.launches} "
                        f"launch{'es' if g.launches != 1 else ''}; {g.n_tasks} GPU ops, "
                        f"schedule {self.options.schedule}",
                        file=sys.stderr,
                    )
                    if g.n_tasks:
                        print(f"xgpu-run: ran, in order: {g.order_summary()}", file=sys.stderr)
                coherence = getattr(self._gpu, "coherence", None)
                if self.options.verbose and coherence is not None and coherence.mirrors_made:
                    up, down = coherence.copies
                    print(
                        f"xgpu-run: registered host memory has device copies: {up} "
                        f"cop{'y' if up == 1 else 'ies'} to the device, {down} back",
                        file=sys.stderr,
                    )
        except KeyboardInterrupt as err:
            from xgpu.runtime import interrupt

            err.xgpu_running = interrupt.running_text(self.program, self._gpu, err, entry)
            interrupt.settle(self._gpu)
            raise
        except (RunError, BrokenPipeError):
            raise
        except Exception as err:
            failure = self._runtime_error(err)
            failure.fatal = bool(getattr(err, "fatal", False))
            races = getattr(self._gpu, "races", None)
            if races is not None and races.races:
                # The races found before the failure: likely its cause.
                failure.more.extend(self._race_error(races.races).diagnostics)
            raise failure from None
        finally:
            if shown is not None:
                shown.stop()
            self._flush()
        races = getattr(self._gpu, "races", None)
        if races is not None and races.races:
            raise self._race_error(races.races)
        if self.trace is not None:
            from xgpu.runtime.host_trace import write

            try:
                write(self.options.trace, self.trace, self._gpu)
            except OSError as err:
                message = (
                    f"could not write the trace to {self.options.trace}: {err.strerror or err}"
                )
                raise RunError(Diagnostic("error", message, None), self.sources) from None
        results = list(func.function_type.outputs.data)
        if not results:
            return None
        values = result if len(results) > 1 else (result,)
        converted = tuple(self._convert_result(v) for v in values)
        return converted if len(results) > 1 else converted[0]

    def _counts(self) -> tuple[int, int | None]:
        return progress.runtime_counts(self._gpu)

    def _register(self, values: list) -> list[MemRef]:
        """`register_host_memory`: the host memref arguments registered with
        the device (as `gpu.host_register`), where the program has GPU ops
        that take memory; they are unregistered once the call has finished."""
        if not any(isinstance(v, MemRef) for v in values) or not self._uses_device_memory():
            return []
        gpu = self.gpu_runtime()
        done: list[MemRef] = []
        seen: set[int] = set()
        for v in values:
            if not isinstance(v, MemRef) or id(v.storage) in seen:
                continue
            seen.add(id(v.storage))
            st = v.storage
            if st.host is None or st.buf is not None or st.kind == "shared":
                continue
            gpu.host_register(v)
            done.append(v)
        return done

    def _uses_device_memory(self) -> bool:
        if self._device_memory is None:
            self._device_memory = any(op.name in _MEMORY_GPU_OPS for op in self.module.walk())
        return self._device_memory

    def _flush(self) -> None:
        try:
            self.out.flush()
        except (AttributeError, ValueError):
            pass

    def _convert_result(self, value: Any) -> Any:
        if isinstance(value, MemRef):
            if value.storage.host is not None:
                return value.host_view()
            if hasattr(self._gpu, "read_device"):
                return self._gpu.read_device(value)
            return read_device(self._gpu, value)
        return value

    def _runtime_error(self, err: BaseException) -> RunError:
        from xgpu.runtime.memref import OpFailure

        if isinstance(err, OpFailure) and err.op is not None:
            return _error(err.op, err.message, self.sources, err.notes)
        op = None
        tb = err.__traceback__
        for frame, line in traceback.walk_tb(tb):
            if frame.f_code.co_filename == self.program.filename:
                found = self.program.op_at(line)
                # Recursion: the innermost call, not whatever op ran out of stack.
                if not isinstance(err, RecursionError) or op is None:
                    op = found
                elif found is not None and found.name == "func.call":
                    op = found
        message = _runtime_message(err)
        notes = err.notes if isinstance(err, OpFailure) else ()
        return _error(op, message, self.sources, notes)

    def _race_error(self, races: list) -> RunError:
        errors = [_error(r.op, r.message, self.sources, _race_notes(r)).diagnostic for r in races]
        return RunError(errors[0], self.sources, errors[1:])


def _race_notes(r: Any) -> list[tuple[Any, str]]:
    """A race's notes: the other access, then each GPU op that made one of
    the two accesses (a kernel's launch, at its own line: two launches of
    one kernel are told apart by it)."""
    notes = [(r.other_op, r.note)]
    if r.task is r.other_task:
        return notes  # one launch: its kernel is named already
    for task, which in ((r.task, "the access"), (r.other_task, "the other access")):
        op = getattr(task, "op", None)
        if op is not None and op is not r.op and op is not r.other_op:
            notes.append((op, f"{which} is made by this {task.label}"))
    return notes


def _runtime_message(err: BaseException) -> str:
    try:
        import pyopencl as cl

        if isinstance(err, cl.Error):
            code = getattr(err, "code", None)
            if code in (
                cl.status_code.MEM_OBJECT_ALLOCATION_FAILURE,
                cl.status_code.OUT_OF_RESOURCES,
                cl.status_code.OUT_OF_HOST_MEMORY,
            ):
                return f"the OpenCL device is out of memory (OpenCL error: {err})"
            return f"OpenCL error: {err}"
    except ImportError:  # pragma: no cover
        pass
    from xgpu.semantics import UndefinedBehavior

    if isinstance(err, RuntimeFailure):
        return str(err)
    if isinstance(err, UndefinedBehavior):
        return f"undefined behavior: {err}"
    if isinstance(err, IndexError):
        return f"out-of-bounds host memory access ({err})"
    from xgpu.runtime.compile_host import python_error_message

    known = python_error_message(err)
    if known is not None:
        return known
    return f"{type(err).__name__}: {err}"


def run(
    module_or_text: str | ModuleOp,
    entry: str = "main",
    args: Sequence[Any] = (),
    *,
    device: str | None = None,
    trace: str | None = None,
    stdout: TextIO | None = None,
    name: str = "<input>",
    backend: str = "opencl",
    schedule: str = "program-order",
    seed: int | None = None,
    detect_races: bool | str = False,
    subgroup_size: int | None = None,
    checked: bool = True,
    timeout: float | None = None,
    reduction: str | None = None,
    register_host_memory: bool = False,
) -> Any:
    """Run `entry` of a module (see the module docstring)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (expected one of {', '.join(BACKENDS)})")
    if detect_races not in (False, True, "all"):
        raise ValueError(f"detect_races must be False, True or 'all', not {detect_races!r}")
    module, sources = load(module_or_text, name)
    options = RunOptions(
        device=device,
        trace=trace,
        stdout=stdout,
        backend=backend,
        schedule=schedule,
        seed=seed,
        detect_races=detect_races,
        subgroup_size=subgroup_size,
        checked=checked,
        timeout=timeout,
        reduction=reduction,
        register_host_memory=register_host_memory,
    )
    runner = Runner(module, sources, options)
    return runner.call(entry, list(args))
