"""Every launch shape gives each work-item the ids and sizes MLIR defines, in
all three dimensions. On OpenCL the launcher leaves trailing dimensions of
size 1 out of the NDRange (a 1-D or 2-D range where it can): a work-item
must still see id 0 and size 1 there. Checked against numpy on both
backends."""

from __future__ import annotations

import numpy as np
import pytest
from devices import BACKENDS

import xgpu

# Each work-item writes 15 values at its linear global position: thread_id,
# block_id, block_dim, grid_dim and global_id, x y z each.
PROGRAM = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @ids(%out: memref<?xindex>) kernel {{
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %dz = gpu.block_dim z
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %gz = gpu.grid_dim z
      %ix = gpu.global_id x
      %iy = gpu.global_id y
      %iz = gpu.global_id z
      %sx = arith.muli %gx, %dx : index
      %sy = arith.muli %gy, %dy : index
      %p0 = arith.muli %iz, %sy : index
      %p1 = arith.addi %p0, %iy : index
      %p2 = arith.muli %p1, %sx : index
      %p = arith.addi %p2, %ix : index
      %c15 = arith.constant 15 : index
      %base = arith.muli %p, %c15 : index
{stores}
      gpu.return
    }}
  }}
  func.func @main(%host: memref<?xindex>) {{
    %c0 = arith.constant 0 : index
    %n = memref.dim %host, %c0 : memref<?xindex>
    %dev = gpu.alloc (%n) : memref<?xindex>
    gpu.memcpy %dev, %host : memref<?xindex>, memref<?xindex>
    %g0 = arith.constant {g0} : index
    %g1 = arith.constant {g1} : index
    %g2 = arith.constant {g2} : index
    %b0 = arith.constant {b0} : index
    %b1 = arith.constant {b1} : index
    %b2 = arith.constant {b2} : index
    gpu.launch_func @k::@ids blocks in (%g0, %g1, %g2) threads in (%b0, %b1, %b2) args(%dev : memref<?xindex>)
    gpu.memcpy %host, %dev : memref<?xindex>, memref<?xindex>
    gpu.dealloc %dev : memref<?xindex>
    return
  }}
}}
"""

NAMES = ["tx", "ty", "tz", "bx", "by", "bz", "dx", "dy", "dz", "gx", "gy", "gz", "ix", "iy", "iz"]


def program(grid: tuple[int, int, int], block: tuple[int, int, int]) -> str:
    stores = []
    for k, name in enumerate(NAMES):
        stores.append(f"      %o{k} = arith.constant {k} : index")
        stores.append(f"      %a{k} = arith.addi %base, %o{k} : index")
        stores.append(f"      memref.store %{name}, %out[%a{k}] : memref<?xindex>")
    return PROGRAM.format(
        stores="\n".join(stores),
        g0=grid[0],
        g1=grid[1],
        g2=grid[2],
        b0=block[0],
        b1=block[1],
        b2=block[2],
    )


def expected(grid: tuple[int, int, int], block: tuple[int, int, int]) -> np.ndarray:
    size = [g * b for g, b in zip(grid, block, strict=True)]
    out = np.zeros((size[2], size[1], size[0], 15), np.int64)
    for iz in range(size[2]):
        for iy in range(size[1]):
            for ix in range(size[0]):
                i = (ix, iy, iz)
                t = [i[d] % block[d] for d in range(3)]
                b = [i[d] // block[d] for d in range(3)]
                out[iz, iy, ix] = [*t, *b, *block, *grid, *i]
    return out.reshape(-1)


SHAPES = [
    ((3, 1, 1), (4, 1, 1)),  # 1-D on OpenCL
    ((2, 3, 1), (2, 2, 1)),  # 2-D
    ((1, 2, 1), (4, 1, 1)),  # 2-D: a grid dimension only
    ((2, 1, 1), (1, 3, 1)),  # 2-D: a block dimension only
    ((1, 1, 2), (2, 1, 1)),  # 3-D with y of size 1
    ((2, 2, 2), (1, 2, 2)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("grid,block", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_ids_and_sizes_in_every_dimension(backend: str, grid, block) -> None:
    want = expected(grid, block)
    host = np.full(want.size, -1, np.int64)
    xgpu.run(program(grid, block), args=[host], backend=backend, name="dims.mlir")
    np.testing.assert_array_equal(host, want)
