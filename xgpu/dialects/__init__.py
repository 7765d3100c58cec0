"""xgpu's dialects: MLIR 22's gpu dialect (and GPU target attributes that live
in other dialects' namespaces)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def all_dialect_overrides() -> dict[str, Callable[[], Dialect]]:
    """Dialect factories that xgpu-opt registers in place of xDSL's."""

    def get_gpu() -> Dialect:
        from xgpu.dialects.gpu import GPU

        return GPU

    from xgpu.dialects.gpu.targets import target_dialect_factories

    # nvvm/rocdl/xevm/spirv: xDSL 0.75 has none of these dialects; they hold
    # the GPU target attributes (#nvvm.target, #spirv.target_env, ...).
    return {"gpu": get_gpu, **target_dialect_factories()}
