"""Affine expressions built as MLIR 22 builds them.

MLIR simplifies an expression while it is built (`d0 + 2 + 3` is `d0 + 5`,
`2 * d0` is `d0 * 2`, `d1 + d0` is `d0 + d1`), and so prints what it read in
that simplified form. xDSL's `AffineExpr` operators simplify differently and
reject semi-affine expressions (a product, division or modulo by a symbol);
the functions here build xDSL's expression nodes directly, with MLIR's rules.

Only the local rewrites MLIR applies on construction are done here; the
flattening that `simplifyAffineMap` does (canonicalize) is not.
"""

from __future__ import annotations

import math

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

Kind = AffineBinaryOpKind

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def constant(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def _const(expr: AffineExpr) -> int | None:
    return expr.value if isinstance(expr, AffineConstantExpr) else None


def _fits(value: int) -> bool:
    return _INT64_MIN <= value <= _INT64_MAX


def _wrap(value: int) -> int:
    """`value` as MLIR's int64 arithmetic leaves it (two's complement)."""
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def _binary(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return AffineBinaryOpExpr(kind, lhs, rhs)


def _of_kind(expr: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == kind:
        return expr
    return None


def is_symbolic_or_constant(expr: AffineExpr) -> bool:
    """Whether `expr` holds no dimension (MLIR's `isSymbolicOrConstant`)."""
    if isinstance(expr, AffineDimExpr):
        return False
    if isinstance(expr, AffineBinaryOpExpr):
        return is_symbolic_or_constant(expr.lhs) and is_symbolic_or_constant(expr.rhs)
    return True


def largest_known_divisor(expr: AffineExpr) -> int:
    """The largest integer known to divide `expr`'s value."""
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if not isinstance(expr, AffineBinaryOpExpr):
        return 1
    if expr.kind == Kind.Mul:
        return largest_known_divisor(expr.lhs) * largest_known_divisor(expr.rhs)
    if expr.kind in (Kind.Add, Kind.Mod):
        return math.gcd(largest_known_divisor(expr.lhs), largest_known_divisor(expr.rhs))
    divisor = _const(expr.rhs)
    numerator = largest_known_divisor(expr.lhs)
    if divisor and numerator % divisor == 0:
        return abs(numerator // divisor)
    return 1


def _same_kind_leaves_out_of_order(lhs: AffineExpr, rhs: AffineExpr) -> bool:
    """`d1 op d0` or `s1 op s0`: MLIR puts the lower position first."""
    if isinstance(lhs, AffineDimExpr) and isinstance(rhs, AffineDimExpr):
        return lhs.position > rhs.position
    if isinstance(lhs, AffineSymExpr) and isinstance(rhs, AffineSymExpr):
        return lhs.position > rhs.position
    return False


def add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _const(lhs), _const(rhs)
    if lc is not None and rc is not None:
        if _fits(lc + rc):
            return constant(lc + rc)
        return _binary(Kind.Add, lhs, rhs)
    # Constants, then symbolic terms, go to the right.
    if lc is not None or (is_symbolic_or_constant(lhs) and not is_symbolic_or_constant(rhs)):
        return add(rhs, lhs)
    if _same_kind_leaves_out_of_order(lhs, rhs):
        return add(rhs, lhs)
    if rc == 0:
        return lhs
    left_sum = _of_kind(lhs, Kind.Add)
    # (e + c1) + c2 -> e + (c1 + c2)
    if left_sum is not None and rc is not None:
        inner = _const(left_sum.rhs)
        if inner is not None:
            return add(left_sum.lhs, constant(_wrap(inner + rc)))
    # c1 * e + c2 * e -> (c1 + c2) * e
    first, first_factor = _term(lhs)
    second, second_factor = _term(rhs)
    if first == second:
        return mul(first, constant(_wrap(first_factor + second_factor)))
    # (e1 + c) + e2 -> (e1 + e2) + c
    if left_sum is not None:
        inner = _const(left_sum.rhs)
        if inner is not None:
            return add(add(left_sum.lhs, rhs), constant(inner))
    # e + (e floordiv c) * -c -> e mod c
    product = _of_kind(rhs, Kind.Mul)
    if product is not None:
        factor = _const(product.rhs)
        quotient = _of_kind(product.lhs, Kind.FloorDiv)
        if (
            factor is not None
            and quotient is not None
            and quotient.lhs == lhs
            and _const(quotient.rhs) == -factor
        ):
            return mod(lhs, quotient.rhs)
    return _binary(Kind.Add, lhs, rhs)


def _term(expr: AffineExpr) -> tuple[AffineExpr, int]:
    """`expr` as `e * c` (`c` = 1 unless `expr` is a product by a constant)."""
    product = _of_kind(expr, Kind.Mul)
    if product is not None and (factor := _const(product.rhs)) is not None:
        return product.lhs, factor
    return expr, 1


def mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _const(lhs), _const(rhs)
    if lc is not None and rc is not None:
        if _fits(lc * rc):
            return constant(lc * rc)
        return _binary(Kind.Mul, lhs, rhs)
    if not is_symbolic_or_constant(rhs) or lc is not None:
        return mul(rhs, lhs)
    if _same_kind_leaves_out_of_order(lhs, rhs):
        return mul(rhs, lhs)
    if rc == 1:
        return lhs
    if rc == 0:
        return rhs
    left = _of_kind(lhs, Kind.Mul)
    if left is not None and (inner := _const(left.rhs)) is not None:
        # (e * c1) * c2 -> e * (c1 * c2); (e * c) * f -> (e * f) * c
        if rc is not None:
            return mul(left.lhs, constant(_wrap(inner * rc)))
        return mul(mul(left.lhs, rhs), constant(inner))
    return _binary(Kind.Mul, lhs, rhs)


def neg(expr: AffineExpr) -> AffineExpr:
    return mul(expr, constant(-1))


def sub(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    return add(lhs, neg(rhs))


def _divide_product(lhs: AffineExpr, divisor: int) -> AffineExpr | None:
    """`(e * c) / divisor` when `divisor` divides `c`: `e * (c / divisor)`."""
    product = _of_kind(lhs, Kind.Mul)
    if product is not None and (factor := _const(product.rhs)) is not None:
        if factor % divisor == 0:
            return mul(product.lhs, constant(_trunc_div(factor, divisor)))
    return None


def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def floordiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _const(lhs), _const(rhs)
    if rc is None or rc == 0:
        return _binary(Kind.FloorDiv, lhs, rhs)
    if lc is not None:
        return constant(lc // rc) if _fits(lc // rc) else _binary(Kind.FloorDiv, lhs, rhs)
    if rc == 1:
        return lhs
    if (simpler := _divide_product(lhs, rc)) is not None:
        return simpler
    total = _of_kind(lhs, Kind.Add)
    if total is not None and rc > 0:
        if largest_known_divisor(total.lhs) % rc == 0 or largest_known_divisor(total.rhs) % rc == 0:
            return add(floordiv(total.lhs, rhs), floordiv(total.rhs, rhs))
    return _binary(Kind.FloorDiv, lhs, rhs)


def ceildiv(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _const(lhs), _const(rhs)
    if rc is None or rc == 0:
        return _binary(Kind.CeilDiv, lhs, rhs)
    if lc is not None:
        value = -(-lc // rc)
        return constant(value) if _fits(value) else _binary(Kind.CeilDiv, lhs, rhs)
    if rc == 1:
        return lhs
    if (simpler := _divide_product(lhs, rc)) is not None:
        return simpler
    return _binary(Kind.CeilDiv, lhs, rhs)


def mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    lc, rc = _const(lhs), _const(rhs)
    if rc is None or rc < 1:
        return _binary(Kind.Mod, lhs, rhs)
    if lc is not None:
        return constant(lc % rc)
    if largest_known_divisor(lhs) % rc == 0:
        return constant(0)
    total = _of_kind(lhs, Kind.Add)
    if total is not None:
        if largest_known_divisor(total.lhs) % rc == 0:
            return mod(total.rhs, rhs)
        if largest_known_divisor(total.rhs) % rc == 0:
            return mod(total.lhs, rhs)
    inner = _of_kind(lhs, Kind.Mod)
    if inner is not None and (first := _const(inner.rhs)) is not None:
        if first >= 1 and first % rc == 0:
            return mod(inner.lhs, rhs)
    return _binary(Kind.Mod, lhs, rhs)


BUILDERS = {
    Kind.Add: add,
    Kind.Mul: mul,
    Kind.FloorDiv: floordiv,
    Kind.CeilDiv: ceildiv,
    Kind.Mod: mod,
}


def binary(kind: AffineBinaryOpKind, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs kind rhs`, simplified as MLIR does on construction."""
    return BUILDERS[kind](lhs, rhs)


def replace(expr: AffineExpr, dims: list[AffineExpr], syms: list[AffineExpr]) -> AffineExpr:
    """`expr` with its dimensions and symbols replaced, rebuilt as MLIR would."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else expr
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position] if expr.position < len(syms) else expr
    if isinstance(expr, AffineBinaryOpExpr):
        return binary(expr.kind, replace(expr.lhs, dims, syms), replace(expr.rhs, dims, syms))
    return expr
