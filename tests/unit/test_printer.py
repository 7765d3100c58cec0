"""xgpu's printer writes builtin attributes as MLIR 22 does."""

from __future__ import annotations

import xgpu

MAPS = """func.func @f(%a: memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>,
             %b: memref<4xf32, affine_map<(d0) -> (d0 * 2)>>)
    attributes {x = [affine_map<(d0) -> (d0 * 2)>, affine_map<(d0) -> (d0 floordiv 2 - 1)>]} {
  return
}
func.func @g(%a: memref<4xf32, affine_map<(d0) -> (d0 + 3)>>) {
  return
}
"""


def test_module_defines_map_aliases_in_printing_order():
    out = xgpu.print_mlir(xgpu.parse(MAPS))
    assert out.splitlines()[:4] == [
        "#map = affine_map<(d0)[s0] -> (d0 + s0)>",
        "#map1 = affine_map<(d0) -> (d0 * 2)>",
        "#map2 = affine_map<(d0) -> (d0 floordiv 2 - 1)>",
        "#map3 = affine_map<(d0) -> (d0 + 3)>",
    ]
    assert "%a: memref<4xf32, #map>, %b: memref<4xf32, #map1>" in out
    assert "attributes {x = [#map1, #map2]}" in out
    assert "memref<4xf32, #map3>" in out
    # and it reads back to the same text
    assert xgpu.print_mlir(xgpu.parse(out)) == out


def test_an_op_alone_prints_its_maps_inline():
    module = xgpu.parse(MAPS)
    func = next(iter(module.body.block.ops))
    assert "memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>" in xgpu.print_mlir(func)


def test_dictionaries_sorted_and_default_types_elided():
    text = "func.func @f() attributes {zz = [1, 2.5], aa = {b = 1, a = 2}} {\n  return\n}\n"
    out = xgpu.print_mlir(xgpu.parse(text))
    assert "attributes {aa = {a = 2 : i64, b = 1 : i64}, zz = [1, 2.500000e+00]}" in out
    out = xgpu.print_mlir(xgpu.parse("func.func @f(%m: memref<4xf32, 3>) {\n  return\n}\n"))
    assert "%m: memref<4xf32, 3>" in out
