"""Choosing an OpenCL device, and what the emitter should assume about it.

`select_device()` returns the first CPU or GPU device of the first platform
that has one, or, when `XGPU_OPENCL_DEVICE` is set, the first device whose
"platform name / device name / platform version" text contains that
substring (case-insensitive). It raises `NoDevice` (with the reason) when
pyopencl is missing or no device matches.

`emit_options(device)` gives the `compile_gpu_module` keyword arguments that
fit the device: cl_khr_subgroups -> `subgroups="khr"`, cl_khr_fp16 ->
`fp16=True`.
"""

from __future__ import annotations

import os
from typing import Any


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


def emit_options(device: Any) -> dict[str, Any]:
    exts = set(device.extensions.split())
    return {
        "subgroups": "khr" if "cl_khr_subgroups" in exts else "emulate",
        "fp16": "cl_khr_fp16" in exts,
    }
