"""Parse + verify + print speed of xgpu-opt, against mlir-opt 22 on the same files
in the same run.

    python bench/parse.py [--sizes 1000,2000,10000] [--repeat 3]

Generates async host programs of N `gpu.launch_func` (each followed by a
single-token `gpu.wait async`, with an alloc, copies and a free), times
`xgpu-opt F` and `mlir-opt F` (whole process, output discarded, best of
--repeat), and prints each time, the ratio, and how time grows with N.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xgpu.tools.oracle import find_mlir_opt


def program(n: int) -> str:
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
        lines.append(
            f"    %l{i} = gpu.launch_func async [{prev}] @kernels::@scale blocks in (%n, %c1, %c1)"
            f" threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>, %n : index)"
        )
        lines.append(f"    %w{i} = gpu.wait async [%l{i}]")
        prev = f"%w{i}"
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    xgpu_opt = shutil.which("xgpu-opt")
    mlir_opt = find_mlir_opt()
    if xgpu_opt is None:
        print("bench: xgpu-opt is not installed (make install)", file=sys.stderr)
        return 1
    print(f"parse+verify+print, best of {args.repeat}; baseline: {mlir_opt or 'none found'}")
    print(f"{'launches':>9} {'lines':>7} {'xgpu-opt s':>11} {'mlir-opt s':>11} {'ratio':>7}")
    previous: tuple[int, float] | None = None
    growth: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"launches_{n}.mlir"
            text = program(n)
            path.write_text(text)
            ours = best_time([xgpu_opt, str(path)], args.repeat)
            ref = best_time([mlir_opt, str(path)], args.repeat) if mlir_opt else float("nan")
            print(f"{n:>9} {text.count(chr(10)):>7} {ours:>11.3f} {ref:>11.3f} {ours / ref:>6.1f}x")
            if previous is not None:
                growth.append(f"{n / previous[0]:.0f}x launches -> {ours / previous[1]:.1f}x time")
            previous = (n, ours)
    if growth:
        print("growth: " + "; ".join(growth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
