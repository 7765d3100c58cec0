"""xgpu's passes (ModulePass dataclasses), registered in xgpu-opt."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory, for xgpu-opt."""
    return {}
