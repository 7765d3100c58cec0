"""MLIR 22's vector dialect on xDSL 0.75: xDSL's ops, with xgpu's classes in
place of those xDSL reads, prints or verifies differently, and the ops xDSL
lacks. One module per concern: `attrs` (punctuation, iterator types),
`ops_basic` (print, casts, masks, interleave, ...), `ops_checked` (xDSL's
ops with MLIR's verifiers: extract, insert, shuffle, broadcast, ...),
`ops_slices` (strided slices, multi_reduction, outerproduct), `ops_contract`,
`ops_memory` (load/store forms, gather/scatter)."""

from __future__ import annotations

from xdsl.ir import Dialect

from xgpu.dialects.derive import derived_dialect


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect
    from xgpu.dialects.vector import (
        attrs,
        ops_basic,
        ops_checked,
        ops_contract,
        ops_memory,
        ops_slices,
    )

    ops = [
        *ops_basic.OPS,
        *ops_checked.OPS,
        *ops_slices.OPS,
        *ops_contract.OPS,
        *ops_memory.OPS,
    ]
    return derived_dialect(xdsl_dialect("vector"), "vector", ops=ops, attrs=attrs.ATTRS)
