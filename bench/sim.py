"""The simulator's speed: simulated work-items per second.

    python bench/sim.py [--n 64] [--runs 3]

Cases (each a host program around a kernel of bench/kernels/, run with
`xgpu.run`; the result is checked against numpy first):

- matmul_tiled: C = A @ B, n x n f32 (n = 64 by default: 16 blocks of
  16 x 16 work-items, n/16 tiles each, two gpu.barrier per tile), the kernel
  of bench/kernels/matmul_tiled.mlir;
- saxpy: y = a * x + y over 2^14 floats, 256 work-items per block
  (bench/kernels/saxpy.mlir).

For each: the best wall time of `--runs` runs on the simulator, on the
simulator with `--detect-races`, and, as the baseline measured in the same
run, on OpenCL (PoCL's CPU device by default; parse, compile and build
included, as xgpu-run would do it). Printed: work-items, seconds, simulated
work-items per second, and the ratios sim / OpenCL and sim+races / sim.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import xgpu

KERNELS = Path(__file__).resolve().parent / "kernels"


def _module_body(name: str) -> str:
    text = (KERNELS / name).read_text()
    return text[text.index("  gpu.module") : text.rindex("}")]


def matmul_program() -> str:
    host = """
  func.func @main(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %A, %c0 : memref<?x?xf32>
    %g = arith.divui %n, %c16 : index
    %t0 = gpu.wait async
    %dA, %t1 = gpu.alloc async [%t0] (%n, %n) : memref<?x?xf32>
    %dB, %t2 = gpu.alloc async [%t0] (%n, %n) : memref<?x?xf32>
    %dC, %t3 = gpu.alloc async [%t0] (%n, %n) : memref<?x?xf32>
    %t4 = gpu.memcpy async [%t1] %dA, %A : memref<?x?xf32>, memref<?x?xf32>
    %t5 = gpu.memcpy async [%t2] %dB, %B : memref<?x?xf32>, memref<?x?xf32>
    %t6 = gpu.launch_func async [%t3, %t4, %t5] @matmul::@matmul_tiled blocks in (%g, %g, %c1) threads in (%c16, %c16, %c1) args(%dA : memref<?x?xf32>, %dB : memref<?x?xf32>, %dC : memref<?x?xf32>)
    %t7 = gpu.memcpy async [%t6] %C, %dC : memref<?x?xf32>, memref<?x?xf32>
    gpu.wait [%t7]
    return
  }
"""
    body = _module_body("matmul_tiled.mlir")
    return "module attributes {gpu.container_module} {\n" + body + host + "}\n"


def saxpy_program() -> str:
    host = """
  func.func @main(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %g = arith.divui %n, %c256 : index
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %dy, %t2 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t3 = gpu.memcpy async [%t1] %dx, %x : memref<?xf32>, memref<?xf32>
    %t4 = gpu.memcpy async [%t2] %dy, %y : memref<?xf32>, memref<?xf32>
    %t5 = gpu.launch_func async [%t3, %t4] @saxpy::@saxpy blocks in (%g, %c1, %c1) threads in (%c256, %c1, %c1) args(%a : f32, %dx : memref<?xf32>, %dy : memref<?xf32>, %n : index)
    %t6 = gpu.memcpy async [%t5] %y, %dy : memref<?xf32>, memref<?xf32>
    gpu.wait [%t6]
    return
  }
"""
    body = _module_body("saxpy.mlir")
    return "module attributes {gpu.container_module} {\n" + body + host + "}\n"


def _best(fn, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def case_matmul(n: int, runs: int) -> tuple[str, int, dict[str, float]]:
    text = matmul_program()
    rng = np.random.default_rng(0)
    A = rng.random((n, n), dtype=np.float32)
    B = rng.random((n, n), dtype=np.float32)

    def go(**kw):
        C = np.zeros((n, n), np.float32)
        xgpu.run(text, args=[A, B, C], **kw)
        if not np.allclose(C, A @ B, rtol=1e-4, atol=1e-4):
            raise SystemExit(f"matmul_tiled: wrong result with {kw}")

    times = {
        "sim": _best(lambda: go(backend="sim"), runs),
        "sim+races": _best(lambda: go(backend="sim", detect_races=True), runs),
        "opencl": _best(lambda: go(), runs),
    }
    return f"matmul_tiled {n}x{n}", n * n, times


def case_saxpy(n: int, runs: int) -> tuple[str, int, dict[str, float]]:
    text = saxpy_program()
    rng = np.random.default_rng(1)
    x = rng.random(n, dtype=np.float32)
    y0 = rng.random(n, dtype=np.float32)
    a = np.float32(1.5)

    def go(**kw):
        y = y0.copy()
        xgpu.run(text, args=[float(a), x, y], **kw)
        if not np.allclose(y, a * x + y0, rtol=1e-6):
            raise SystemExit(f"saxpy: wrong result with {kw}")

    times = {
        "sim": _best(lambda: go(backend="sim"), runs),
        "sim+races": _best(lambda: go(backend="sim", detect_races=True), runs),
        "opencl": _best(lambda: go(), runs),
    }
    return f"saxpy {n}", n, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=64, help="matmul size (a multiple of 16)")
    parser.add_argument("--saxpy", type=int, default=1 << 14, help="saxpy length")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'case':<22}{'work-items':>11}{'sim s':>9}{'items/s':>10}{'+races s':>10}"
        f"{'opencl s':>10}{'sim/ocl':>9}{'races/sim':>10}"
    )
    for case in (case_matmul(args.n, args.runs), case_saxpy(args.saxpy, args.runs)):
        name, items, t = case
        print(
            f"{name:<22}{items:>11}{t['sim']:>9.3f}{items / t['sim']:>10.0f}"
            f"{t['sim+races']:>10.3f}{t['opencl']:>10.3f}{t['sim'] / t['opencl']:>8.1f}x"
            f"{t['sim+races'] / t['sim']:>9.2f}x"
        )


if __name__ == "__main__":
    main()
