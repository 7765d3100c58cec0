"""What the lit configurations of the xgpu-run tests share: whether there is
an OpenCL device, and the environment OpenCL and xgpu-run read.

The device is asked for in a child process: lit's workers fork xgpu-run
(`lit_inprocess`), and a process that has started OpenCL cannot be forked
(its device threads would not exist in the child).
"""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = (
    "import pyopencl as cl\n"
    "if not any(p.get_devices() for p in cl.get_platforms()):\n"
    "    raise SystemExit('no OpenCL device')\n"
)

#: what the OpenCL ICD loader, PoCL and xgpu-run read from the environment
ENVIRONMENT = (
    "XDG_CACHE_HOME",
    "POCL_CACHE_DIR",
    "POCL_MAX_PTHREAD_COUNT",
    "POCL_DEVICES",
    "OCL_ICD_VENDORS",
    "OPENCL_VENDOR_PATH",
    "XGPU_DEVICE",
    "XGPU_OPENCL_DEVICE",
    "XGPU_OOO",
    "XGPU_HOST_COPIES",
)


def configure(config, lit_config) -> None:
    """UNSUPPORTED, with the reason printed, where there is no OpenCL device;
    the OpenCL environment passed on."""
    probe = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no OpenCL device"])[-1]
        lit_config.note(
            f"no OpenCL device ({last}): the xgpu-run tests are UNSUPPORTED "
            "(pip install 'pyopencl[pocl]')"
        )
        config.unsupported = True
    for var in ENVIRONMENT:
        if var in os.environ:
            config.environment[var] = os.environ[var]
