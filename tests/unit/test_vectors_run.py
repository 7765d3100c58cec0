"""Vector values run element by element (`xgpu.transforms.scalarize_vectors`)
in host code and in kernels, on both backends: `vector.print` in
mlir-runner's format (checked against mlir-runner 22 where it is
installed), vector ops in kernels against numpy, transfers with padding,
and the error for a vector the rewrite cannot follow."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError
from xgpu.tools.oracle import find_mlir_opt

PRINTS = """func.func @main() {
  %a = arith.constant dense<[1.5, -2.0, 3.25]> : vector<3xf32>
  %b = arith.constant dense<2.0> : vector<3xf32>
  %c = arith.mulf %a, %b : vector<3xf32>
  vector.print %c : vector<3xf32>
  %i = arith.constant dense<[[1, 2], [3, -4]]> : vector<2x2xi32>
  %j = arith.addi %i, %i : vector<2x2xi32>
  vector.print %j : vector<2x2xi32>
  %t = arith.constant true
  vector.print %t : i1
  %x = arith.constant 7 : index
  vector.print %x : index
  vector.print str "text, "
  vector.print punctuation <comma>
  vector.print str "more\\n"
  %r = vector.reduction <add>, %c : vector<3xf32> into f32
  vector.print %r : f32
  %jf = vector.shape_cast %j : vector<2x2xi32> to vector<4xi32>
  %mx = vector.reduction <maxsi>, %jf : vector<4xi32> into i32
  vector.print %mx : i32
  %s = vector.step : vector<4xindex>
  vector.print %s : vector<4xindex>
  %sh = vector.shuffle %a, %b [0, 4, 2] : vector<3xf32>, vector<3xf32>
  vector.print %sh : vector<3xf32>
  %m = arith.constant -1 : i8
  vector.print %m : i8
  %k = arith.cmpf olt, %a, %b : vector<3xf32>
  vector.print %k : vector<3xi1>
  return
}
"""

EXPECTED = """( 3, -4, 6.5 )
( ( 2, 4 ), ( 6, -8 ) )
1
7
text, , more
5.5
6
( 0, 1, 2, 3 )
( 1.5, 2, 3.25 )
-1
( 1, 1, 0 )
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_vector_print_in_host_code(backend: str):
    out = io.StringIO()
    xgpu.run(PRINTS, backend=backend, stdout=out)
    assert out.getvalue() == EXPECTED


RUNNER = shutil.which("mlir-runner-22")
RUNNER_UTILS = sorted(Path("/usr/lib/llvm-22/lib").glob("libmlir_c_runner_utils.so*"))


@pytest.mark.skipif(
    RUNNER is None or not RUNNER_UTILS or find_mlir_opt() is None,
    reason="mlir-runner 22 not found (install mlir-22-tools)",
)
def test_vector_print_matches_mlir_runner():
    lowered = subprocess.run(
        [
            find_mlir_opt(),
            "--convert-vector-to-scf",
            "--convert-scf-to-cf",
            "--convert-vector-to-llvm",
            "--convert-index-to-llvm",
            "--convert-arith-to-llvm",
            "--convert-func-to-llvm",
            "--convert-cf-to-llvm",
            "--reconcile-unrealized-casts",
        ],
        input=PRINTS,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ran = subprocess.run(
        [RUNNER, "-e", "main", "--entry-point-result=void", f"--shared-libs={RUNNER_UTILS[0]}"],
        input=lowered,
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout == EXPECTED


# A kernel over 4 work-items, each on its own 8 floats of %x: vector loads
# and stores, insert/extract (static and dynamic), interleave, deinterleave,
# shuffle, broadcast, fma, a reduction, and a transfer_read past the end
# (padding -1).
KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<32xf32>, %y: memref<32xf32>, %s: memref<4xf32>, %tail: memref<4x4xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %base = arith.muli %t, %c8 : index
      %lo = vector.load %x[%base] : memref<32xf32>, vector<4xf32>
      %b4 = arith.addi %base, %c4 : index
      %hi = vector.load %x[%b4] : memref<32xf32>, vector<4xf32>
      %two = arith.constant 2.0 : f32
      %twos = vector.broadcast %two : f32 to vector<4xf32>
      %f = vector.fma %lo, %twos, %hi : vector<4xf32>
      %e = vector.extract %f[%t] : f32 from vector<4xf32>
      %g = vector.insert %e, %f[3] : f32 into vector<4xf32>
      %w = vector.interleave %lo, %g : vector<4xf32> -> vector<8xf32>
      %ev, %od = vector.deinterleave %w : vector<8xf32> -> vector<4xf32>
      %sh = vector.shuffle %od, %ev [7, 0, 5, 2] : vector<4xf32>, vector<4xf32>
      vector.store %sh, %y[%base] : memref<32xf32>, vector<4xf32>
      vector.store %w, %y[%base] : memref<32xf32>, vector<8xf32>
      vector.store %sh, %y[%base] : memref<32xf32>, vector<4xf32>
      %r = vector.reduction <add>, %sh : vector<4xf32> into f32
      memref.store %r, %s[%t] : memref<4xf32>
      %pad = arith.constant -1.0 : f32
      %c30 = arith.constant 30 : index
      %rd = vector.transfer_read %x[%c30], %pad : memref<32xf32>, vector<4xf32>
      vector.transfer_write %rd, %tail[%t, %c0] : vector<4xf32>, memref<4x4xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<32xf32>, %y: memref<32xf32>, %s: memref<4xf32>, %tail: memref<4x4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<32xf32>, %y : memref<32xf32>, %s : memref<4xf32>, %tail : memref<4x4xf32>)
    return
  }
}
"""


def _kernel_expected(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y = np.zeros(32, np.float32)
    s = np.zeros(4, np.float32)
    for t in range(4):
        lo, hi = x[8 * t : 8 * t + 4], x[8 * t + 4 : 8 * t + 8]
        f = (lo * np.float32(2) + hi).astype(np.float32)
        g = f.copy()
        g[3] = f[t]
        w = np.empty(8, np.float32)
        w[0::2], w[1::2] = lo, g
        ev, od = w[0::2], w[1::2]
        both = np.concatenate([od, ev])
        sh = both[[7, 0, 5, 2]]
        y[8 * t : 8 * t + 8] = w
        y[8 * t : 8 * t + 4] = sh
        s[t] = np.float32(np.float32(np.float32(sh[0] + sh[1]) + sh[2]) + sh[3])
    tail = np.tile(np.array([x[30], x[31], -1, -1], np.float32), (4, 1))
    return y, s, tail


@pytest.mark.parametrize("backend", BACKENDS)
def test_vector_ops_in_a_kernel(backend: str):
    x = np.arange(32, dtype=np.float32) * np.float32(0.5) - 3
    y = np.zeros(32, np.float32)
    s = np.zeros(4, np.float32)
    tail = np.zeros((4, 4), np.float32)
    xgpu.run(KERNEL, args=[x, y, s, tail], backend=backend, register_host_memory=True)
    want_y, want_s, want_tail = _kernel_expected(x)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(s, want_s)
    np.testing.assert_array_equal(tail, want_tail)


def test_vector_kernel_race_free_on_the_simulator():
    x = np.arange(32, dtype=np.float32)
    y, s, tail = np.zeros(32, np.float32), np.zeros(4, np.float32), np.zeros((4, 4), np.float32)
    xgpu.run(
        KERNEL, args=[x, y, s, tail], backend="sim", detect_races=True, register_host_memory=True
    )
    want_y, want_s, want_tail = _kernel_expected(x)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(tail, want_tail)


# Host code: a dense vector stored into memory (the Vulkan tests' set-up),
# then printed through printMemref.
HOST_STORE = """func.func @main() {
  %m = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  %v = arith.constant dense<[4, -3, 2, 1]> : vector<4xi32>
  %w = arith.muli %v, %v : vector<4xi32>
  vector.store %w, %m[%c0] : memref<4xi32>, vector<4xi32>
  %u = memref.cast %m : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %l = vector.load %m[%c0] : memref<4xi32>, vector<4xi32>
  vector.print %l : vector<4xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_vector_store_and_load_in_host_code(backend: str):
    out = io.StringIO()
    xgpu.run(HOST_STORE, backend=backend, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1] == "[16,  9,  4,  1]"
    assert lines[2] == "( 16, 9, 4, 1 )"


LOOP = """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant dense<1.0> : vector<2xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %v) -> (vector<2xf32>) {
    %n = arith.addf %acc, %acc : vector<2xf32>
    scf.yield %n : vector<2xf32>
  }
  vector.print %r : vector<2xf32>
  return
}
"""


def test_a_vector_through_a_loop_is_a_clear_error():
    with pytest.raises(RunError) as info:
        xgpu.run(LOOP, backend="sim", name="loop.mlir")
    text = str(info.value)
    assert text.startswith("loop.mlir:6:8: error: 'scf.for' with vector results")
    assert "Traceback" not in text


def test_an_unknown_op_on_vectors_is_a_clear_error():
    program = """func.func @main() {
  %a = arith.constant dense<1.0> : vector<4xf32>
  %b = vector.bitcast %a : vector<4xf32> to vector<4xi32>
  vector.print %b : vector<4xi32>
  return
}
"""
    with pytest.raises(RunError) as info:
        xgpu.run(program, backend="sim", name="u.mlir")
    assert str(info.value).startswith(
        "u.mlir:3:8: error: 'vector.bitcast' on vectors is not supported by xgpu-run"
    )
