"""MLIR 22's `gpu` dialect on xDSL.

One module per concern: `types`, `attributes` (enums, address spaces, mapping
attributes), `compilation` (#gpu.object & co), `targets` (#nvvm.target & co),
`async_interface`, `host` (wait, alloc, memcpy, ...), `launch`, `launch_func`,
`kernel` (ids, barrier, printf, ...), `subgroup` (shuffles, reductions,
broadcast, warp_execute_on_lane_0, yield), `module` (gpu.module), `binary`,
`func` (gpu.func, gpu.return), `mma`, `sparse`. Each exposes `OPS` and `ATTRS`; this module gathers them into the `GPU` dialect object.
"""

from __future__ import annotations

from xdsl.ir import Dialect

import xgpu.ir.speedups  # noqa: F401  (memoized xDSL accessors)
from xgpu.dialects.gpu import (
    attributes,
    binary,
    compilation,
    func,
    host,
    kernel,
    launch,
    launch_func,
    mma,
    module,
    sparse,
    subgroup,
    types,
)

_MODULES = (
    types,
    attributes,
    compilation,
    host,
    launch,
    launch_func,
    kernel,
    subgroup,
    module,
    func,
    binary,
    mma,
    sparse,
)

GPU = Dialect(
    "gpu",
    [op for m in _MODULES for op in m.OPS],
    [attr for m in _MODULES for attr in m.ATTRS],
)

__all__ = ["GPU"]
