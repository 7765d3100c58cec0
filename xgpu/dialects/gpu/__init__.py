"""MLIR 22's `gpu` dialect on xDSL.

One module per concern: `types`, `attributes` (enums, address spaces, mapping
attributes), `compilation` (#gpu.object & co), `targets` (#nvvm.target & co),
`async_interface`, `host` (wait, alloc, memcpy, ...), `launch`, `launch_func`,
`kernel` (ids, barrier, printf, ...), `subgroup` (shuffles, reductions,
broadcast, warp_execute_on_lane_0, yield), `module` (gpu.module), `binary`,
`func` (gpu.func, gpu.return), `mma`, `sparse`. Each exposes `OPS` and `ATTRS`.

Importing this package imports none of them: `GPU`, the dialect object with
every op, is built on first use (`from xgpu.dialects.gpu import GPU`), and
xgpu's contexts (`xgpu.ir.context`) import a module only when the input names
one of its ops or attributes (`catalog` says which module defines what).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

import xgpu.ir.speedups  # noqa: F401  (memoized xDSL accessors)
from xgpu.dialects.gpu.catalog import MODULES

if TYPE_CHECKING:
    from xdsl.ir import Dialect

    GPU: Dialect


def op_module(name: str) -> ModuleType:
    """The module `xgpu.dialects.gpu.<name>` (one of `catalog.MODULES`)."""
    return importlib.import_module(f"xgpu.dialects.gpu.{name}")


_dialect: list[Any] = []


def __getattr__(name: str) -> Any:
    if name != "GPU":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if not _dialect:
        from xdsl.ir import Dialect

        modules = [op_module(m) for m in MODULES]
        _dialect.append(
            Dialect(
                "gpu",
                [op for m in modules for op in m.OPS],
                [attr for m in modules for attr in m.ATTRS],
            )
        )
    return _dialect[0]


__all__ = ["GPU", "op_module"]
