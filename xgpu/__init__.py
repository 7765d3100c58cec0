"""xgpu: MLIR 22's GPU dialect on xDSL.

The library entry points (imported lazily, so that `import xgpu` is cheap;
see `xgpu.library` and docs/api.md):

- `xgpu.parse(text, name)`: parse MLIR text with every dialect xgpu-opt has;
  bad input raises `xgpu.ParseDiagnosticError` (mlir-opt's diagnostic);
- `xgpu.verify(module)`: every error mlir-opt's verifier reports, as a list
  of `Diagnostic`s (empty when valid; `.first` is the first or None);
- `xgpu.run_pipeline(module, "canonicalize,gpu-async-simplify")`: run passes;
  returns their warnings and remarks, raises `xgpu.PassDiagnosticError`;
- `xgpu.print_mlir(module)`: the text xgpu-opt prints;
- `xgpu.make_context()`: an xDSL Context with xgpu's dialects;
  `xgpu.context(ctx)`: the same, extending a context of the caller's;
- `xgpu.GPU`: the dialect object;
- `xgpu.run(module_or_text, entry="main", args=[...])`: run a host function with
  its GPU work on an OpenCL device (see `xgpu.runtime.api`).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GPU",
    "Diagnostics",
    "ParseDiagnosticError",
    "PassDiagnosticError",
    "PipelineError",
    "VerifyDiagnosticError",
    "XGpuDiagnosticError",
    "context",
    "make_context",
    "parse",
    "print_mlir",
    "run",
    "run_pipeline",
    "verify",
]

_LIBRARY = frozenset(
    {
        "Diagnostics",
        "ParseDiagnosticError",
        "PassDiagnosticError",
        "PipelineError",
        "VerifyDiagnosticError",
        "XGpuDiagnosticError",
        "context",
        "make_context",
        "parse",
        "run_pipeline",
        "verify",
    }
)


def __getattr__(name: str) -> Any:
    if name in _LIBRARY:
        from xgpu import library

        return getattr(library, name)
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
