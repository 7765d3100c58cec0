"""xgpu's dialects: MLIR 22's gpu dialect, the GPU target attributes that live
in other dialects' namespaces, and the dialects around GPU programs (memref,
scf, affine, vector, async, ...) where xDSL 0.75 lacks an op or reads or
prints it differently from mlir-opt 22.

Every entry point (xgpu-opt, xgpu-run, `xgpu.parse`, the passes) gets its
context from `xgpu.tools.xgpu_opt.make_context`, which registers these in
place of xDSL's dialects of the same name."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from xdsl.ir import Dialect

# Dialect name -> module of xgpu.dialects whose `dialect()` builds it (from
# xDSL's dialect of that name, see xgpu.dialects.derive). Imported lazily:
# a dialect is built the first time the parser meets one of its names.
DERIVED_DIALECTS: dict[str, str] = {
    "affine": "affine",
    "arith": "arith",
    "async": "async_",
    "dlti": "dlti",
    "func": "func",
    "index": "index",
    "math": "math",
    "memref": "memref",
    "scf": "scf",
    "vector": "vector",
}


@functools.cache
def _derived(module: str) -> Dialect:
    """The derived dialect, built once per process (its definition does not
    change; every Context shares it, as every Context shares xDSL's)."""
    return importlib.import_module(f"xgpu.dialects.{module}").dialect()


#: the derived dialects that xgpu's contexts load op by op: each module has
#: `ops_for(name)`, the ops to load for the op `name` (its part of the dialect)
PART_LOADED = frozenset({"arith", "memref"})


def _derived_factory(module: str) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        return _derived(module)

    if module in PART_LOADED:
        # `xgpu.ir.context.XGpuContext` loads what the input names through it.
        def ops_for(name: str) -> list:
            return importlib.import_module(f"xgpu.dialects.{module}").ops_for(name)

        factory.xgpu_ops_for = ops_for  # type: ignore[attr-defined]
    return factory


@functools.cache
def multiverse():
    """xDSL's Universe of installed dialects and passes, read once per process
    (reading it scans every installed package's entry points)."""
    from xgpu.universe import installed_universes, merged_universe

    return merged_universe(installed_universes())


def all_dialect_overrides() -> dict[str, Callable[[], Dialect]]:
    """Dialect factories that xgpu-opt registers in place of xDSL's (none
    imports its dialect before it is called)."""

    def get_gpu() -> Dialect:
        from xgpu.dialects.gpu import GPU

        return GPU

    # `xgpu.ir.context.XGpuContext` loads this one module by module.
    get_gpu.xgpu_gpu = True  # type: ignore[attr-defined]

    # nvvm/rocdl/xevm/spirv: xDSL 0.75 has none of these dialects; they hold
    # the GPU target attributes (#nvvm.target, #spirv.target_env, ...).
    overrides: dict[str, Callable[[], Dialect]] = {"gpu": get_gpu}
    for name in TARGET_DIALECTS:
        overrides[name] = _target_factory(name)
    for name, module in DERIVED_DIALECTS.items():
        overrides[name] = _derived_factory(module)
    return overrides


#: the dialects that hold GPU target attributes (`xgpu.dialects.gpu.targets`)
TARGET_DIALECTS = ("nvvm", "rocdl", "xevm", "spirv")


def _target_factory(name: str) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        from xgpu.dialects.gpu.targets import target_dialect_factories

        return target_dialect_factories()[name]()

    return factory


def xdsl_dialect(name: str) -> Dialect | None:
    """xDSL's own dialect `name` (the base a derived dialect completes)."""
    factory = multiverse().all_dialects.get(name)
    return factory() if factory is not None else None
