"""Traits and memory effects, as MLIR 22 declares them (checked through
xDSL's effect queries, which DCE and canonicalize rely on)."""

from __future__ import annotations

import pytest
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffectKind,
    SymbolOpInterface,
    SymbolTable,
    get_effects,
    is_side_effect_free,
    is_speculatable,
)

from xgpu.tools.xgpu_opt import parse

PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_dim y
      %l = gpu.lane_id
      %s = gpu.subgroup_size : index
      gpu.barrier
      gpu.return
    }
  }
  func.func @host(%n: index, %src: memref<?xf32>, %v: f32) {
    %m = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %m, %src : memref<?xf32>, memref<?xf32>
    gpu.memset %m, %v : memref<?xf32>, f32
    gpu.dealloc %m : memref<?xf32>
    return
  }
}
"""


@pytest.fixture(scope="module")
def ops():
    module = parse(PROGRAM)
    return {op.name: op for op in module.walk()}


@pytest.mark.parametrize(
    "name", ["gpu.thread_id", "gpu.block_dim", "gpu.lane_id", "gpu.subgroup_size"]
)
def test_index_ops_are_pure(ops, name):
    assert is_side_effect_free(ops[name])
    assert is_speculatable(ops[name])


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("gpu.alloc", MemoryEffectKind.ALLOC),
        ("gpu.dealloc", MemoryEffectKind.FREE),
        ("gpu.memcpy", MemoryEffectKind.WRITE),
        ("gpu.memcpy", MemoryEffectKind.READ),
        ("gpu.memset", MemoryEffectKind.WRITE),
    ],
)
def test_host_ops_have_memory_effects(ops, name, kind):
    effects = get_effects(ops[name])
    assert effects is not None
    assert kind in {e.kind for e in effects}


def test_barrier_is_never_side_effect_free(ops):
    assert not is_side_effect_free(ops["gpu.barrier"])


def test_structure_traits(ops):
    module, func = ops["gpu.module"], ops["gpu.func"]
    assert module.has_trait(SymbolTable) and module.has_trait(SymbolOpInterface)
    assert module.has_trait(IsolatedFromAbove) and func.has_trait(IsolatedFromAbove)
    assert func.has_trait(SymbolOpInterface)
    assert ops["gpu.return"].has_trait(IsTerminator)
