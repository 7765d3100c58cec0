"""Kernels of a run: one OpenCL program per `gpu.module`, and a generated
launcher per `gpu.launch_func` site.

`KernelCache.launcher(op)` compiles the launched `gpu.module` with the OpenCL
emitter (`xgpu.backend.opencl.compile_gpu_module`, once per module per run),
builds it (once per device and source per process, see
`opencl_device.DeviceContext`), and generates a Python function for the site
(`launcher.make_launcher`):

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

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyopencl as cl
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from xgpu.backend.opencl.program import KernelABI, OpenCLProgram
from xgpu.diagnostics import symbol_text
from xgpu.runtime.launch_limits import Limits, opencl_limits
from xgpu.runtime.launcher import make_launcher
from xgpu.runtime.memref import (
    RuntimeFailure,
    find_kernel,
    kernel_name,
)
from xgpu.runtime.opencl_device import BuildFailure, GpuRuntime

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
