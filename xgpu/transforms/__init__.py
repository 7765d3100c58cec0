"""xgpu's passes (ModulePass dataclasses), registered in xgpu-opt."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# pass name -> "module:class", imported only when the pass is asked for.
_PASSES: dict[str, str] = {
    "canonicalize": "xgpu.transforms.canonicalize:CanonicalizePass",
    "gpu-async-simplify": "xgpu.transforms.async_simplify:AsyncSimplifyPass",
}


def _loader(target: str) -> Callable[[], type[ModulePass]]:
    module, _, name = target.partition(":")
    return lambda: getattr(import_module(module), name)


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory, for xgpu-opt."""
    return {name: _loader(target) for name, target in _PASSES.items()}
