"""Kernels xgpu-run outlines from `gpu.launch` are named in messages by the
launch they came from, never by the made-up `@main_kernel::@main_kernel`:
faults on both backends and the race detector's reports."""

from __future__ import annotations

import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError

OOB = """module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 1.0 : f32
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      memref.store %f, %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fault_names_the_gpu_launch(backend: str):
    with pytest.raises(RunError) as info:
        xgpu.run(OOB, backend=backend, name="o.mlir")
    text = str(info.value)
    assert text.startswith("o.mlir:8:7: error: out-of-bounds access to %d[4] (sizes [4])")
    assert "of block (0, 0, 0) of gpu.launch at o.mlir:7:5" in text
    assert "main_kernel" not in text


# Two launches write %d without ordering them.
RACE = """module {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 1.0 : f32
    %d = gpu.alloc () : memref<4xf32>
    %t0 = gpu.wait async
    %a = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      memref.store %f, %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    %b = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = memref.load %d[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.wait [%a, %b]
    return
  }
}
"""


def test_a_race_names_both_launches():
    with pytest.raises(RunError) as info:
        xgpu.run(RACE, backend="sim", detect_races=True, name="r.mlir")
    text = str(info.value)
    assert (
        "no async dependency orders gpu.launch at r.mlir:8:10 and gpu.launch at r.mlir:12:10"
        in text
    )
    assert "main_kernel" not in text
