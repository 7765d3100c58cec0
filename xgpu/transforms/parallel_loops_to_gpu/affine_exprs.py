"""Affine expressions and maps built as MLIR builds them, with its
simplifications (`add`, `mul`, `floor_div`, `ceil_div`, `mod`,
`replace_dims_and_symbols`, `compose`), and the two maps the conversion
composes with a loop dimension's `map` and `bound` (`LOWER_AND_STEP`,
`TRIP_COUNT`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

# --------------------------------------------------------------------------- #
# Affine expressions built as MLIR builds them (with its simplifications)     #
# --------------------------------------------------------------------------- #

_ADD, _MUL = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul
_FLOORDIV, _CEILDIV, _MOD = (
    AffineBinaryOpKind.FloorDiv,
    AffineBinaryOpKind.CeilDiv,
    AffineBinaryOpKind.Mod,
)


def _const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def _is_const(expr: AffineExpr, value: int | None = None) -> bool:
    return isinstance(expr, AffineConstantExpr) and (value is None or expr.value == value)


def _bin(expr: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    return expr if isinstance(expr, AffineBinaryOpExpr) and expr.kind == kind else None


def _symbolic_or_constant(expr: AffineExpr) -> bool:
    if isinstance(expr, AffineDimExpr):
        return False
    if isinstance(expr, AffineBinaryOpExpr):
        return _symbolic_or_constant(expr.lhs) and _symbolic_or_constant(expr.rhs)
    return True


def _largest_known_divisor(expr: AffineExpr) -> int:
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        return 1
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    if expr.kind in (_FLOORDIV, _CEILDIV):
        if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value != 0:
            lhs = _largest_known_divisor(expr.lhs)
            if lhs % expr.rhs.value == 0:
                return abs(lhs // expr.rhs.value)
        return 1
    if expr.kind == _MUL:
        return _largest_known_divisor(expr.lhs) * _largest_known_divisor(expr.rhs)
    return math.gcd(_largest_known_divisor(expr.lhs), _largest_known_divisor(expr.rhs))


def _floor_div(a: int, b: int) -> int:
    return a // b


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs + rhs` with MLIR's simplifications."""
    if _is_const(lhs) and _is_const(rhs):
        return _const(lhs.value + rhs.value)  # type: ignore[attr-defined]
    if _is_const(lhs) or (_symbolic_or_constant(lhs) and not _symbolic_or_constant(rhs)):
        return add(rhs, lhs)
    if _is_const(rhs, 0):
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == _ADD and _is_const(rhs) and _is_const(lbin.rhs):
        return add(lbin.lhs, _const(lbin.rhs.value + rhs.value))  # type: ignore[attr-defined]
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs):
        first, first_coeff = lmul.lhs, lmul.rhs.value  # type: ignore[attr-defined]
    else:
        first, first_coeff = lhs, 1
    rmul = _bin(rhs, _MUL)
    if rmul is not None and _is_const(rmul.rhs):
        second, second_coeff = rmul.lhs, rmul.rhs.value  # type: ignore[attr-defined]
    else:
        second, second_coeff = rhs, 1
    if first == second:
        return AffineBinaryOpExpr(_MUL, first, _const(first_coeff + second_coeff))
    if lbin is not None and lbin.kind == _ADD and _is_const(lbin.rhs):
        return add(add(lbin.lhs, rhs), lbin.rhs)
    if rmul is None:
        return AffineBinaryOpExpr(_ADD, lhs, rhs)
    # `expr - q * (expr floordiv q)` and `expr + (expr floordiv c) * -c` -> `expr mod q`.
    lrhs, rrhs = rmul.lhs, rmul.rhs
    lrhs_mul = _bin(lrhs, _MUL)
    if _is_const(rrhs, -1) and lrhs_mul is not None:
        div = _bin(lrhs_mul.lhs, _FLOORDIV)
        if div is None:
            return AffineBinaryOpExpr(_ADD, lhs, rhs)
        if div.rhs == lrhs_mul.rhs and lhs == div.lhs:
            return mod(lhs, lrhs_mul.rhs)
    div = _bin(lrhs, _FLOORDIV)
    if div is not None and lhs == div.lhs and div.rhs == mul(rrhs, _const(-1)):
        return mod(lhs, div.rhs)
    return AffineBinaryOpExpr(_ADD, lhs, rhs)


def mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs * rhs` with MLIR's simplifications (one side must be symbolic)."""
    if _is_const(lhs) and _is_const(rhs):
        return _const(lhs.value * rhs.value)  # type: ignore[attr-defined]
    if not _symbolic_or_constant(lhs) and not _symbolic_or_constant(rhs):
        raise ValueError("non-affine product of two dimension expressions")
    if not _symbolic_or_constant(rhs) or _is_const(lhs):
        return mul(rhs, lhs)
    if _is_const(rhs, 1):
        return lhs
    if _is_const(rhs, 0):
        return rhs
    lbin = _bin(lhs, _MUL)
    if lbin is not None and _is_const(rhs) and _is_const(lbin.rhs):
        return mul(lbin.lhs, _const(lbin.rhs.value * rhs.value))  # type: ignore[attr-defined]
    if lbin is not None and _is_const(lbin.rhs):
        return mul(mul(lbin.lhs, rhs), lbin.rhs)
    return AffineBinaryOpExpr(_MUL, lhs, rhs)


def floor_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_FLOORDIV, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(_floor_div(lhs.value, divisor))  # type: ignore[attr-defined]
    if divisor == 1:
        return lhs
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs) and lmul.rhs.value % divisor == 0:  # type: ignore[attr-defined]
        return mul(lmul.lhs, _const(lmul.rhs.value // divisor))  # type: ignore[attr-defined]
    ladd = _bin(lhs, _ADD)
    if ladd is not None and (
        _largest_known_divisor(ladd.lhs) % divisor == 0
        or _largest_known_divisor(ladd.rhs) % divisor == 0
    ):
        return add(floor_div(ladd.lhs, rhs), floor_div(ladd.rhs, rhs))
    return AffineBinaryOpExpr(_FLOORDIV, lhs, rhs)


def ceil_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_CEILDIV, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(_ceil_div(lhs.value, divisor))  # type: ignore[attr-defined]
    if divisor == 1:
        return lhs
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs) and lmul.rhs.value % divisor == 0:  # type: ignore[attr-defined]
        return mul(lmul.lhs, _const(lmul.rhs.value // divisor))  # type: ignore[attr-defined]
    return AffineBinaryOpExpr(_CEILDIV, lhs, rhs)


def mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_MOD, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(lhs.value % divisor)  # type: ignore[attr-defined]
    if _largest_known_divisor(lhs) % divisor == 0:
        return _const(0)
    ladd = _bin(lhs, _ADD)
    if ladd is not None:
        if _largest_known_divisor(ladd.lhs) % divisor == 0:
            return mod(ladd.rhs, rhs)
        if _largest_known_divisor(ladd.rhs) % divisor == 0:
            return mod(ladd.lhs, rhs)
    lmod = _bin(lhs, _MOD)
    if lmod is not None and _is_const(lmod.rhs):
        inner = lmod.rhs.value  # type: ignore[attr-defined]
        if inner >= 1 and inner % divisor == 0:
            return mod(lmod.lhs, rhs)
    return AffineBinaryOpExpr(_MOD, lhs, rhs)


_BUILDERS = {_ADD: add, _MUL: mul, _FLOORDIV: floor_div, _CEILDIV: ceil_div, _MOD: mod}


def replace_dims_and_symbols(
    expr: AffineExpr, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]
) -> AffineExpr:
    """MLIR's `AffineExpr::replaceDimsAndSymbols` (rebuilt subexpressions are simplified)."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else expr
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position] if expr.position < len(symbols) else expr
    if isinstance(expr, AffineConstantExpr):
        return expr
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = replace_dims_and_symbols(expr.lhs, dims, symbols)
    rhs = replace_dims_and_symbols(expr.rhs, dims, symbols)
    if lhs == expr.lhs and rhs == expr.rhs:
        return expr
    return _BUILDERS[expr.kind](lhs, rhs)


def compose(outer: AffineMap, inner: AffineMap) -> AffineMap:
    """MLIR's `outer.compose(inner)`: `outer`'s symbols come first."""
    num_dims = inner.num_dims
    num_symbols = outer.num_symbols + inner.num_symbols
    new_dims = [AffineDimExpr(i) for i in range(num_dims)]
    new_symbols = [AffineSymExpr(i) for i in range(outer.num_symbols, num_symbols)]
    inner_results = [replace_dims_and_symbols(e, new_dims, new_symbols) for e in inner.results]
    results = tuple(replace_dims_and_symbols(e, inner_results, ()) for e in outer.results)
    return AffineMap(num_dims, num_symbols, results)


_D0, _S0, _S1 = AffineDimExpr(0), AffineSymExpr(0), AffineSymExpr(1)
# id * step + lb, and (ub - lb) ceildiv step.
LOWER_AND_STEP = AffineMap(1, 2, (add(mul(_D0, _S0), _S1),))
TRIP_COUNT = AffineMap(1, 2, (ceil_div(add(_D0, mul(_S0, _const(-1))), _S1),))
