"""The top-level library API."""

from __future__ import annotations

import pytest

import xgpu

TEXT = """func.func @f(%t: !gpu.async.token) {
  %0 = gpu.wait async [%t]
  gpu.wait [%0]
  func.return
}
"""


def test_parse_verify_print():
    module = xgpu.parse(TEXT, "t.mlir")
    assert xgpu.verify(module) == []
    assert xgpu.print_mlir(module) == (
        "builtin.module {\n"
        "  func.func @f(%t: !gpu.async.token) {\n"
        "    %0 = gpu.wait async [%t]\n"
        "    gpu.wait [%0]\n"
        "    func.return\n"
        "  }\n"
        "}"
    )
    assert '"gpu.wait"(%t) : (!gpu.async.token) -> !gpu.async.token' in xgpu.print_mlir(
        module, generic=True
    )


def test_verify_reports_location_and_message():
    module = xgpu.parse(
        "func.func @f(%n: index) {\n  %m = gpu.alloc (%n) : memref<4xf32>\n  func.return\n}\n",
        "a.mlir",
    )
    diag = xgpu.verify(module).first
    assert diag is not None
    assert diag.message == "'gpu.alloc' op incorrect number of dynamic sizes, has 1, expected 0"
    assert (diag.location.file, diag.location.line, diag.location.col) == ("a.mlir", 2, 8)


def test_dialect_and_unknown_names():
    assert xgpu.GPU.name == "gpu"
    assert len(list(xgpu.GPU.operations)) == 66
    with pytest.raises(AttributeError):
        xgpu.nope  # noqa: B018
