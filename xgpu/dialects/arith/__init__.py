"""MLIR 22's arith dialect on xDSL 0.75: xDSL's ops, with xgpu's classes where
xDSL reads, prints or verifies an op differently (comparisons and selects on
vectors, casts of vectors, `roundingmode`/`fastmath` on truncf/extf,
`overflow` on trunci) and the ops xDSL lacks (remf, index_castui).

The package imports none of its modules (`xgpu.dialects.derive.DialectParts`):
a program with only xDSL's arith ops (constant, addi, addf, ...) imports
neither `ops` nor `casts`.
"""

from __future__ import annotations

from typing import Any

from xgpu.dialects.derive import DialectParts

#: xgpu's arith ops, by the module that defines them (and its list of them)
PARTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ops": (
        "OPS",
        (
            "arith.cmpi",
            "arith.cmpf",
            "arith.select",
            "arith.remf",
            "arith.addui_extended",
            "arith.mulsi_extended",
            "arith.mului_extended",
        ),
    ),
    "casts": (
        "CAST_OPS",
        (
            "arith.extsi",
            "arith.extui",
            "arith.sitofp",
            "arith.uitofp",
            "arith.fptosi",
            "arith.fptoui",
            "arith.index_cast",
            "arith.index_castui",
            "arith.trunci",
            "arith.extf",
            "arith.truncf",
        ),
    ),
}

#: what the package exports, by its module
_EXPORTS: dict[str, str] = {
    "AddUIExtendedOp": "ops",
    "CmpfOp": "ops",
    "CmpiOp": "ops",
    "ExtFOp": "casts",
    "ExtSIOp": "casts",
    "ExtUIOp": "casts",
    "FLOAT_LIKE": "types",
    "FPToSIOp": "casts",
    "FPToUIOp": "casts",
    "INTEGER_LIKE": "types",
    "IndexCastOp": "casts",
    "IndexCastUIOp": "casts",
    "MulSIExtendedOp": "ops",
    "MulUIExtendedOp": "ops",
    "NO_FASTMATH": "types",
    "RemFOp": "ops",
    "SIToFPOp": "casts",
    "SelectOp": "ops",
    "TruncFOp": "casts",
    "TruncIOp": "casts",
    "UIToFPOp": "casts",
    "accepts": "types",
    "check_parsed_type": "types",
    "element_of": "types",
    "quoted": "types",
    "shape_of": "types",
    "shaped_like": "types",
}

_PARTS = DialectParts(__name__, "arith", PARTS, _EXPORTS)
part_ops = _PARTS.part_ops
ops_for = _PARTS.ops_for
dialect = _PARTS.dialect


def all_ops() -> list[type]:
    """Every op class of xgpu's (those replacing xDSL's and those it adds)."""
    return [op for module in PARTS for op in part_ops(module)]


def __getattr__(name: str) -> Any:
    return _PARTS.export(name)


__all__ = [*sorted(_EXPORTS), "PARTS", "all_ops", "dialect", "ops_for", "part_ops"]
