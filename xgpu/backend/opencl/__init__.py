"""gpu.module -> OpenCL C 1.2 (`xgpu-opt -t opencl`).

API (stable; the runtime builds on it):

    from xgpu.backend.opencl import compile_gpu_module, EmitError

    prog = compile_gpu_module(gpu_module_op)       # OpenCLProgram, or EmitError
    prog.source            # the OpenCL C program (one per gpu.module)
    prog.build_options     # "-cl-std=CL1.2"
    prog.kernels["name"]   # KernelABI, keyed by the gpu.func symbol name
    prog.line_origin(n)    # the Operation that generated source line n (1-based)
    prog.line_location(n)  # its xgpu.diagnostics.Location
    prog.explain_build_log(log)  # compiler messages with the line and op behind each

`compile_gpu_module(op, *, subgroups="emulate", subgroup_size=None, fp16=False,
checked=True, reduction="fold")`:
`subgroups="khr"` uses cl_khr_subgroups builtins (for devices that have them),
"emulate" emulates subgroups through `__local` memory (PoCL 3.x has no
subgroups); `subgroup_size` sets the emulated subgroup size (None: one
subgroup per workgroup); `fp16=True` allows f16 values (the device must have
cl_khr_fp16); `checked=True` guards every memory access and records the first
out-of-bounds one (`guards`; `checked=False` gives the plain accesses);
`reduction` is how `gpu.all_reduce` and emulated `gpu.subgroup_reduce`
combine: "fold" (one lane folds left to right: CPU devices) or "tree"
(halving steps with a barrier each: GPUs). `device.emit_options(device)`
picks all of these for a device. See `reductions` for the subgroup model and
the two orders.

KernelABI (`program.py`): `cl_name` (the OpenCL kernel name, made by xgpu:
`xg<N>_<hint>`, see `names`); `args`, per gpu.func argument: `MemRefArg` (element
`dtype`, `shape`/`strides` with None where dynamic, `address_space`) or
`ScalarArg` (`dtype`: index -> int64, i1 -> uint8, iN/fN as numpy); `locals`:
the extra `__local` buffers (`LocalArg`, `nbytes(block, dynamic_shared_memory)`),
in the order workgroup attributions, dynamic shared memory (if used), scratch
(if used); `params`: every OpenCL argument in order, a `Param` of kind

- "buffer" (the memref's cl.Buffer: its aligned pointer),
- "offset", "size" (dim d), "stride" (dim d): int64, in elements (a memref
  argument passes buffer, offset, every size, every stride, in that order),
- "scalar": the value as `dtype`,
- "local": a `__local` buffer of `local.nbytes(block, dsm_bytes)` bytes,
- "dsm_size": the dynamic shared memory size in bytes (int64),
- checked kernels only: "extent" (after a memref's strides: its buffer's
  element count), "record" and "launch" (last: the error record buffer and
  the launch id, see `guards`).

`scalar_arg_dtypes()` gives the list for `pyopencl.Kernel.set_scalar_arg_dtypes`;
`pack_args(values, block, dynamic_shared_memory, record=None, launch=0)` the
arguments of one launch (memref values as `(buffer, offset, sizes, strides)`).

Errors: `EmitError(op, message)`: `op` could not be emitted (unsupported op,
type or construct); `str(err)` is `FILE:LINE:COL: error: 'op' op MESSAGE`.

What is emitted: see `emit` (bodies, control flow), `memref` (descriptors),
`reductions` (all_reduce and subgroup ops), `names` (mangling, escaped
literals), `types`; scalar op semantics come from `xgpu.semantics`, printf
formats from `xgpu.semantics.printf`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from xgpu.backend.opencl.device import check_reduction
from xgpu.backend.opencl.emit import BUILD_OPTIONS, Options, emit_program
from xgpu.backend.opencl.errors import EmitError
from xgpu.backend.opencl.program import (
    KernelABI,
    LocalArg,
    MemRefArg,
    OpenCLProgram,
    Param,
    ScalarArg,
)

__all__ = [
    "BUILD_OPTIONS",
    "EmitError",
    "KernelABI",
    "LocalArg",
    "MemRefArg",
    "OpenCLProgram",
    "Param",
    "ScalarArg",
    "compile_gpu_module",
    "compile_all",
]


def compile_gpu_module(
    module_op: Operation,
    *,
    subgroups: str = "emulate",
    subgroup_size: int | None = None,
    fp16: bool = False,
    checked: bool = True,
    reduction: str = "fold",
) -> OpenCLProgram:
    """The OpenCL C program of one `gpu.module` (raises `EmitError`)."""
    if module_op.name != "gpu.module":
        raise EmitError(module_op, "expected a gpu.module")
    if subgroups not in ("emulate", "khr"):
        raise ValueError(f"subgroups must be 'emulate' or 'khr', not {subgroups!r}")
    if subgroup_size is not None and subgroup_size < 1:
        raise ValueError("subgroup_size must be positive")
    return emit_program(
        module_op,
        Options(subgroups, subgroup_size, fp16, checked, check_reduction(reduction)),
    )


def compile_all(root: Operation, **options) -> list[OpenCLProgram]:
    """The programs of every gpu.module nested in `root`, in order."""
    return [compile_gpu_module(op, **options) for op in root.walk() if op.name == "gpu.module"]
