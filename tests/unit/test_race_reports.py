"""What the simulator's race reports say: both GPU ops at their own lines
(two launches of one kernel are told apart), and uniform writes (every
work-item storing the same value to one element, as MLIR's all-reduce tests
do) reported only with `--detect-races=all`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError

TWO_FILLS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%y: memref<16xf32>, %v: f32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %y[%i] : memref<16xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %d = gpu.alloc () : memref<16xf32>
    %t0 = gpu.launch_func async @k::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>, %one : f32)
    %t1 = gpu.launch_func async @k::@fill blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<16xf32>, %two : f32)
    gpu.wait [%t0, %t1]
    return
  }
}
"""


def test_two_launches_of_one_kernel_are_named_at_their_lines():
    with pytest.raises(RunError) as info:
        xgpu.run(TWO_FILLS, backend="sim", detect_races=True, name="two.mlir")
    text = str(info.value)
    assert text.startswith("two.mlir:5:7: error: data race: memref.store by work-item")
    assert "two.mlir:16:11: note: the access is made by this gpu.launch_func @k::@fill" in text
    assert (
        "two.mlir:15:11: note: the other access is made by this gpu.launch_func @k::@fill" in text
    )


# Every work-item stores the block's sum (or, with STORE replaced, its own
# id) to out[0].
UNIFORM = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @sum(%x: memref<8xf32>, %out: memref<1xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<8xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %c0 = arith.constant 0 : index
      STORE
      gpu.return
    }
  }
  func.func @main(%x: memref<8xf32>, %out: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %dx = gpu.alloc () : memref<8xf32>
    %do = gpu.alloc () : memref<1xf32>
    gpu.memcpy %dx, %x : memref<8xf32>, memref<8xf32>
    gpu.launch_func @k::@sum blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%dx : memref<8xf32>, %do : memref<1xf32>)
    gpu.memcpy %out, %do : memref<1xf32>, memref<1xf32>
    return
  }
}
"""
SAME = UNIFORM.replace("STORE", "memref.store %s, %out[%c0] : memref<1xf32>")
OWN = UNIFORM.replace(
    "STORE",
    "%ti = arith.index_cast %t : index to i32\n"
    "      %tf = arith.sitofp %ti : i32 to f32\n"
    "      memref.store %tf, %out[%c0] : memref<1xf32>",
)
# Work-items 0..3 store 0.0, the others -0.0: equal as floats, not bit for bit.
SIGNED_ZERO = UNIFORM.replace(
    "STORE",
    "%c4 = arith.constant 4 : index\n"
    "      %low = arith.cmpi ult, %t, %c4 : index\n"
    "      %pz = arith.constant 0.0 : f32\n"
    "      %nz = arith.constant -0.0 : f32\n"
    "      %z = arith.select %low, %pz, %nz : f32\n"
    "      memref.store %z, %out[%c0] : memref<1xf32>",
)


@pytest.mark.parametrize("engine", ["lockstep", "workitem"])
def test_a_uniform_write_is_reported_only_with_all(monkeypatch, engine: str):
    monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(1, np.float32)
    xgpu.run(SAME, args=[x, out], backend="sim", detect_races=True)
    assert out[0] == 28.0
    with pytest.raises(RunError) as info:
        xgpu.run(SAME, args=[x, out], backend="sim", detect_races="all", name="u.mlir")
    assert str(info.value).startswith("u.mlir:8:7: error: data race: memref.store by work-item")


@pytest.mark.parametrize("program", [OWN, SIGNED_ZERO], ids=["own-ids", "signed-zeros"])
def test_different_values_race_by_default(program: str):
    x = np.arange(8, dtype=np.float32)
    with pytest.raises(RunError) as info:
        xgpu.run(program, args=[x, np.zeros(1, np.float32)], backend="sim", detect_races=True)
    assert "data race: memref.store by work-item" in str(info.value)


def test_the_api_checks_the_mode():
    with pytest.raises(ValueError, match="detect_races must be False, True or 'all'"):
        xgpu.run(SAME, backend="sim", detect_races="some")


def test_the_command_line_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from xgpu.tools.xgpu_run import main

    path = tmp_path / "u.mlir"
    path.write_text(SAME)
    args = ["--backend", "sim", "--arg", "range(8)", "--arg", "zeros(1)"]
    with pytest.raises(SystemExit) as info:
        main([*args, "--detect-races", str(path)])  # the file after the flag is the input
    assert info.value.code == 0
    assert "arg 1 = [28.0]" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main([*args, "--detect-races=all", str(path)])
    assert info.value.code == 1
    assert "data race" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main([*args, "--detect-races=most", str(path)])
    assert info.value.code == 2
    assert "the only value of --detect-races is 'all'" in capsys.readouterr().err
