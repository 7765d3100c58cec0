"""MLIR 22's memref dialect: xDSL 0.75's, with xgpu's classes for the ops
xDSL reads, prints or verifies otherwise than mlir-opt 22 (each subclasses
xDSL's op of the same name), and the ops xDSL lacks (realloc,
generic_atomic_rmw, atomic_yield, prefetch, reshape, transpose)."""

from __future__ import annotations

from xdsl.ir import Dialect

from xgpu.dialects import xdsl_dialect
from xgpu.dialects.derive import derived_dialect
from xgpu.dialects.memref.access import ACCESS_OPS
from xgpu.dialects.memref.alloc import ALLOC_OPS
from xgpu.dialects.memref.views import VIEW_OPS


def dialect() -> Dialect:
    return derived_dialect(
        xdsl_dialect("memref"), "memref", ops=[*ALLOC_OPS, *ACCESS_OPS, *VIEW_OPS]
    )
