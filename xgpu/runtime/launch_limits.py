"""Launch sizes (and allocation sizes) checked before a kernel runs.

`gpu.launch_func` gives a grid and a block size and a dynamic shared memory
size at run time; a launch the device cannot run is an error at the op,
before anything is enqueued or simulated. `Limits` holds what a device
allows, `check_launch` names the first size that does not fit (None when the
launch is fine):

- every grid and block size must be at least 1 (CUDA's "invalid
  configuration argument"), and the dynamic shared memory size at least 0;
- each block size at most `block_dims[d]`, the block's work-items at most
  `block_total` (on OpenCL the smaller of CL_DEVICE_MAX_WORK_GROUP_SIZE and
  the kernel's CL_KERNEL_WORK_GROUP_SIZE);
- each grid size at most `grid_dims[d]`, and the grid's blocks at most
  `grid_total`; on OpenCL grid x block must also fit the device's size_t
  (CL_DEVICE_ADDRESS_BITS);
- the workgroup memory of a block (workgroup attributions, dynamic shared
  memory, reduction scratch) at most `local_bytes`;
- a kernel's `known_block_size` / `known_grid_size` must be the launch's
  (MLIR makes a different launch undefined behavior).

OpenCL (`opencl_limits`): the device's limits, and at most 2^32 - 1 blocks in
all: PoCL 3.0 counts blocks in 32 bits (a grid of 2^32 blocks dies with
SIGILL inside the driver), as do GPU drivers that keep block ids in 32 bits.
The simulator (`SIM_LIMITS`): CUDA's limits (blocks of at most 1024
work-items, at most 1024 x 1024 x 64; grids of at most 2^31 - 1 x 65535 x
65535 blocks; 48 KiB of workgroup memory per block).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DIMS = "xyz"


@dataclass(frozen=True)
class Limits:
    """What one device (and kernel) allows; `source` says where each limit
    comes from, for the messages."""

    block_dims: tuple[int, int, int]
    block_total: int
    grid_dims: tuple[int, int, int]
    grid_total: int
    local_bytes: int
    global_bits: int | None = None
    block_dims_source: str = ""
    block_total_source: str = ""
    grid_source: str = ""
    local_source: str = ""


SIM_LIMITS = Limits(
    block_dims=(1024, 1024, 64),
    block_total=1024,
    grid_dims=(2**31 - 1, 65535, 65535),
    grid_total=(2**31 - 1) * 65535 * 65535,
    local_bytes=48 * 1024,
    block_dims_source="the simulator's limit, as CUDA's",
    block_total_source="the simulator's limit, as CUDA's",
    grid_source="the simulator's limit, as CUDA's",
    local_source="the simulator's limit, as CUDA's",
)

#: blocks in all, on any OpenCL device (see the module docstring)
OPENCL_GRID_TOTAL = 2**32 - 1


def opencl_limits(device, kernel_work_group_size: int | None = None) -> Limits:
    """The limits of an OpenCL device (and of one kernel on it)."""
    sizes = tuple(int(s) for s in device.max_work_item_sizes)[:3]
    sizes = sizes + (1,) * (3 - len(sizes))
    total = int(device.max_work_group_size)
    total_source = "CL_DEVICE_MAX_WORK_GROUP_SIZE"
    if kernel_work_group_size is not None and kernel_work_group_size < total:
        total = int(kernel_work_group_size)
        total_source = "CL_KERNEL_WORK_GROUP_SIZE of this kernel"
    bits = int(device.address_bits)
    return Limits(
        block_dims=sizes,  # type: ignore[arg-type]
        block_total=total,
        grid_dims=(OPENCL_GRID_TOTAL,) * 3,
        grid_total=OPENCL_GRID_TOTAL,
        local_bytes=int(device.local_mem_size),
        global_bits=bits,
        block_dims_source="CL_DEVICE_MAX_WORK_ITEM_SIZES",
        block_total_source=total_source,
        grid_source="xgpu-run's limit on OpenCL: PoCL counts blocks in 32 bits",
        local_source="CL_DEVICE_LOCAL_MEM_SIZE",
    )


def _triple(v: Sequence[int]) -> str:
    return f"({v[0]}, {v[1]}, {v[2]})"


def check_launch(
    limits: Limits,
    grid: Sequence[int],
    block: Sequence[int],
    shmem: int,
    local_parts: Sequence[tuple[str, int]] = (),
    known_block: Sequence[int] | None = None,
    known_grid: Sequence[int] | None = None,
) -> str | None:
    """What is wrong with a launch (None: nothing). `local_parts`: the
    workgroup memory the block needs besides the dynamic shared memory, as
    (what, bytes)."""
    for what, sizes in (("grid", grid), ("block", block)):
        for d, s in enumerate(sizes):
            if s < 1:
                return (
                    f"{what} size {DIMS[d]} is {s}: grid and block sizes must be positive "
                    "(CUDA: invalid configuration argument)"
                )
    if shmem < 0:
        return f"dynamic shared memory size {shmem} is negative"
    for d, s in enumerate(block):
        if s > limits.block_dims[d]:
            return (
                f"block size {DIMS[d]} = {s} exceeds the device's limit of "
                f"{limits.block_dims[d]} ({limits.block_dims_source}: "
                f"{_triple(limits.block_dims)})"
            )
    items = block[0] * block[1] * block[2]
    if items > limits.block_total:
        return (
            f"a block of {items} work-items {_triple(block)} exceeds the device's limit of "
            f"{limits.block_total} work-items per block ({limits.block_total_source})"
        )
    for d, s in enumerate(grid):
        if s > limits.grid_dims[d]:
            return (
                f"grid size {DIMS[d]} = {s} exceeds the limit of {limits.grid_dims[d]} "
                f"blocks ({limits.grid_source})"
            )
    blocks = grid[0] * grid[1] * grid[2]
    if blocks > limits.grid_total:
        return (
            f"a grid of {blocks} blocks {_triple(grid)} exceeds the limit of "
            f"{limits.grid_total} blocks in all ({limits.grid_source})"
        )
    if limits.global_bits is not None:
        for d in range(3):
            if grid[d] * block[d] >= 2**limits.global_bits:
                return (
                    f"grid size {DIMS[d]} x block size {DIMS[d]} = {grid[d] * block[d]} "
                    f"work-items does not fit the device's {limits.global_bits}-bit size_t "
                    "(CL_DEVICE_ADDRESS_BITS)"
                )
    parts = [(what, n) for what, n in local_parts if n]
    if shmem:
        parts.append(("dynamic shared memory", shmem))
    need = sum(n for _, n in parts)
    if need > limits.local_bytes:
        detail = ", ".join(f"{what} {n}" for what, n in parts)
        return (
            f"a block needs {need} bytes of workgroup memory ({detail}); the device has "
            f"{limits.local_bytes} ({limits.local_source})"
        )
    for what, known, actual in (
        ("known_block_size", known_block, block),
        ("known_grid_size", known_grid, grid),
    ):
        if known is not None and tuple(known) != tuple(actual):
            kind = "block" if what == "known_block_size" else "grid"
            return (
                f"{kind} size {_triple(actual)} differs from the kernel's {what} = "
                f"array<i32: {', '.join(map(str, known))}> (undefined behavior in MLIR)"
            )
    return None


def timeout_message(symbol: str, seconds: float) -> str:
    """The words of a launch that outlasted `--timeout`, on both backends."""
    return (
        f"gpu.launch_func {symbol} did not finish within the timeout of {seconds:g} s "
        "(the kernel may loop forever; --timeout SECONDS sets the limit, 0 turns it off)"
    )


def check_alloc_size(device, nbytes: int) -> None:
    """A `gpu.alloc` larger than the device allows is an error at the op
    (pyopencl would fail with INVALID_BUFFER_SIZE or a TypeError)."""
    from xgpu.runtime.memref import RuntimeFailure

    limit = int(device.max_mem_alloc_size)
    if nbytes > limit:
        raise RuntimeFailure(
            f"gpu.alloc of {nbytes} bytes exceeds the device's limit of {limit} bytes "
            "per allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"
        )
