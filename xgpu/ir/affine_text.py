"""Affine maps as MLIR prints them: xDSL's printer parenthesises every binary
expression (`((d0 * 4) + d1)`), MLIR only where precedence needs it
(`d0 * 4 + d1`)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)

Leaf = Callable[[AffineDimExpr | AffineSymExpr], str]


def _default_leaf(expr: AffineDimExpr | AffineSymExpr) -> str:
    return f"{'d' if isinstance(expr, AffineDimExpr) else 's'}{expr.position}"


def affine_expr_text(expr: AffineExpr, leaf: Leaf = _default_leaf) -> str:
    """`expr` as MLIR prints it; `leaf` names dimensions and symbols (MLIR's
    `%i + symbol(%n)` in affine.load subscripts)."""
    return _affine_expr_text(expr, False, leaf)


def _affine_expr_text(expr: AffineExpr, tight: bool = False, leaf: Leaf = _default_leaf) -> str:
    """`expr` as MLIR prints it (xDSL's own printer adds parentheses).

    `tight` says the context binds more strongly than `+` (an operand of `*`,
    `mod`, ...), so a compound expression must be parenthesised there. Sums with
    a negative constant, or with a product by a negative constant, print as
    subtractions, and a product by -1 as a negation, as in MLIR."""
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        return leaf(expr)
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs, kind = expr.lhs, expr.rhs, expr.kind

    def wrap(text: str) -> str:
        return f"({text})" if tight else text

    if kind != AffineBinaryOpKind.Add:
        if (
            kind == AffineBinaryOpKind.Mul
            and isinstance(rhs, AffineConstantExpr)
            and rhs.value == -1
        ):
            return wrap("-" + _affine_expr_text(lhs, True, leaf))
        op = kind.get_token()
        return wrap(
            f"{_affine_expr_text(lhs, True, leaf)} {op} {_affine_expr_text(rhs, True, leaf)}"
        )

    left = _affine_expr_text(lhs, False, leaf)
    if (
        isinstance(rhs, AffineBinaryOpExpr)
        and rhs.kind == AffineBinaryOpKind.Mul
        and isinstance(rhs.rhs, AffineConstantExpr)
    ):
        factor = rhs.rhs.value
        if factor == -1:
            is_sum = (
                isinstance(rhs.lhs, AffineBinaryOpExpr) and rhs.lhs.kind == AffineBinaryOpKind.Add
            )
            return wrap(f"{left} - {_affine_expr_text(rhs.lhs, is_sum, leaf)}")
        if factor < -1:
            return wrap(f"{left} - {_affine_expr_text(rhs.lhs, True, leaf)} * {_neg64(factor)}")
    if isinstance(rhs, AffineConstantExpr) and rhs.value < 0:
        return wrap(f"{left} - {_neg64(rhs.value)}")
    return wrap(f"{left} + {_affine_expr_text(rhs, False, leaf)}")


def _neg64(value: int) -> int:
    """`-value` in MLIR's int64 (the negation of -2**63 is itself)."""
    return value if value == -(1 << 63) else -value


def affine_map_text(amap: AffineMap) -> str:
    """`amap` as MLIR prints it, e.g. `(d0)[s0] -> (d0 + s0, d0 - 1)`."""
    dims = ", ".join(f"d{i}" for i in range(amap.num_dims))
    syms = ", ".join(f"s{i}" for i in range(amap.num_symbols))
    results = ", ".join(_affine_expr_text(e) for e in amap.results)
    return f"({dims})" + (f"[{syms}]" if amap.num_symbols else "") + f" -> ({results})"


def affine_set_text(aset: AffineSet) -> str:
    """`aset` as MLIR prints it, e.g. `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`;
    a set without constraints prints as MLIR's `(0 == 0)`."""
    dims = ", ".join(f"d{i}" for i in range(aset.num_dims))
    syms = ", ".join(f"s{i}" for i in range(aset.num_symbols))
    parts = []
    for c in aset.constraints:
        if c.kind == AffineConstraintKind.le:
            expr = _sub(c.rhs, c.lhs)
        elif isinstance(c.rhs, AffineConstantExpr) and c.rhs.value == 0:
            expr = c.lhs
        else:
            expr = _sub(c.lhs, c.rhs)
        relation = "==" if c.kind == AffineConstraintKind.eq else ">="
        parts.append(f"{_affine_expr_text(expr)} {relation} 0")
    body = ", ".join(parts) if parts else "0 == 0"
    return f"({dims})" + (f"[{syms}]" if aset.num_symbols else "") + f" : ({body})"


def _sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    from xgpu.ir.affine_expr import sub

    return sub(lhs, rhs)
