"""MLIR 22's affine dialect: xDSL's ops with MLIR's syntax and verifier
messages, and the ops xDSL lacks (affine.max, affine.delinearize_index,
affine.linearize_index)."""

from __future__ import annotations

from xdsl.ir import Dialect

from xgpu.dialects.derive import derived_dialect


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect
    from xgpu.dialects.affine.for_op import FOR_OPS
    from xgpu.dialects.affine.index import INDEX_OPS
    from xgpu.dialects.affine.loops import LOOP_OPS
    from xgpu.dialects.affine.simple import SIMPLE_OPS

    return derived_dialect(
        xdsl_dialect("affine"), "affine", ops=[*SIMPLE_OPS, *FOR_OPS, *LOOP_OPS, *INDEX_OPS]
    )
