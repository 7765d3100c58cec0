"""The OpenCL side of xgpu-run: device selection, contexts, program cache and
the gpu ops of a run (memory, copies, fills, launches) on one queue.

Device selection (`select_device`): `--device NAME` or `$XGPU_DEVICE` (or
`$XGPU_OPENCL_DEVICE`, the variable of `xgpu.backend.opencl.device`); NAME is
`gpu`, `cpu` or `accelerator` (the first device of that type), `P:D` (device
D of platform P, as `clinfo -l` lists them) or a case-insensitive substring
of the device or platform name. By default the first GPU, else the first
CPU, else the first device.

Contexts and built programs are kept for the life of the process, keyed by
device and by OpenCL source: a program (one per `gpu.module`) is built once,
and a second run of the same module in the same process (tests, `xgpu.run`
in a loop) reuses it. Each run has its own queue: out of order (tokens are
event lists, see `tokens`), or in order with `$XGPU_OOO=0` (a debugging
mode: correct without dependencies, but independent chains no longer
overlap); with profiling when a trace is recorded.

Launches use pyopencl's fast path: a `cl.Kernel` per kernel, its arguments
set with `_set_arg_multi` (buffers) and `_set_arg_buf_pack_multi` (typed
scalars, packed by pyopencl without numpy scalars) and
`_cl.enqueue_nd_range_kernel` with the dependency events; the code doing so
is generated per launch site (see `compile_host`).
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyopencl as cl

from xgpu.runtime.coherence import HostCoherence
from xgpu.runtime.launch_limits import check_alloc_size
from xgpu.runtime.memref import (
    MemRef,
    RuntimeFailure,
    Storage,
    copy_overlap_message,
    overlapping,
    row_major_strides,
)
from xgpu.runtime.tokens import EMPTY, Token, TokenOps, union
from xgpu.runtime.trace import Tracer
from xgpu.runtime.watch import Watch

DEVICE_ENV = "XGPU_DEVICE"
DEVICE_ENV_ALIAS = "XGPU_OPENCL_DEVICE"
IN_ORDER_ENV = "XGPU_OOO"
#: `XGPU_HOST_COPIES=1`: keep device copies of registered and shared host
#: memory even where the device has unified memory (tests that path on PoCL)
HOST_COPIES_ENV = "XGPU_HOST_COPIES"

_mf = cl.mem_flags


class DeviceError(Exception):
    """No OpenCL device, or none matching the requested name."""


def available_devices() -> list[tuple[int, int, cl.Device]]:
    """(platform index, device index, device) of every OpenCL device."""
    try:
        platforms = cl.get_platforms()
    except cl.Error:
        return []
    found = []
    for p, platform in enumerate(platforms):
        try:
            devices = platform.get_devices()
        except cl.Error:
            continue
        for d, device in enumerate(devices):
            found.append((p, d, device))
    return found


def device_type_name(device: cl.Device) -> str:
    kind = device.type
    if kind & cl.device_type.GPU:
        return "GPU"
    if kind & cl.device_type.CPU:
        return "CPU"
    if kind & cl.device_type.ACCELERATOR:
        return "accelerator"
    return "device"


def describe(device: cl.Device) -> str:
    """`NAME (PLATFORM DRIVER-VERSION, TYPE)`, e.g. `pthread-AMD EPYC (Portable
    Computing Language 3.0-rc2, CPU)`."""
    platform = device.platform.name.strip()
    driver = device.driver_version.strip()
    return f"{device.name.strip()} ({platform} {driver}, {device_type_name(device)})"


def select_device(name: str | None = None) -> cl.Device:
    """The device to run on (see the module docstring)."""
    if name is None:
        name = os.environ.get(DEVICE_ENV) or os.environ.get(DEVICE_ENV_ALIAS) or None
    devices = available_devices()
    if not devices:
        raise DeviceError("no OpenCL device found (is an OpenCL platform installed?)")
    if name is None:
        for wanted in (cl.device_type.GPU, cl.device_type.CPU):
            for _, _, device in devices:
                if device.type & wanted:
                    return device
        return devices[0][2]
    key = name.strip().lower()
    kinds = {
        "gpu": cl.device_type.GPU,
        "cpu": cl.device_type.CPU,
        "accelerator": cl.device_type.ACCELERATOR,
    }
    if key in kinds:
        for _, _, device in devices:
            if device.type & kinds[key]:
                return device
    elif (m := re.fullmatch(r"(\d+):(\d+)", key)) is not None:
        for p, d, device in devices:
            if (p, d) == (int(m[1]), int(m[2])):
                return device
    else:
        for _, _, device in devices:
            if key in device.name.lower() or key in device.platform.name.lower():
                return device
    listing = "; ".join(f"{p}:{d} {describe(dev)}" for p, d, dev in devices)
    raise DeviceError(f"no OpenCL device matches '{name}' (available: {listing})")


def has_device() -> bool:
    return bool(available_devices())


# --------------------------------------------------------------------------- #
# Process-wide contexts and programs


class BuildFailure(Exception):
    """An OpenCL build error: the compiler's message, the line of the generated
    source it points at and that line's number (1-based), or None."""

    def __init__(self, message: str, line: int | None, source_line: str | None, log: str):
        super().__init__(message)
        self.message = message
        self.line = line
        self.source_line = source_line
        self.log = log


_LOG_LINE = re.compile(
    r"^(?:(?:error|warning):\s*)?[^\n:]*?:(\d+):(\d+):\s*(?:(error|warning):\s*)?(.*)$", re.M
)


def parse_build_log(log: str) -> list[tuple[int, int, str]]:
    """(line, column, message) of each error of a clang/PoCL build log."""
    errors = []
    for m in _LOG_LINE.finditer(log):
        text = m.group(0)
        if "error" not in text.split(m[4])[0] and not text.startswith("error"):
            continue
        errors.append((int(m[1]), int(m[2]), m[4].strip()))
    return errors


#: a build error that is not about the source, and what to do about it
_TOOLCHAIN_HINTS = {
    "unknown target CPU": (
        "the OpenCL platform's compiler does not know this CPU (the LLVM inside"
        " pip's PoCL predates it); install a newer PoCL (Debian: pocl-opencl-icd)"
        " and choose it with --device or XGPU_DEVICE"
    ),
}


def unlocated_error(log: str) -> str:
    """The message of a failed build whose log names no source line: the
    compiler's first `error:` line (with a hint where one is known), else the
    log's first line."""
    message = log.strip().splitlines()[0] if log.strip() else "the build failed"
    for line in log.splitlines():
        text = line.strip()
        if text.startswith("error:"):
            message = text[len("error:") :].strip()
            break
    for needle, hint in _TOOLCHAIN_HINTS.items():
        if needle in message:
            return f"{message}: {hint}"
    return message


class DeviceContext:
    """The context of one device and the programs built on it."""

    _by_device: dict[int, DeviceContext] = {}

    def __init__(self, device: cl.Device):
        self.device = device
        self.context = cl.Context([device])
        self.programs: dict[tuple[str, str], cl.Program] = {}
        self.kernels: dict[tuple[int, str], cl.Kernel] = {}
        #: per kernel (by id: `kernels` keeps them alive), the argument values
        #: its launchers set last (`xgpu.runtime.launcher.make_launcher`)
        self.arg_memos: dict[int, list] = {}
        self.description = describe(device)
        self.host_unified = bool(getattr(device, "host_unified_memory", False))
        #: Oclgrind (21.10) loses track of which bytes of a buffer are
        #: initialized when a command from the host writes only part of it (a
        #: write, copy or fill at an offset replaces the buffer's shadow memory
        #: with one of the written size; a fill writes pattern by pattern):
        #: `--uninitialized` then reports every later kernel read. There
        #: xgpu-run's host-side writes cover whole buffers: partial copies and
        #: fills are done by the host once the queue is idle, and whole ones
        #: are plain buffer writes.
        self.whole_writes = "oclgrind" in device.platform.name.lower()
        #: why the device cannot be used any more (a kernel that timed out
        #: still runs on it), or None
        self.hung: str | None = None

    @classmethod
    def get(cls, device: cl.Device) -> DeviceContext:
        key = device.int_ptr
        ctx = cls._by_device.get(key)
        if ctx is None:
            ctx = cls._by_device[key] = DeviceContext(device)
        return ctx

    def build(self, source: str, options: str = "") -> cl.Program:
        key = (source, options)
        program = self.programs.get(key)
        if program is not None:
            return program
        try:
            program = cl.Program(self.context, source).build(options=options)
        except cl.RuntimeError as err:
            log = str(err)
            errors = parse_build_log(log)
            lines = source.splitlines()
            if errors:
                line, col, message = errors[0]
                text = lines[line - 1] if 0 < line <= len(lines) else None
                raise BuildFailure(message, line, text, log) from None
            raise BuildFailure(unlocated_error(log), None, None, log) from None
        self.programs[key] = program
        return program

    def kernel(self, program: cl.Program, name: str) -> cl.Kernel:
        key = (id(program), name)
        kernel = self.kernels.get(key)
        if kernel is None:
            kernel = self.kernels[key] = cl.Kernel(program, name)
        return kernel

    def arg_memo(self, kernel: cl.Kernel, count: int) -> list:
        """The memo of the arguments last set on `kernel` (`count` of them;
        `_UNSET` where none was), shared by all its launchers."""
        memo = self.arg_memos.get(id(kernel))
        if memo is None:
            if all(k is not kernel for k in self.kernels.values()):
                # Not one of ours (kept alive by `kernels`): no memo may
                # outlive it, so none is shared.
                return [_UNSET] * count
            memo = self.arg_memos[id(kernel)] = [_UNSET] * count
        return memo


class _Unset:
    """No argument set yet (equal to nothing)."""

    def __eq__(self, other: object) -> bool:
        return False

    def __ne__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


_UNSET = _Unset()


# --------------------------------------------------------------------------- #
# The gpu ops of one run


@dataclass
class QueueConfig:
    profile: bool = False
    in_order: bool | None = None  # None: $XGPU_OOO=0 selects in order
    #: device copies of registered/shared host memory (`xgpu.runtime.coherence`):
    #: None where the device has no unified host memory (or $XGPU_HOST_COPIES=1),
    #: True always
    host_copies: bool | None = None
    #: kernels bounds-checked (`xgpu.backend.opencl.guards`, `watch`)
    checked: bool = True
    #: seconds a blocking point may wait for the device (None: no limit)
    timeout: float | None = None
    #: blocking points poll the device, so that Ctrl-C interrupts them (`watch`)
    interruptible: bool = False


class GpuRuntime:
    """The state of one run on a device: its queue, tokens and trace."""

    def __init__(self, device: cl.Device, config: QueueConfig | None = None):
        config = config or QueueConfig()
        self.dctx = DeviceContext.get(device)
        if self.dctx.hung is not None:
            raise DeviceError(
                f"{self.dctx.description} cannot run anything more in this process: "
                f"in an earlier run, {self.dctx.hung}, and the device still runs it"
            )
        self.context = self.dctx.context
        self.checked = config.checked
        props = 0
        in_order = config.in_order
        if in_order is None:
            in_order = os.environ.get(IN_ORDER_ENV, "1") == "0"
        ooo = cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
        # A device without out-of-order queues gets an in-order one: correct,
        # but independent chains no longer overlap.
        self.out_of_order = not in_order and bool(device.queue_properties & ooo)
        if self.out_of_order:
            props |= ooo
        if config.profile:
            props |= cl.command_queue_properties.PROFILING_ENABLE
        self.queue = cl.CommandQueue(self.context, properties=props)
        self.tracer: Tracer | None = Tracer() if config.profile else None
        #: launches issued, counted only for a progress line (`xgpu.runtime.progress`)
        self.launch_count: list[int] | None = None
        self.watch = Watch(
            self.dctx, self.queue, config.checked, config.timeout, config.interruptible
        )
        self.tokens = TokenOps(
            self.queue, self.tracer.host_wait if self.tracer is not None else None, self.watch
        )
        copies = config.host_copies or os.environ.get(HOST_COPIES_ENV, "") == "1"
        #: device copies of registered and shared host memory, or None (the
        #: device uses host memory in place, `CL_MEM_USE_HOST_PTR`)
        self.coherence: HostCoherence | None = None
        if copies or not self.dctx.host_unified:
            self.coherence = HostCoherence(self)

    # -- helpers ----------------------------------------------------------- #

    def _record(
        self, event: cl.Event, name: str, cat: str, before_ns: int | None = None, **args: Any
    ) -> None:
        if self.tracer is not None:
            self.tracer.command(event, name, cat, before_ns=before_ns, **args)

    def _finish_op(self, event: cl.Event | None, is_async: bool, what: str) -> Token:
        if event is None:
            return EMPTY
        if is_async:
            return (event,)
        self.tokens.wait((event,), what)
        return EMPTY

    def finish(self) -> None:
        self.watch.finish()
        if self.coherence is not None:
            self.coherence.finish()

    # -- memory ------------------------------------------------------------ #

    def alloc(
        self,
        dtype: np.dtype,
        sizes: tuple[int, ...],
        host_shared: bool,
        deps: Token,
        is_async: bool,
    ) -> tuple[MemRef, Token]:
        """`gpu.alloc`: device memory (or host memory the device uses, for
        host_shared). Nothing is enqueued: the token is the dependencies."""
        if not is_async and deps:
            self.tokens.wait(deps, "gpu.alloc")
        n = 1
        for s in sizes:
            if s < 0:
                raise RuntimeFailure(f"gpu.alloc of negative size {s}")
            n *= s
        nbytes = n * dtype.itemsize
        check_alloc_size(self.dctx.device, nbytes)
        if host_shared:
            host = np.zeros(max(n, 1), dtype=dtype)
            if self.coherence is not None:
                storage = Storage(host, None, nbytes, "shared")
                self.coherence.alloc_shared(storage)
            else:
                buf = cl.Buffer(self.context, _mf.READ_WRITE | _mf.USE_HOST_PTR, hostbuf=host)
                storage = Storage(host, buf, nbytes, "shared")
        else:
            buf = cl.Buffer(self.context, _mf.READ_WRITE, max(nbytes, 1))
            storage = Storage(None, buf, nbytes, "device")
        memref = MemRef(storage, dtype, 0, tuple(sizes), row_major_strides(tuple(sizes)))
        return memref, (union(deps) if is_async else EMPTY)

    def dealloc(self, memref: MemRef, deps: Token, is_async: bool) -> Token:
        """`gpu.dealloc`: released now; OpenCL frees the memory once the
        commands already enqueued that use it are complete."""
        if not is_async and deps:
            self.tokens.wait(deps, "gpu.dealloc")
        storage = memref.storage
        if storage.kind not in ("device", "shared"):
            raise RuntimeFailure("gpu.dealloc of memory not allocated by gpu.alloc")
        if storage.released:
            raise RuntimeFailure("gpu.dealloc of memory already deallocated")
        storage.released = True
        if storage.mirror is not None:
            storage.mirror.owner.release(storage)
        if storage.buf is not None:
            storage.buf.release()
            storage.buf = None
        return union(deps) if is_async else EMPTY

    def host_register(self, memref: MemRef) -> None:
        """`gpu.host_register`: the device uses this host memory from now on
        (a buffer over the same memory, `CL_MEM_USE_HOST_PTR`, or a device
        copy kept coherent with it where the device has no unified memory)."""
        storage = memref.storage
        if storage.host is None:
            raise RuntimeFailure("gpu.host_register of device memory")
        if storage.buf is None and self.coherence is not None:
            self.coherence.register(storage)
        elif storage.buf is None:
            storage.buf = cl.Buffer(
                self.context, _mf.READ_WRITE | _mf.USE_HOST_PTR, hostbuf=storage.host
            )

    def host_unregister(self, memref: MemRef) -> None:
        storage = memref.storage
        if storage.kind == "shared" or storage.buf is None:
            return
        if storage.mirror is not None:
            storage.mirror.owner.unregister(storage)
            return
        storage.buf.release()
        storage.buf = None

    # -- copies and fills -------------------------------------------------- #

    def memcpy(self, dst: MemRef, src: MemRef, deps: Token, is_async: bool) -> Token:
        """`gpu.memcpy` in any direction (host memory that is registered or
        host_shared counts as device memory)."""
        if dst.sizes != src.sizes:
            raise RuntimeFailure(
                f"gpu.memcpy between memrefs of shapes {list(src.sizes)} and {list(dst.sizes)}"
            )
        if dst.dtype.itemsize != src.dtype.itemsize:
            raise RuntimeFailure("gpu.memcpy between memrefs of different element types")
        if overlapping(dst, src):
            raise RuntimeFailure(copy_overlap_message("gpu.memcpy"))
        _check_live(dst, "gpu.memcpy")
        _check_live(src, "gpu.memcpy")
        n = dst.num_elements
        if n == 0:
            return union(deps) if is_async else EMPTY
        item = dst.dtype.itemsize
        dbuf = dst.storage.buf
        sbuf = src.storage.buf
        if not (dst.is_contiguous() and src.is_contiguous()) or self._partial(dst):
            return self._strided_copy(dst, src, deps)
        if self.coherence is not None:
            deps = self.coherence.before(deps, (dst, src))
        nbytes = n * item
        q = self.queue
        t0 = time.perf_counter_ns()
        if dbuf is not None and sbuf is not None:
            event = cl.enqueue_copy(
                q,
                dbuf,
                sbuf,
                byte_count=nbytes,
                src_offset=src.offset * item,
                dst_offset=dst.offset * item,
                wait_for=deps,
            )
            self._record(event, "memcpy D2D", "copy", t0, bytes=nbytes)
        elif dbuf is not None:
            host = src.storage.host[src.offset : src.offset + n]
            event = cl.enqueue_copy(
                q, dbuf, host, dst_offset=dst.offset * item, wait_for=deps, is_blocking=False
            )
            self._record(event, "memcpy H2D", "copy", t0, bytes=nbytes)
        elif sbuf is not None:
            host = dst.storage.host[dst.offset : dst.offset + n]
            event = cl.enqueue_copy(
                q, host, sbuf, src_offset=src.offset * item, wait_for=deps, is_blocking=False
            )
            self._record(event, "memcpy D2H", "copy", t0, bytes=nbytes)
        else:
            # Host to host: the host does it once the dependencies are done.
            self.tokens.wait(deps, "gpu.memcpy (host to host)")
            dst.host_view()[...] = src.host_view()
            return EMPTY
        if dbuf is not None and dst.storage.mirror is not None:
            self.coherence.after((event,), (dst,))
        return self._finish_op(event, is_async, "gpu.memcpy")

    def _strided_copy(self, dst: MemRef, src: MemRef, deps: Token) -> Token:
        """A copy between views that are not one contiguous run: done by the
        host once the dependencies are complete (the op is then complete)."""
        self._host_side_wait(deps, "gpu.memcpy (strided)")
        values = self._read_view(src)
        self._write_view(dst, values)
        return EMPTY

    def _partial(self, m: MemRef) -> bool:
        """Whether writing view `m` is a write into part of a device buffer on
        a device that needs whole-buffer writes (`DeviceContext.whole_writes`)."""
        if not self.dctx.whole_writes or m.storage.buf is None:
            return False
        whole = m.offset == 0 and m.num_elements * m.dtype.itemsize >= m.storage.nbytes
        return not (whole and m.is_contiguous())

    def _host_side_wait(self, deps: Token, what: str) -> None:
        """Before the host does a copy or fill itself: its dependencies are
        complete (and all device work, where host writes cover whole buffers:
        the buffer is read, patched and written back)."""
        if self.dctx.whole_writes:
            self.tokens.wait_all(what)
        else:
            self.tokens.wait(deps, what)

    def _read_view(self, m: MemRef) -> np.ndarray:
        if m.storage.mirror is not None:
            m.storage.mirror.owner.host_access(m, False)
        if m.storage.buf is None or m.storage.host is not None:
            return np.array(m.host_view())
        lo, hi = m.span()
        tmp = np.empty(hi - lo, dtype=m.dtype)
        cl.enqueue_copy(self.queue, tmp, m.storage.buf, src_offset=lo * m.dtype.itemsize)
        view = MemRef(
            Storage(tmp, None, tmp.nbytes, "host"), m.dtype, m.offset - lo, m.sizes, m.strides
        )
        return np.array(view.host_view())

    def _write_view(self, m: MemRef, values: np.ndarray) -> None:
        if m.storage.mirror is not None:
            m.storage.mirror.owner.host_access(m, True)
        if m.storage.buf is None or m.storage.host is not None:
            m.host_view()[...] = values
            return
        lo, hi = m.span()
        if self.dctx.whole_writes:
            lo, hi = 0, m.storage.nbytes // m.dtype.itemsize
        item = m.dtype.itemsize
        tmp = np.empty(hi - lo, dtype=m.dtype)
        cl.enqueue_copy(self.queue, tmp, m.storage.buf, src_offset=lo * item)
        view = MemRef(
            Storage(tmp, None, tmp.nbytes, "host"), m.dtype, m.offset - lo, m.sizes, m.strides
        )
        view.host_view()[...] = values
        cl.enqueue_copy(self.queue, m.storage.buf, tmp, dst_offset=lo * item)

    def memset(self, dst: MemRef, value: Any, deps: Token, is_async: bool) -> Token:
        """`gpu.memset`: `enqueue_fill_buffer` for a contiguous view of device
        memory; on the host (after the dependencies) otherwise."""
        _check_live(dst, "gpu.memset")
        n = dst.num_elements
        if n == 0:
            return union(deps) if is_async else EMPTY
        buf = dst.storage.buf
        if buf is None or not dst.is_contiguous() or self._partial(dst):
            self._host_side_wait(deps, "gpu.memset")
            if buf is None:
                dst.host_view()[...] = value
            else:
                self._write_view(dst, np.full(dst.sizes, value, dtype=dst.dtype))
            return EMPTY
        item = dst.dtype.itemsize
        pattern = np.array(value, dtype=dst.dtype)
        if self.coherence is not None:
            deps = self.coherence.before(deps, (dst,))
        t0 = time.perf_counter_ns()
        if self.dctx.whole_writes:  # the whole buffer (see `_partial`)
            event = cl.enqueue_copy(
                self.queue,
                buf,
                np.full(n, pattern, dtype=dst.dtype),
                wait_for=deps,
                is_blocking=False,
            )
        else:
            event = cl.enqueue_fill_buffer(
                self.queue, buf, pattern, dst.offset * item, n * item, wait_for=deps
            )
        self._record(event, "memset", "fill", t0, bytes=n * item)
        if dst.storage.mirror is not None:
            self.coherence.after((event,), (dst,))
        return self._finish_op(event, is_async, "gpu.memset")


def _check_live(m: MemRef, what: str) -> None:
    if m.storage.released:
        raise RuntimeFailure(f"{what} of memory already deallocated")


def flush_host_output() -> None:
    """Write the host's buffered output before device work that may print
    (the OpenCL driver writes `printf` output to file descriptor 1)."""
    try:
        sys.stdout.flush()
    except (AttributeError, ValueError):
        pass
