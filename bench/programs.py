"""Generated async host programs shared by the benchmarks."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from xgpu.tools.oracle import find_mlir_opt


def async_program(n: int, buffers_every: int = 100) -> str:
    """N chained `gpu.launch_func async`, each followed by a redundant
    single-token `gpu.wait async`; every `buffers_every` launches a scratch
    buffer is allocated, filled by a copy, used by the next launch and freed."""
    lines = [
        "module attributes {gpu.container_module} {",
        "  gpu.module @kernels {",
        "    gpu.func @scale(%buf: memref<?xf32>, %n: index) kernel {",
        "      gpu.return",
        "    }",
        "  }",
        "  func.func @main(%host: memref<?xf32>, %n: index) {",
        "    %c1 = arith.constant 1 : index",
        "    %t0 = gpu.wait async",
        "    %dev, %ta = gpu.alloc async [%t0] (%n) : memref<?xf32>",
        "    %tc = gpu.memcpy async [%ta] %dev, %host : memref<?xf32>, memref<?xf32>",
    ]
    prev = "%tc"
    for i in range(n):
        buf = "%dev"
        if buffers_every and i % buffers_every == buffers_every - 1:
            lines.append(f"    %s{i}, %sa{i} = gpu.alloc async [{prev}] (%n) : memref<?xf32>")
            lines.append(
                f"    %sc{i} = gpu.memcpy async [%sa{i}] %s{i}, %dev : memref<?xf32>, memref<?xf32>"
            )
            prev, buf = f"%sc{i}", f"%s{i}"
        lines.append(
            f"    %l{i} = gpu.launch_func async [{prev}] @kernels::@scale blocks in (%n, %c1, %c1)"
            f" threads in (%c1, %c1, %c1) args({buf} : memref<?xf32>, %n : index)"
        )
        lines.append(f"    %w{i} = gpu.wait async [%l{i}]")
        prev = f"%w{i}"
        if buf != "%dev":
            lines.append(f"    %sf{i} = gpu.dealloc async [{prev}] {buf} : memref<?xf32>")
            prev = f"%sf{i}"
    lines += [
        f"    %tb = gpu.memcpy async [{prev}] %host, %dev : memref<?xf32>, memref<?xf32>",
        "    %tf = gpu.dealloc async [%tb] %dev : memref<?xf32>",
        "    gpu.wait [%tf]",
        "    return",
        "  }",
        "}",
    ]
    return "\n".join(lines) + "\n"


def best_time(cmd: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def compare(
    title: str,
    sizes: list[int],
    repeat: int,
    xgpu_args: list[str],
    mlir_args: list[str],
    make: Callable[[int], str] = async_program,
) -> int:
    """Time `xgpu-opt ARGS F` against `mlir-opt ARGS F` on generated files of
    each size and print the times, ratios and growth."""
    xgpu_opt = shutil.which("xgpu-opt")
    mlir_opt = find_mlir_opt()
    if xgpu_opt is None:
        print("bench: xgpu-opt is not installed (make install)", file=sys.stderr)
        return 1
    print(f"{title}, best of {repeat}; baseline: {mlir_opt or 'none found'}")
    print(f"{'launches':>9} {'lines':>7} {'xgpu-opt s':>11} {'mlir-opt s':>11} {'ratio':>7}")
    previous: tuple[int, float] | None = None
    growth: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"launches_{n}.mlir"
            text = make(n)
            path.write_text(text)
            ours = best_time([xgpu_opt, *xgpu_args, str(path)], repeat)
            ref = best_time([mlir_opt, *mlir_args, str(path)], repeat) if mlir_opt else float("nan")
            print(f"{n:>9} {text.count(chr(10)):>7} {ours:>11.3f} {ref:>11.3f} {ours / ref:>6.1f}x")
            if previous is not None:
                growth.append(f"{n / previous[0]:.0f}x launches -> {ours / previous[1]:.1f}x time")
            previous = (n, ours)
    if growth:
        print("growth: " + "; ".join(growth))
    return 0
