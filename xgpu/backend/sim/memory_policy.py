"""How the simulator asks glibc's malloc to treat freed memory.

The simulator's engines allocate and free numpy temporaries of hundreds of
KiB for every op of a batch (positions, values, masks). glibc serves
requests above `M_MMAP_THRESHOLD` with fresh mappings and gives the top of
its heap back to the system once more than `M_TRIM_THRESHOLD` of it is free:
each op's temporaries are then fresh pages, faulted in again (on a 2-core
VM a tiled 256x256 matmul spent most of its 0.18-0.26 s there; 0.12 s
without). `keep_freed_memory`, called when a simulator runtime starts, sets
both thresholds high for the process: memory a kernel freed stays with the
process for the next op. The process keeps its peak heap until it ends.
`XGPU_SIM_MALLOPT=0` leaves malloc as it is; other C libraries are left
alone.
"""

from __future__ import annotations

import ctypes
import os
import platform

#: mallopt's parameters (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
#: allocations below this come from the heap (glibc's dynamic threshold
#: stops at 32 MiB on 64-bit systems)
MMAP_THRESHOLD = 64 << 20
#: free memory at the heap's top kept before any is given back
TRIM_THRESHOLD = 256 << 20

_applied = False


def keep_freed_memory() -> bool:
    """Set malloc's thresholds once per process; whether they were set."""
    global _applied
    if _applied:
        return True
    if os.environ.get("XGPU_SIM_MALLOPT", "1") == "0":
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    ok = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    ok = bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and ok
    _applied = ok
    return ok
