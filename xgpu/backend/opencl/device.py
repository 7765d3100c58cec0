"""Choosing an OpenCL device, and what the emitter should assume about it.

`select_device()` returns the first CPU or GPU device of the first platform
that has one, or, when `XGPU_OPENCL_DEVICE` is set, the first device whose
"platform name / device name / platform version" text contains that
substring (case-insensitive). It raises `NoDevice` (with the reason) when
pyopencl is missing or no device matches.

`emit_options(device, reduction=None)` gives the `compile_gpu_module` keyword
arguments that fit the device: `subgroups="khr"` where it compiles OpenCL C
2.0 and has cl_khr_subgroups and the subgroup extensions the emitter uses
with it (`KHR_SUBGROUP_EXTENSIONS`), else "emulate"; cl_khr_fp16 ->
`fp16=True`; and the order of reductions: `reduction` when given, else
`$XGPU_REDUCTION` when set ("fold" or "tree"), else "fold" on a CPU device
(one lane folds: fewest barriers, PoCL's work-item loops) and "tree" on any
other (GPUs, accelerators, Oclgrind, whose type has every bit).
`forced_reduction()` reads and checks `$XGPU_REDUCTION` (ValueError when it
is neither).
"""

from __future__ import annotations

import os
import re
from typing import Any

from xgpu.semantics.gpu import REDUCTIONS


class NoDevice(RuntimeError):
    """No OpenCL device could be found (the message says why)."""


def select_device(pattern: str | None = None) -> Any:
    try:
        import pyopencl as cl
    except ImportError as err:  # pragma: no cover - depends on the machine
        raise NoDevice(f"pyopencl cannot be imported: {err}") from None
    if pattern is None:
        pattern = os.environ.get("XGPU_OPENCL_DEVICE") or None
    try:
        platforms = cl.get_platforms()
    except Exception as err:  # pyopencl raises LogicError/RuntimeError subclasses
        raise NoDevice(f"no OpenCL platform: {err}") from None
    wanted = cl.device_type.CPU | cl.device_type.GPU
    seen = []
    for platform in platforms:
        try:
            devices = platform.get_devices()
        except Exception:
            continue
        for device in devices:
            text = f"{platform.name} / {device.name} / {platform.version}"
            seen.append(text)
            if pattern is not None:
                if pattern.lower() in text.lower():
                    return device
            elif device.type & wanted:
                return device
    if pattern is not None:
        raise NoDevice(f"no OpenCL device matches XGPU_OPENCL_DEVICE={pattern!r} (have: {seen})")
    raise NoDevice("no OpenCL CPU or GPU device found")


KHR_SUBGROUP_EXTENSIONS = frozenset(
    {
        "cl_khr_subgroups",
        "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_ballot",
    }
)


def opencl_c_version(device: Any) -> tuple[int, int]:
    """The device's OpenCL C version (`OpenCL C 1.2 ...` -> (1, 2))."""
    m = re.match(r"OpenCL C (\d+)\.(\d+)", getattr(device, "opencl_c_version", "") or "")
    return (int(m[1]), int(m[2])) if m else (1, 2)


REDUCTION_ENV = "XGPU_REDUCTION"


def check_reduction(value: str, where: str = "reduction") -> str:
    """`value` if it names a reduction order, else ValueError."""
    if value not in REDUCTIONS:
        raise ValueError(f"{where} must be 'fold' or 'tree', not {value!r}")
    return value


def forced_reduction() -> str | None:
    """`$XGPU_REDUCTION` ("fold" or "tree"), or None when it is unset or empty."""
    value = os.environ.get(REDUCTION_ENV) or None
    return None if value is None else check_reduction(value, REDUCTION_ENV)


def device_reduction(device: Any) -> str:
    """The reduction order that suits `device`: "fold" on CPUs, else "tree".
    A device whose type has the GPU or accelerator bit is not a CPU, whatever
    else it says (Oclgrind's type has every bit)."""
    import pyopencl as cl

    kind = device.type
    if kind & cl.device_type.CPU and not kind & (cl.device_type.GPU | cl.device_type.ACCELERATOR):
        return "fold"
    return "tree"


def emit_options(device: Any, reduction: str | None = None) -> dict[str, Any]:
    exts = set(device.extensions.split())
    khr = KHR_SUBGROUP_EXTENSIONS <= exts and opencl_c_version(device) >= (2, 0)
    if reduction is None:
        reduction = forced_reduction() or device_reduction(device)
    return {
        "subgroups": "khr" if khr else "emulate",
        "fp16": "cl_khr_fp16" in exts,
        "reduction": check_reduction(reduction),
    }
