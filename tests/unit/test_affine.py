"""Affine expressions built as MLIR 22 builds them (xgpu.ir.affine_expr), the
subscript validity rules of affine accesses, and building affine ops in
Python. The expected texts are mlir-opt 22's output for the same maps."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr

import xgpu
from xgpu.dialects.affine.simple import ApplyOp
from xgpu.dialects.affine.validity import is_valid_dim, is_valid_symbol
from xgpu.ir import affine_expr as ax
from xgpu.ir.affine_text import affine_expr_text, affine_map_text

d0, d1 = AffineDimExpr(0), AffineDimExpr(1)
s0, s1 = AffineSymExpr(0), AffineSymExpr(1)
c = ax.constant


def text(expr) -> str:
    return affine_expr_text(expr)


def test_sums_and_products_are_ordered_and_merged():
    assert text(ax.add(d1, d0)) == "d0 + d1"
    assert text(ax.add(c(3), d0)) == "d0 + 3"
    assert text(ax.add(s0, d0)) == "d0 + s0"
    assert text(ax.add(ax.add(d0, c(2)), d1)) == "d0 + d1 + 2"
    assert text(ax.add(ax.mul(d1, c(2)), d1)) == "d1 * 3"
    assert text(ax.sub(d0, d0)) == "0"
    assert text(ax.mul(ax.mul(c(2), d1), c(4))) == "d1 * 8"
    assert text(ax.mul(s1, s0)) == "s0 * s1"
    assert text(ax.mul(s0, d0)) == "d0 * s0"


def test_divisions_and_modulos():
    assert text(ax.ceildiv(ax.sub(d0, s0), s1)) == "(d0 - s0) ceildiv s1"
    assert text(ax.floordiv(ax.mul(d0, c(4)), c(2))) == "d0 * 2"
    assert text(ax.floordiv(ax.add(d0, c(4)), c(2))) == "d0 floordiv 2 + 2"
    assert text(ax.mod(ax.mul(d0, c(4)), c(2))) == "0"
    assert text(ax.sub(d0, ax.mul(ax.floordiv(d0, c(4)), c(4)))) == "d0 mod 4"
    assert text(ax.floordiv(c(7), c(-2))) == "-4"
    assert text(ax.mod(c(7), c(-2))) == "7 mod -2"
    assert text(ax.floordiv(c(7), c(0))) == "7 floordiv 0"


def test_int64_limits():
    assert text(ax.add(c(2**63 - 1), c(1))) == "9223372036854775807 + 1"
    assert text(ax.mul(ax.mul(d0, c(2**62)), c(4))) == "0"


def test_replace_rebuilds_with_mlir_rules():
    index = ax.add(ax.mul(d0, s0), s1)  # (d0)[s0, s1] -> (d0 * s0 + s1)
    assert text(ax.replace(index, [ax.add(d0, c(1))], [c(2), c(3)])) == "(d0 + 1) * 2 + 3"


def test_semi_affine_maps_read_and_print_as_mlir():
    module = xgpu.parse(
        "func.func private @f() attributes {m = affine_map<(d0)[s0, s1] -> "
        "((d0 - s0) ceildiv s1, s1 * d0, 2 * s0 * s1, d0 + (d0 floordiv s0) * -s0)>}"
    )
    out = xgpu.print_mlir(module)
    assert out.splitlines()[0] == (
        "#map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1, d0 * s1, (s0 * s1) * 2, "
        "d0 + (d0 floordiv s0) * (-s0))>"
    )


VALIDITY = """func.func @f(%m: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  affine.for %i = 0 to 4 {
    %j = arith.addi %i, %n : index
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
  }
  scf.for %k = %c0 to %n step %c1 {
  }
  return
}
"""


def test_valid_dimensions_and_symbols():
    module = xgpu.parse(VALIDITY)
    ops = {op.name: op for op in module.walk()}
    func = ops["func.func"]
    n = func.body.block.args[1]
    loop = ops["affine.for"]
    iv = loop.body.block.args[0]
    scope = func.body
    add = ops["arith.addi"].results[0]
    apply = ops["affine.apply"].results[0]
    scf_iv = ops["scf.for"].body.block.args[0]
    assert is_valid_symbol(n, scope) and is_valid_dim(n, scope)
    assert is_valid_symbol(ops["arith.constant"].results[0], scope)
    assert is_valid_dim(iv, scope) and not is_valid_symbol(iv, scope)
    assert is_valid_dim(apply, scope)
    assert not is_valid_dim(add, scope)
    assert not is_valid_dim(scf_iv, scope)


def test_built_apply_prints_as_mlir():
    module = xgpu.parse("func.func @f(%x: index) {\n  return\n}")
    func = next(op for op in module.walk() if op.name == "func.func")
    x = func.body.block.args[0]
    amap = AffineMap(1, 0, (ax.add(d0, c(1)),))
    op = ApplyOp([x], AffineMapAttr(amap))
    func.body.block.insert_op_before(op, func.body.block.first_op)
    assert op.result.type == IndexType()
    assert "affine.apply #map(%x)" in xgpu.print_mlir(module)
    assert affine_map_text(amap) == "(d0) -> (d0 + 1)"
