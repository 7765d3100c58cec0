"""xgpu's passes (ModulePass dataclasses), registered in xgpu-opt."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from xdsl.passes import ModulePass

# pass name -> "module:class", imported only when the pass is asked for.
_PASSES: dict[str, str] = {
    "canonicalize": "xgpu.transforms.canonicalize:CanonicalizePass",
    "gpu-async-simplify": "xgpu.transforms.async_simplify:AsyncSimplifyPass",
    "gpu-kernel-outlining": "xgpu.transforms.kernel_outlining:GpuKernelOutliningPass",
    "gpu-launch-sink-index-computations": (
        "xgpu.transforms.sink_index_computations:GpuLaunchSinkIndexComputationsPass"
    ),
    "gpu-async-region": "xgpu.transforms.async_region:GpuAsyncRegionPass",
    "gpu-map-parallel-loops": "xgpu.transforms.map_parallel_loops:GpuMapParallelLoopsPass",
    "convert-parallel-loops-to-gpu": (
        "xgpu.transforms.parallel_loops_to_gpu:ConvertParallelLoopsToGpuPass"
    ),
    "gpu-eliminate-barriers": "xgpu.transforms.eliminate_barriers:GpuEliminateBarriersPass",
    "gpu-check-async": "xgpu.analysis.check_async:GpuCheckAsyncPass",
    "gpu-async-graph": "xgpu.analysis.async_graph.graph_pass:GpuAsyncGraphPass",
    "xgpu-nest": "xgpu.transforms.nest:NestPass",
}


def _loader(target: str) -> Callable[[], type[ModulePass]]:
    module, _, name = target.partition(":")
    return lambda: getattr(import_module(module), name)


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory, for xgpu-opt."""
    return {name: _loader(target) for name, target in _PASSES.items()}
