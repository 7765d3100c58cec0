"""xgpu's memref dialect: the parser builds xgpu's classes, which are xDSL's
too (so xDSL's and xgpu's `isinstance` checks hold); canonicalize folds
them; the runtime reads MLIR's custom forms with the same context."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import memref as xdsl_memref

import xgpu
from xgpu.dialects import memref
from xgpu.transforms.canonicalization import CANONICALIZATION

PROGRAM = """
memref.global "private" constant @c : memref<2xf32> = dense<[1.5, 2.5]>
func.func @main(%out: memref<2xf32>) {
  %g = memref.get_global @c : memref<2xf32>
  %u = memref.cast %g : memref<2xf32> to memref<?xf32>
  %d = memref.cast %u : memref<?xf32> to memref<2xf32>
  memref.copy %d, %out : memref<2xf32> to memref<2xf32>
  return
}
"""


def test_parsed_ops_are_xgpu_and_xdsl_classes():
    module = xgpu.parse(PROGRAM, "p.mlir")
    assert xgpu.verify(module) == []
    ops = {op.name: op for op in module.walk()}
    for name, mine, theirs in (
        ("memref.global", memref.GlobalOp, xdsl_memref.GlobalOp),
        ("memref.get_global", memref.GetGlobalOp, xdsl_memref.GetGlobalOp),
        ("memref.cast", memref.CastOp, xdsl_memref.CastOp),
        ("memref.copy", memref.CopyOp, xdsl_memref.CopyOp),
    ):
        assert type(ops[name]) is mine
        assert isinstance(ops[name], theirs)


def test_canonicalization_covers_both_classes():
    for mine, theirs in (
        (memref.CastOp, xdsl_memref.CastOp),
        (memref.DimOp, xdsl_memref.DimOp),
        (memref.AllocOp, xdsl_memref.AllocOp),
    ):
        assert CANONICALIZATION.folder(mine) is CANONICALIZATION.folder(theirs)
        assert len(CANONICALIZATION.patterns(mine)) == len(CANONICALIZATION.patterns(theirs))


def test_run_reads_custom_forms():
    out = np.zeros(2, dtype=np.float32)
    xgpu.run(PROGRAM, entry="main", args=[out], backend="sim")
    assert out.tolist() == [1.5, 2.5]
