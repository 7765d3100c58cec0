"""Where to find mlir-opt 22, the oracle xgpu is compared with."""

from __future__ import annotations

import os
import shutil


def find_mlir_opt() -> str | None:
    """$XGPU_MLIR_OPT, else mlir-opt, mlir-opt-22 or LLVM 22's bin folder (None if absent)."""
    for cand in (
        os.environ.get("XGPU_MLIR_OPT"),
        "mlir-opt",
        "mlir-opt-22",
        "/usr/lib/llvm-22/bin/mlir-opt",
    ):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    return None
