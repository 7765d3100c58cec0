"""xgpu: MLIR 22's GPU dialect on xDSL.

The library entry points (imported lazily, so that `import xgpu` is cheap):

- `xgpu.parse(text, name)`: parse MLIR text with every dialect xgpu-opt has;
- `xgpu.verify(module)`: verify as mlir-opt does; None, or the first Diagnostic;
- `xgpu.print_mlir(module)`: the text xgpu-opt prints;
- `xgpu.make_context()`: an xDSL Context with xgpu's gpu dialect;
- `xgpu.GPU`: the dialect object;
- `xgpu.run(module_or_text, entry="main", args=[...])`: run a host function with
  its GPU work on an OpenCL device (see `xgpu.runtime.api`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["GPU", "make_context", "parse", "print_mlir", "run", "verify"]


def __getattr__(name: str) -> Any:
    if name in ("parse", "make_context"):
        from xgpu.tools import xgpu_opt

        return getattr(xgpu_opt, name)
    if name == "verify":
        from xgpu.ir.verifier import verify_ir

        return verify_ir
    if name == "print_mlir":
        from xgpu.ir.printer import print_mlir

        return print_mlir
    if name == "run":
        from xgpu.runtime.api import run

        return run
    if name == "GPU":
        from xgpu.dialects.gpu import GPU

        return GPU
    raise AttributeError(f"module 'xgpu' has no attribute {name!r}")
