"""What the device tests need: the OpenCL device check shared by the test
files (importable as `devices`: conftest puts tests/unit on sys.path)."""

from __future__ import annotations

import pytest


def has_opencl() -> bool:
    """Whether an OpenCL device is available (pyopencl[pocl] gives a CPU one)."""
    try:
        from xgpu.runtime.opencl_device import has_device

        return has_device()
    except Exception:  # pragma: no cover - no pyopencl, no platform
        return False


needs_opencl = pytest.mark.skipif(
    not has_opencl(), reason="no OpenCL device (install pyopencl[pocl] for a CPU device)"
)
#: both backends, as pytest parameters (OpenCL skipped without a device)
BACKENDS = [pytest.param("opencl", marks=needs_opencl), "sim"]
