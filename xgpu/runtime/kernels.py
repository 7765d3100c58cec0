"""Kernels of a run: one OpenCL program per `gpu.module`, and a generated
launcher per `gpu.launch_func` site.

`KernelCache.launcher(op)` compiles the launched `gpu.module` with the OpenCL
emitter (`xgpu.backend.opencl.compile_gpu_module`, once per module per run),
builds it (once per device and source per process, see
`opencl_device.DeviceContext`), and generates a Python function for the site:

    def launch(deps, gx, gy, gz, bx, by, bz, shmem, *operands) -> token

It checks the launch's sizes against the device's limits
(`launch_limits.check_launch`; an error at the op, before anything is
enqueued), sets the kernel's arguments as the kernel's ABI says (a memref
operand passes its buffer, element offset, sizes and strides, and in checked
kernels its buffer's element count; a scalar its value, packed as the ABI's
numpy type; `__local` buffers for workgroup attributions, dynamic shared
memory and reduction scratch; in checked kernels the run's error record and
the launch id) with pyopencl's `_set_arg_multi` and
`_set_arg_buf_pack_multi` (only those that changed since the kernel's last
launch: the kernel's memo, `DeviceContext.arg_memo`), and enqueues the kernel with
`_cl.enqueue_nd_range_kernel` waiting for `deps`. Global size is grid x block,
local size is block, without the trailing dimensions of size 1. The launch is listed in the run's `watch.Watch` (its
failures and timeouts are reported against it).

The launcher of an async launch also has

    launch.repeat(n, deps, gx, gy, gz, bx, by, bz, shmem, *operands) -> token

n launches of the site with the same sizes and operands, each waiting for
the one before: what n chained calls of `launch` do, the first being one,
the others (where `launch` would take its fast path and has nothing else to
do per launch) one enqueue each (`launch_repeat`). The host compiler writes
an `scf.for` whose body is only such a chained launch, with loop-invariant
operands, as one call of it (`host_gpu.repeated_launch`).
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyopencl as cl
from pyopencl import _cl
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xgpu.backend.opencl.program import KernelABI, OpenCLProgram
from xgpu.diagnostics import symbol_text
from xgpu.runtime.launch_limits import Limits, check_launch, opencl_limits
from xgpu.runtime.launch_repeat import add_repeat
from xgpu.runtime.memref import (
    HOST_MEMORY_FIX,
    MemRef,
    RuntimeFailure,
    find_kernel,
    kernel_name,
)
from xgpu.runtime.opencl_device import BuildFailure, GpuRuntime, flush_host_output
from xgpu.runtime.watch import LaunchSite

# Kernel argument slots of a launch, in OpenCL argument order.
# ("buffer", k)            operand k's cl.Buffer
# ("offset", k)            operand k's element offset (int64)
# ("size", k, d)           operand k's size d (int64)
# ("stride", k, d)         operand k's stride d (int64)
# ("scalar", k, dtype)     operand k's value as `dtype`
# ("local", nbytes)        a __local buffer of nbytes
# ("block_local", f, p)    a __local buffer of f + p * (work-items per block) bytes
# ("dynamic_local",)       the launch's dynamic shared memory (a __local buffer)
# ("dynamic_size",)        its size in bytes (int64)
# ("extent", k)            operand k's buffer size in elements (int64)
# ("record",)              the run's error record (a cl.Buffer)
# ("launch",)              the launch id (int64)
Slot = tuple


@dataclass
class KernelInfo:
    """What launching one kernel takes."""

    symbol: str  # "@module::@kernel", for traces and errors
    kernel: cl.Kernel
    slots: list[Slot]
    operand_count: int
    prints: bool = False
    #: the memref operands, and those the kernel may write (operand indices):
    #: what keeps registered host memory coherent (`xgpu.runtime.coherence`)
    memrefs: tuple[int, ...] = ()
    written: tuple[int, ...] = ()
    program: OpenCLProgram | None = None
    abi: KernelABI | None = None
    limits: Limits | None = None


class KernelBuildError(Exception):
    """A kernel module failed to compile or build: `message`, at `op`, with the
    generated OpenCL line when known."""

    def __init__(self, op: Operation | None, message: str, notes: list[tuple[Any, str]]):
        super().__init__(message)
        self.op = op
        self.message = message
        self.notes = notes


_PACK_CHARS = frozenset("cbBhHiIlLfd")


def _pack_char(dtype: np.dtype) -> str:
    char = np.dtype(dtype).char
    if char == "q" and struct.calcsize("l") == 8:
        return "l"
    if char == "Q" and struct.calcsize("L") == 8:
        return "L"
    if char == "?":
        return "B"
    return char


class KernelCache:
    """The programs and kernels of one run."""

    def __init__(
        self,
        module: ModuleOp,
        gpu: GpuRuntime,
        subgroup_size: int | None = None,
        reduction: str | None = None,
    ):
        self.module = module
        self.gpu = gpu
        #: emulated subgroup size (None: one subgroup per workgroup)
        self.subgroup_size = subgroup_size
        #: "fold" or "tree" (None: the device's choice, `emit_options`)
        self.reduction = reduction
        self.modules: dict[int, tuple[OpenCLProgram, cl.Program]] = {}
        self.infos: dict[tuple[int, str], KernelInfo] = {}

    # -- building ---------------------------------------------------------- #

    def program(self, module_op: Operation) -> tuple[OpenCLProgram, cl.Program]:
        key = id(module_op)
        built = self.modules.get(key)
        if built is not None:
            return built
        from xgpu.backend.opencl import EmitError, compile_gpu_module
        from xgpu.backend.opencl.device import emit_options

        name = module_op.sym_name.data
        try:
            options = emit_options(self.gpu.dctx.device, self.reduction)
            if self.subgroup_size is not None and options["subgroups"] == "emulate":
                options["subgroup_size"] = self.subgroup_size
            ocl = compile_gpu_module(module_op, checked=self.gpu.checked, **options)
        except EmitError as err:
            raise KernelBuildError(
                err.op or module_op,
                f"{err.op_message} (compiling gpu.module {symbol_text(name)} to OpenCL C)",
                [],
            ) from None
        try:
            program = self.gpu.dctx.build(ocl.source, ocl.build_options)
        except BuildFailure as failure:
            notes: list[tuple[Any, str]] = []
            origin = None
            if failure.line is not None:
                origin = ocl.line_origin(failure.line)
                notes.append(
                    (None, f"generated OpenCL C, line {failure.line}: {failure.source_line}")
                )
            op = origin if isinstance(origin, Operation) else module_op
            raise KernelBuildError(
                op,
                f"OpenCL build of gpu.module {symbol_text(name)} failed: {failure.message}",
                notes,
            ) from None
        built = self.modules[key] = (ocl, program)
        return built

    def info(self, launch: Operation) -> KernelInfo:
        ref = launch.kernel
        module_op, func_op = find_kernel(self.module, ref)
        key = (id(module_op), func_op.sym_name.data)
        info = self.infos.get(key)
        if info is not None:
            return info
        ocl, program = self.program(module_op)
        kname = func_op.sym_name.data
        abi = ocl.kernels[kname]
        kernel = self.gpu.dctx.kernel(program, abi.cl_name)
        slots = abi_slots(abi, func_op)
        prints = any(o.name == "gpu.printf" for o in func_op.walk())
        symbol = kernel_name(module_op, func_op)
        device = self.gpu.dctx.device
        _check_parameter_size(abi, device, func_op)
        try:
            wg = kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, device)
        except cl.Error:  # pragma: no cover - every OpenCL 1.x device answers
            wg = None
        memrefs, written = _memref_operands(abi, func_op)
        info = self.infos[key] = KernelInfo(
            symbol,
            kernel,
            slots,
            len(abi.args),
            prints,
            memrefs,
            written,
            ocl,
            abi,
            opencl_limits(device, wg),
        )
        return info

    # -- launchers --------------------------------------------------------- #

    def launcher(self, launch: Operation):
        """The generated launcher of a `gpu.launch_func` site."""
        info = self.info(launch)
        if len(launch.kernel_operands) != info.operand_count:
            raise RuntimeFailure(
                f"{info.symbol} takes {info.operand_count} operands, "
                f"{len(launch.kernel_operands)} given"
            )
        return make_launcher(info, self.gpu, is_async=launch.async_token is not None, op=launch)


def make_launcher(info: KernelInfo, gpu: GpuRuntime, is_async: bool, op: Operation | None = None):
    """Generate the launcher of `info` (see the module docstring)."""
    watch = gpu.watch
    ns: dict[str, Any] = {
        "_k": info.kernel,
        "_q": gpu.queue,
        "_enq": _cl.enqueue_nd_range_kernel,
        "_setm": info.kernel._set_arg_multi,
        "_pack": info.kernel._set_arg_buf_pack_multi,
        "_setb": info.kernel._set_arg_buf,
        "_spack": struct.pack,
        "_LM": cl.LocalMemory,
        "_nobuf": _no_buffer,
        "_flush": flush_host_output,
        "_tok": gpu.tokens,
        "_trace": gpu.tracer.command if gpu.tracer is not None else None,
        "_sym": info.symbol,
        "_now": time.perf_counter_ns,
        "_bad": _bad_launch(info, op),
        "_site": LaunchSite(op, info.symbol, info.program),
        "_launches": watch.launches,
        "_lid": watch.launch_id,
        "_w": watch,
        "_inf": watch.inflight,
        "_rec": watch.record.buffer if watch.record is not None else None,
    }
    operands = [f"a{k}" for k in range(info.operand_count)]
    lines = [
        f"def launch(deps, gx, gy, gz, bx, by, bz, shmem{''.join(', ' + a for a in operands)}):"
    ]
    body: list[str] = []
    coherence = gpu.coherence if info.memrefs else None
    if coherence is not None:
        # Registered host memory on a device without unified memory: what
        # the host changed goes to the device first, and what the kernel
        # may write is recorded (`xgpu.runtime.coherence`).
        ns["_pre"] = coherence.before
        ns["_post"] = coherence.after
        body.append(f"deps = _pre(deps, ({''.join(f'a{k}, ' for k in info.memrefs)}))")
    # Arguments that did not change since the kernel's last launch are not set
    # again (clSetKernelArg costs about as much as the enqueue on PoCL): the
    # kernel's memo (`DeviceContext.arg_memo`, shared by every launcher of the
    # same cl.Kernel) holds the values last set. A buffer is the same only if
    # it is the same cl.Buffer object (the memo holds it: a new buffer is a
    # new object even where OpenCL reuses the handle); an integer compares by
    # value (the slot's format is fixed, so equal values pack to equal bytes);
    # a float by its packed bytes (-0.0 == 0.0, NaN != NaN). The launch id of
    # checked kernels has its own memo entry; `__local` sizes that depend on
    # the launch are set every time. Only xgpu's launchers set the arguments of these kernels.
    ns["_c"] = gpu.dctx.arg_memo(info.kernel, len(info.slots) + 1)
    slow: list[str] = []
    buffers: list[str] = []  # cached cl.Buffer / LocalMemory arguments
    packed: list[str] = []  # cached integers: index, format, value
    raw: list[tuple[int, str]] = []  # cached packed bytes (floats, odd formats)
    always_buf: list[str] = []  # set at every launch
    always_packed: list[str] = []
    keys: list[tuple[int, str, bool]] = []  # (index, local name, compare by identity)
    seen_buf: set[int] = set()
    launch_slot = None  # the launch id's argument (checked kernels)
    slow.append(f"if not ({_fast_check(info)}): _bad(gx, gy, gz, bx, by, bz, shmem)")
    listed = watch.record is not None or watch.timeout is not None
    if listed:
        # The launch's id (`watch`): the last one of this site while the
        # memref operands are the same ones and the id is still listed (a
        # failure's report depends only on the site, the memref operands and
        # the record), else a new one, listed with the site and operands.
        ns["_m"] = [0] + [None] * len(info.memrefs)
        same = "".join(f"a{k} is _m[{j + 1}] and " for j, k in enumerate(info.memrefs))
        body.append(f"if {same}_m[0] in _launches:")
        body.append("    lid = _m[0]")
        body.append("else:")
        body.append("    lid = _lid()")
        body.append(f"    _launches[lid] = (_site, ({''.join(a + ', ' for a in operands)}))")
        targets = "".join(f", _m[{j + 1}]" for j in range(len(info.memrefs)))
        values = "".join(f", a{k}" for k in info.memrefs)
        body.append(f"    _m[0]{targets} = lid{values}")
    for index, slot in enumerate(info.slots):
        kind = slot[0]
        v = f"v{index}"
        if kind == "buffer":
            k = slot[1]
            if k not in seen_buf:
                slow.append(f"b{k} = a{k}.storage.buf")
                slow.append(f"if b{k} is None: _nobuf({k}, a{k}, _sym)")
                seen_buf.add(k)
            buffers += [str(index), f"b{k}"]
            keys.append((index, f"b{k}", True))
            continue
        if kind == "offset":
            expr = f"a{slot[1]}.offset"
        elif kind == "size":
            expr = f"a{slot[1]}.sizes[{slot[2]}]"
        elif kind == "stride":
            expr = f"a{slot[1]}.strides[{slot[2]}]"
        elif kind == "scalar":
            char = _pack_char(slot[2])
            if char in _PACK_CHARS and char not in "fd":
                expr = f"a{slot[1]}"
            else:
                slow.append(f"{v} = _spack({char!r}, a{slot[1]})")
                raw.append((index, v))
                keys.append((index, v, False))
                continue
        elif kind == "local":
            name = f"_loc{index}"
            ns[name] = cl.LocalMemory(max(int(slot[1]), 1))
            buffers += [str(index), name]
            keys.append((index, name, True))
            continue
        elif kind == "dynamic_local":
            always_buf += [str(index), "_LM(shmem if shmem > 0 else 1)"]
            continue
        elif kind == "dynamic_size":
            expr = "shmem"
        elif kind == "extent":
            k = slot[1]
            expr = f"a{k}.storage.nbytes // a{k}.dtype.itemsize"
        elif kind == "record":
            buffers += [str(index), "_rec"]
            keys.append((index, "_rec", True))
            continue
        elif kind == "launch":
            launch_slot = index
            continue
        elif kind == "block_local":
            always_buf += [str(index), f"_LM({slot[1]} + {slot[2]} * bx * by * bz)"]
            continue
        else:
            raise RuntimeFailure(f"unknown kernel argument kind {kind!r}")
        slow.append(f"{v} = {expr}")
        packed += [str(index), "b'l'" if kind != "scalar" else repr(char.encode()), v]
        keys.append((index, v, False))
    if keys:
        changed = " or ".join(
            f"{name} {'is not' if same else '!='} _c[{index}]" for index, name, same in keys
        )
        slow.append(f"if {changed}:")
        if buffers:
            slow.append(f"    _setm(({', '.join(buffers)},))")
        if packed:
            slow.append(f"    _pack(({', '.join(packed)},))")
        for index, name in raw:
            slow.append(f"    _setb({index}, {name})")
        # Remembered once all are set (a failing set leaves the memo stale,
        # so the next launch sets everything again).
        targets = ", ".join(f"_c[{index}]" for index, _, _ in keys)
        values = ", ".join(name for _, name, _ in keys)
        slow.append(f"    {targets} = {values}")
    # The launch's sizes and the values of the kernel's arguments follow
    # from the launcher's arguments: a launch with the same sizes and
    # operands as the launcher's last (equal integers, the same memref and
    # scalar objects, the same buffers) on a kernel whose arguments this
    # launcher set last (the memo's last entry, cleared while they change)
    # passed the checks and sets nothing.
    marker = len(info.slots)
    raw_operands = sorted(
        {
            slot[1]
            for slot in info.slots
            if slot[0] == "scalar"
            and not (_pack_char(slot[2]) in _PACK_CHARS and _pack_char(slot[2]) not in "fd")
        }
    )
    keyed = ["gx", "gy", "gz", "bx", "by", "bz", "shmem"] + [
        f"a{k}" for k in range(info.operand_count) if k not in raw_operands
    ]
    held = [f"a{k}" for k in raw_operands] + [f"b{k}" for k in sorted(seen_buf)]
    ns["_p"] = [None] * (3 + len(held))
    fast = [f"({', '.join(keyed)},) == _p[0]", f"_c[{marker}] is _p"]
    for j, name in enumerate(held):
        what = f"a{name[1:]}.storage.buf" if name[0] == "b" else name
        fast.append(f"{what} is _p[{3 + j}]")
    body.append(f"if {' and '.join(fast)}:")
    body.append("    gs, ls = _p[1], _p[2]")
    body.append("else:")
    body.append(f"    _c[{marker}] = None")
    body.extend("    " + line for line in slow)
    # Trailing dimensions of size 1 are left out of the NDRange: OpenCL gives
    # a work-item the same ids and sizes in a dimension past the work_dim
    # (id 0, size 1), and PoCL enqueues a 1-D range faster than a 3-D one
    # (0.4 to 0.9 us of a 4 to 7 us launch).
    body.append("    if gz == 1 and bz == 1:")
    body.append("        if gy == 1 and by == 1:")
    body.append("            gs, ls = (gx * bx,), (bx,)")
    body.append("        else:")
    body.append("            gs, ls = (gx * bx, gy * by), (bx, by)")
    body.append("    else:")
    body.append("        gs, ls = (gx * bx, gy * by, gz * bz), (bx, by, bz)")
    body.append(f"    _p[:] = ({', '.join(keyed)},), gs, ls{''.join(', ' + h for h in held)}")
    body.append(f"    _c[{marker}] = _p")
    if listed and coherence is None and not (always_buf or always_packed or info.prints):
        if gpu.tracer is None:
            # The common repeated launch, whole: the sizes and operands of this
            # launcher's last launch, its arguments still the kernel's (so the
            # launch id set is `_m[0]`, its last) and that id still listed.
            fast_whole = [
                f"if {' and '.join(fast)} and (lid := _m[0]) in _launches:",
                "    e = _enq(_q, _k, _p[1], _p[2], None, deps, False, True)",
            ]
            fast_whole += ["    " + line for line in _listed_entry(watch, "lid")]
            fast_whole += ["    " + line for line in _launch_result(is_async)]
            body[:0] = fast_whole
    if launch_slot is not None:
        # Set when it changed: its own memo entry (the other arguments are
        # not set again when only the launch id changes).
        body.append(f"if lid != _c[{launch_slot}]:")
        body.append(f"    _pack(({launch_slot}, b'l', lid))")
        body.append(f"    _c[{launch_slot}] = lid")
    if always_buf:
        body.append(f"_setm(({', '.join(always_buf)},))")
    if always_packed:
        body.append(f"_pack(({', '.join(always_packed)},))")
    if info.prints:
        body.append("_flush()")
    if gpu.tracer is not None:
        body.append("t0 = _now()")
    body.append("e = _enq(_q, _k, gs, ls, None, deps, False, True)")
    if gpu.tracer is not None:
        body.append(
            "_trace(e, _sym, 'kernel', before_ns=t0, grid=[gx, gy, gz], block=[bx, by, bz])"
        )
    if coherence is not None and info.written:
        body.append(f"_post((e,), ({''.join(f'a{k}, ' for k in info.written)}))")
    if listed:
        ns["_me"] = [_NO_ENTRY]
        body.extend(_listed_entry(watch, "lid"))
    body.extend(_launch_result(is_async))
    if getattr(gpu, "launch_count", None) is not None:  # counted for a progress line
        ns["_cnt"] = gpu.launch_count
        body.insert(0, "_cnt[0] += 1")
    source = "\n".join(lines + ["    " + b for b in body]) + "\n"
    # The file name is for tracebacks only; ascii() escapes what a symbol may hold.
    exec(compile(source, f"<xgpu-launch {ascii(info.symbol)[1:-1]}>", "exec"), ns)
    launch = ns["launch"]
    launch.source = source  # type: ignore[attr-defined]
    if is_async:
        # n chained launches of the site as one call (`launch_repeat`), its
        # tight loop where a launch on the fast path is only the enqueue.
        tight = (
            coherence is None
            and gpu.tracer is None
            and not (always_buf or always_packed or info.prints)
            and (listed or launch_slot is None)
        )
        params = ", ".join(["gx, gy, gz, bx, by, bz, shmem", *operands])
        add_repeat(launch, ns, info.symbol, params, " and ".join(fast) if tight else None, listed)
    return launch


def _listed_entry(watch: Any, lid: str) -> list[str]:
    """A launcher's lines that list its launch's event `e` under the id `lid`
    in `watch.inflight`. A launch that waits for the last listed launch of its
    site under the same id takes that entry's place: the entry then stands
    for a chain of launches, complete when its last is. With a timeout the
    entry also keeps the chain's first event, so that a timeout can tell a
    chain that has started from one still waiting (`Watch._timeout`): every
    launch of a chain has the same site, which is what a timeout names."""
    first = ", e" if watch.timeout is not None else ""
    return [
        "ent = _me[0]",
        f"if {lid} == ent[0] and deps and deps[0] is ent[1]:",
        "    ent[1] = e",
        "else:",
        f"    ent = _me[0] = [{lid}, e{first}]",
        "    _inf.append(ent)",
        "    if len(_inf) > _w.sweep_at: _w.sweep()",
    ]


def _launch_result(is_async: bool) -> list[str]:
    """A launcher's last lines: its token, or (synchronous) the wait for `e`."""
    if is_async:
        return ["return (e,)"]
    return ["_tok.wait((e,), 'gpu.launch_func ' + _sym)", "return ()"]


#: the last entry of a launcher that has listed none
_NO_ENTRY = [0, None]


def _no_buffer(k: int, value: Any, symbol: str) -> None:
    if isinstance(value, MemRef):
        raise RuntimeFailure(
            f"operand {k} of {symbol} is host memory that the device cannot use ({HOST_MEMORY_FIX})"
        )
    raise RuntimeFailure(f"operand {k} of {symbol} is not a memref")


def abi_slots(abi: KernelABI, func_op: Operation) -> list[Slot]:
    """The argument slots of a kernel from the emitter's `KernelABI.params`."""
    slots: list[Slot] = []
    for p in abi.params:
        if p.kind == "buffer":
            slots.append(("buffer", p.arg))
        elif p.kind == "offset":
            slots.append(("offset", p.arg))
        elif p.kind in ("size", "stride"):
            slots.append((p.kind, p.arg, p.dim))
        elif p.kind == "scalar":
            slots.append(("scalar", p.arg, np.dtype(p.dtype)))
        elif p.kind == "extent":
            slots.append(("extent", p.arg))
        elif p.kind == "dsm_size":
            slots.append(("dynamic_size",))
        elif p.kind in ("record", "launch"):
            slots.append((p.kind,))
        elif p.kind == "local":
            local = p.local
            if local.kind == "dynamic_shared_memory":
                slots.append(("dynamic_local",))
            elif local.bytes_per_work_item:
                slots.append(("block_local", local.fixed_bytes, local.bytes_per_work_item))
            else:
                slots.append(("local", local.fixed_bytes))
        else:
            raise RuntimeFailure(f"kernel argument of unknown kind {p.kind!r}")
    return slots


def _memref_operands(abi: KernelABI, func_op: Operation) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The memref arguments of a kernel, and those its body may write (any
    argument whose uses the analysis cannot follow counts as written)."""
    from xgpu.analysis.buffer_effects import WRITE, KernelEffects

    memrefs = tuple(a.index for a in abi.args if a.kind == "memref")
    modes = KernelEffects().kernel_modes(func_op)
    if modes is None or len(modes) != len(abi.args):
        return memrefs, memrefs
    return memrefs, tuple(k for k in memrefs if modes[k] & WRITE)


def _local_parts(info: KernelInfo) -> tuple[int, int]:
    """(fixed bytes, bytes per work-item) of the kernel's `__local` buffers
    besides the dynamic shared memory."""
    fixed = per_item = 0
    for slot in info.slots:
        if slot[0] == "local":
            fixed += int(slot[1])
        elif slot[0] == "block_local":
            fixed += int(slot[1])
            per_item += int(slot[2])
    return fixed, per_item


def _fast_check(info: KernelInfo) -> str:
    """A Python condition that holds when the launch fits every limit
    (`_bad_launch` says what is wrong otherwise)."""
    lim = info.limits
    assert lim is not None
    bx, by, bz = lim.block_dims
    parts = [
        f"0 < bx <= {bx} and 0 < by <= {by} and 0 < bz <= {bz}",
        f"bx * by * bz <= {lim.block_total}",
        f"0 < gx and 0 < gy and 0 < gz and gx * gy * gz <= {lim.grid_total}",
    ]
    fixed, per_item = _local_parts(info)
    local = f"{fixed} + shmem" + (f" + {per_item} * bx * by * bz" if per_item else "")
    parts.append(f"0 <= shmem and {local} <= {lim.local_bytes}")
    if lim.global_bits is not None and lim.global_bits < 64:
        top = 2**lim.global_bits
        parts.append(f"gx * bx < {top} and gy * by < {top} and gz * bz < {top}")
    abi = info.abi
    if abi is not None and abi.known_block_size is not None:
        parts.append(f"(bx, by, bz) == {tuple(abi.known_block_size)!r}")
    if abi is not None and abi.known_grid_size is not None:
        parts.append(f"(gx, gy, gz) == {tuple(abi.known_grid_size)!r}")
    return " and ".join(parts)


def _bad_launch(info: KernelInfo, op: Operation | None):
    def bad(gx, gy, gz, bx, by, bz, shmem) -> None:
        assert info.limits is not None
        fixed, per_item = _local_parts(info)
        parts = []
        for slot in info.slots:
            if slot[0] == "local" and slot[1]:
                parts.append(("workgroup attributions", int(slot[1])))
            elif slot[0] == "block_local":
                n = int(slot[1]) + int(slot[2]) * bx * by * bz
                parts.append(("reduction scratch", n))
        abi = info.abi
        message = check_launch(
            info.limits,
            (gx, gy, gz),
            (bx, by, bz),
            shmem,
            _merge(parts),
            abi.known_block_size if abi is not None else None,
            abi.known_grid_size if abi is not None else None,
        )
        raise RuntimeFailure(f"gpu.launch_func {info.symbol}: {message or 'invalid launch'}")

    return bad


def _merge(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    merged: dict[str, int] = {}
    for what, n in parts:
        merged[what] = merged.get(what, 0) + n
    return list(merged.items())


def _check_parameter_size(abi: KernelABI, device: Any, func_op: Operation) -> None:
    """A kernel whose arguments do not fit CL_DEVICE_MAX_PARAMETER_SIZE is
    an error at the kernel (some drivers fail, others crash)."""
    pointer = int(device.address_bits) // 8
    total = 0
    for p in abi.params:
        if p.kind in ("buffer", "local", "record"):
            total += pointer
        else:
            total += np.dtype(p.dtype).itemsize if p.dtype is not None else 8
    limit = int(device.max_parameter_size)
    if total > limit:
        raise KernelBuildError(
            func_op,
            f"the kernel's {len(abi.params)} OpenCL arguments take {total} bytes, more than "
            f"the device's {limit} (CL_DEVICE_MAX_PARAMETER_SIZE)",
            [],
        )
