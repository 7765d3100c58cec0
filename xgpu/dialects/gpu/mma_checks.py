"""The operand checks the subgroup MMA ops share (`xgpu.dialects.gpu.mma`).

MLIR's constraints on the memrefs the fragments are loaded from and stored to
(`GPU_MMAMemRef`, `isLastDimUnitStride`), on the element types of fragments
(`MMAMatrixOf`) and between a scalar and a fragment's element type
(`TypesMatchWith`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.mma_types import MMAMatrixType, _describe, _matches

# ---------------------------------------------------------------------------
# Shared checks
# ---------------------------------------------------------------------------

_MEMREF_ELEMENT_KINDS = ("I8", "I32", "F16", "F32", "F64")
_MEMREF_CONSTRAINT = (
    f"memref of {_describe(_MEMREF_ELEMENT_KINDS)} or vector of "
    f"{_describe(_MEMREF_ELEMENT_KINDS)} values of ranks 1 values"
)


def _verify_mma_memref(memref_type: Attribute, which: str) -> None:
    """GPU_MMAMemRef: a memref of i8/i32/f16/f32/f64 or of 1-D vectors thereof."""
    assert isinstance(memref_type, MemRefType)
    elt = memref_type.element_type
    ok = _matches(elt, _MEMREF_ELEMENT_KINDS) or (
        isinstance(elt, VectorType)
        and elt.get_num_dims() == 1
        and _matches(elt.element_type, _MEMREF_ELEMENT_KINDS)
    )
    if not ok:
        raise VerifyException(f"{which} must be {_MEMREF_CONSTRAINT}, but got '{memref_type}'")


def _verify_mma_of(value_type: Attribute, which: str, kinds: Sequence[str]) -> None:
    """MMAMatrixOf<[kinds]>: an !gpu.mma_matrix with one of these element types."""
    assert isinstance(value_type, MMAMatrixType)
    if not _matches(value_type.element_type, kinds):
        raise VerifyException(
            f"{which} must be gpu.mma_matrix of {_describe(kinds)} values, but got '{value_type}'"
        )


def _verify_element_type(value_type: Attribute, matrix_type: Attribute) -> None:
    """MLIR's `TypesMatchWith` between a scalar and an !gpu.mma_matrix's element type."""
    assert isinstance(matrix_type, MMAMatrixType)
    if value_type != matrix_type.element_type:
        raise VerifyException("failed to verify that value type matches element type of mma_matrix")


def _linear_coefficients(expr: AffineExpr) -> dict[str, int] | None:
    """Coefficients of a pure-affine expression: {'d0': c, 's1': c, '': const}.
    None when the expression is not a linear combination with constant factors."""
    if isinstance(expr, AffineConstantExpr):
        return {"": expr.value}
    if isinstance(expr, AffineDimExpr):
        return {f"d{expr.position}": 1}
    if isinstance(expr, AffineSymExpr):
        return {f"s{expr.position}": 1}
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _linear_coefficients(expr.lhs)
        rhs = _linear_coefficients(expr.rhs)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            out = dict(lhs)
            for k, v in rhs.items():
                out[k] = out.get(k, 0) + v
            return out
        if expr.kind == AffineBinaryOpKind.Mul:
            for const, other in ((lhs, rhs), (rhs, lhs)):
                if set(const) <= {""}:
                    factor = const.get("", 0)
                    return {k: v * factor for k, v in other.items()}
        return None
    return None


def is_last_dim_unit_stride(memref_type: MemRefType) -> bool:
    """MLIR's MemRefType::isLastDimUnitStride: the strides of the layout can be
    computed and the innermost one is 1 (trivially true for rank-0 memrefs)."""
    rank = memref_type.get_num_dims()
    if rank == 0:
        return True
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, StridedLayoutAttr):
        return layout.get_strides()[-1] == 1
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        results = amap.results
        if len(results) == amap.num_dims and all(
            isinstance(r, AffineDimExpr) and r.position == i for i, r in enumerate(results)
        ):
            return True
        if len(results) != 1:
            return False
        coeffs = _linear_coefficients(results[0])
        if coeffs is None:
            return False
        return coeffs.get(f"d{amap.num_dims - 1}", 0) == 1
    strides = layout.get_strides() if hasattr(layout, "get_strides") else None
    return bool(strides) and strides[-1] == 1
