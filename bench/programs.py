"""Generated async host programs shared by the benchmarks."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from common import (
    Row,
    Target,
    env_with_root,
    interleaved,
    median,
    print_rows,
    process_timer,
    python_module,
    skip,
)

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


INPROCESS = """
import sys, time
import xgpu
text = open(sys.argv[1]).read()
passes = sys.argv[2] if len(sys.argv) > 2 else ""
# first use (contexts, dialects, pattern sets) not timed
warm = xgpu.parse(open(sys.argv[3]).read(), sys.argv[3])
if passes:
    xgpu.run_pipeline(warm, passes)
xgpu.print_mlir(warm)
start = time.perf_counter()
module = xgpu.parse(text, sys.argv[1])
assert not xgpu.verify(module)
if passes:
    xgpu.run_pipeline(module, passes)
    assert not xgpu.verify(module)
xgpu.print_mlir(module)
print(time.perf_counter() - start)
"""


def inprocess_timer(path: Path, passes: str) -> Callable[[], float]:
    """A side that times parse, verify, `passes`, verify and print inside a
    process (start-up, imports and first use excluded: a warm-up module)."""
    warm = path.with_name("warm-up.mlir")
    if not warm.exists():
        warm.write_text(async_program(2))

    def run() -> float:
        out = subprocess.run(
            [sys.executable, "-c", INPROCESS, str(path), passes, str(warm)],
            capture_output=True,
            text=True,
            check=True,
            env=env_with_root(),
        )
        return float(out.stdout.split()[-1])

    return run


def compare(
    title: str,
    sizes: list[int],
    runs: int,
    xgpu_args: list[str],
    mlir_args: list[str],
    target: Target,
    passes: str = "",
    make: Callable[[int], str] = async_program,
) -> int:
    """`xgpu-opt ARGS F` (as `python -m xgpu.tools.xgpu_opt`) against
    `mlir-opt ARGS F`, whole processes, on generated files of each size,
    interleaved, medians; the target applies at the largest size. Then the
    growth from the smallest to the largest size, timed inside the process
    (parse, verify, `passes`, print), against linear growth (at most 1.2x
    the time linear growth predicts)."""
    mlir_opt = find_mlir_opt()
    if mlir_opt is None:
        return skip(f"bench ({title})", "mlir-opt 22 not found")
    rows: list[Row] = []
    counts: dict[int, int] = {}
    inproc: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"launches_{n}.mlir"
            text = make(n)
            path.write_text(text)
            counts[n] = text.count(chr(10))
            sides = {
                "mlir-opt": process_timer([mlir_opt, *mlir_args, str(path)]),
                "xgpu-opt": process_timer(
                    python_module("xgpu.tools.xgpu_opt", *xgpu_args, str(path))
                ),
            }
            if n in (sizes[0], sizes[-1]) and len(sizes) > 1:
                sides["in-process"] = inprocess_timer(path, passes)
            times = interleaved(sides, runs)
            rows.append(
                Row(
                    f"{n:,} launches ({counts[n]:,} lines), whole process",
                    median(times["mlir-opt"]),
                    median(times["xgpu-opt"]),
                    target if n == sizes[-1] else None,
                )
            )
            if "in-process" in times:
                inproc[n] = median(times["in-process"])
    if len(inproc) == 2:
        lo, hi = sizes[0], sizes[-1]
        rows.append(
            Row(
                f"growth {lo:,} -> {hi:,} launches in process: linear prediction vs measured",
                inproc[lo] * hi / lo,
                inproc[hi],
                Target(at_most=1.2),
            )
        )
    print_rows(
        title,
        f"median of {runs} interleaved runs per side; baseline: {mlir_opt} (whole process; "
        "the growth row: xgpu's time inside the process at the small size, scaled linearly)",
        rows,
    )
    return 0
