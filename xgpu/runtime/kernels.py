"""Kernels of a run: one OpenCL program per `gpu.module`, and a generated
launcher per `gpu.launch_func` site.

`KernelCache.launcher(op)` compiles the launched `gpu.module` with the OpenCL
emitter (`xgpu.backend.opencl.compile_gpu_module`, once per module per run),
builds it (once per device and source per process, see
`opencl_device.DeviceContext`), and generates a Python function for the site:

    def launch(deps, gx, gy, gz, bx, by, bz, shmem, *operands) -> token

It sets the kernel's arguments as the kernel's ABI says (a memref operand
passes its buffer, element offset, sizes and strides; a scalar its value, packed
as the ABI's numpy type; `__local` buffers for workgroup attributions, dynamic
shared memory and reduction scratch) with pyopencl's `_set_arg_multi` and
`_set_arg_buf_pack_multi`, and enqueues the kernel with
`_cl.enqueue_nd_range_kernel` waiting for `deps`. Global size is grid x block,
local size is block.
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
from xgpu.runtime.memref import MemRef, RuntimeFailure, find_kernel
from xgpu.runtime.opencl_device import BuildFailure, GpuRuntime, flush_host_output

# Kernel argument slots of a launch, in OpenCL argument order.
# ("buffer", k)            operand k's cl.Buffer
# ("offset", k)            operand k's element offset (int64)
# ("size", k, d)           operand k's size d (int64)
# ("stride", k, d)         operand k's stride d (int64)
# ("scalar", k, dtype)     operand k's value as `dtype`
# ("local", nbytes)        a __local buffer of nbytes
# ("block_local", f, p)    a __local buffer of f + p * (work-items per block) bytes
# ("dynamic_local",)       the launch's dynamic shared memory (a __local buffer)
Slot = tuple


@dataclass
class KernelInfo:
    """What launching one kernel takes."""

    symbol: str  # "@module::@kernel", for traces and errors
    kernel: cl.Kernel
    slots: list[Slot]
    operand_count: int
    prints: bool = False


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
            ocl = compile_gpu_module(module_op, **options)
        except EmitError as err:
            raise KernelBuildError(
                err.op or module_op,
                f"{err.op_message} (compiling gpu.module @{name} to OpenCL C)",
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
                f"OpenCL build of gpu.module @{name} failed: {failure.message}",
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
        symbol = f"@{module_op.sym_name.data}::@{kname}"
        info = self.infos[key] = KernelInfo(symbol, kernel, slots, len(abi.args), prints)
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
        return make_launcher(info, self.gpu, is_async=launch.async_token is not None)


def make_launcher(info: KernelInfo, gpu: GpuRuntime, is_async: bool):
    """Generate the launcher of `info` (see the module docstring)."""
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
    }
    operands = [f"a{k}" for k in range(info.operand_count)]
    lines = [
        f"def launch(deps, gx, gy, gz, bx, by, bz, shmem{''.join(', ' + a for a in operands)}):"
    ]
    body: list[str] = []
    buffers: list[str] = []
    packed: list[str] = []
    seen_buf: set[int] = set()
    for index, slot in enumerate(info.slots):
        kind = slot[0]
        if kind == "buffer":
            k = slot[1]
            if k not in seen_buf:
                body.append(f"b{k} = a{k}.storage.buf")
                body.append(f"if b{k} is None: _nobuf({k}, a{k}, _sym)")
                seen_buf.add(k)
            buffers += [str(index), f"b{k}"]
        elif kind == "offset":
            packed += [str(index), "b'l'", f"a{slot[1]}.offset"]
        elif kind == "size":
            packed += [str(index), "b'l'", f"a{slot[1]}.sizes[{slot[2]}]"]
        elif kind == "stride":
            packed += [str(index), "b'l'", f"a{slot[1]}.strides[{slot[2]}]"]
        elif kind == "scalar":
            char = _pack_char(slot[2])
            if char in _PACK_CHARS:
                packed += [str(index), repr(char.encode()), f"a{slot[1]}"]
            else:
                body.append(f"_setb({index}, _spack({char!r}, a{slot[1]}))")
        elif kind == "local":
            name = f"_loc{index}"
            ns[name] = cl.LocalMemory(max(int(slot[1]), 1))
            buffers += [str(index), name]
        elif kind == "dynamic_local":
            buffers += [str(index), "_LM(shmem if shmem > 0 else 1)"]
        elif kind == "block_local":
            buffers += [str(index), f"_LM({slot[1]} + {slot[2]} * bx * by * bz)"]
        else:
            raise RuntimeFailure(f"unknown kernel argument kind {kind!r}")
    if buffers:
        body.append(f"_setm(({', '.join(buffers)},))")
    if packed:
        body.append(f"_pack(({', '.join(packed)},))")
    if info.prints:
        body.append("_flush()")
    if gpu.tracer is not None:
        body.append("t0 = _now()")
    body.append(
        "e = _enq(_q, _k, (gx * bx, gy * by, gz * bz), (bx, by, bz), None, deps, False, True)"
    )
    if gpu.tracer is not None:
        body.append(
            "_trace(e, _sym, 'kernel', before_ns=t0, grid=[gx, gy, gz], block=[bx, by, bz])"
        )
    if is_async:
        body.append("return (e,)")
    else:
        body.append("_tok.wait((e,), 'gpu.launch_func ' + _sym)")
        body.append("return ()")
    source = "\n".join(lines + ["    " + b for b in body]) + "\n"
    exec(compile(source, f"<xgpu-launch {info.symbol}>", "exec"), ns)
    launch = ns["launch"]
    launch.source = source  # type: ignore[attr-defined]
    return launch


def _no_buffer(k: int, value: Any, symbol: str) -> None:
    if isinstance(value, MemRef):
        raise RuntimeFailure(
            f"operand {k} of {symbol} is host memory that the device cannot use "
            "(gpu.host_register it, or copy it to gpu.alloc memory)"
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
