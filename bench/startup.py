"""Start-up: what a user waits for before any work is done.

    python bench/startup.py [--runs 7] [--quick]

Whole processes, the sides taking turns, medians of --runs:

- `xgpu-opt` on a 10-line file against `python -c 'import xdsl.context,
  xdsl.parser, xdsl.printer, xdsl.dialects.builtin'` (the xDSL floor);
  target at most 1.3x;
- `xgpu-run` of a host-only program, and of a program with one kernel on
  the default OpenCL device (PoCL), against a bare pyopencl script that
  creates a context and a queue; target: xgpu-run at most the baseline +
  0.5 s;
- `mlir-opt-22` on the same 10-line file against `xgpu-opt`: informational.

The tools run as `python -m xgpu.tools.xgpu_opt` and `python -m
xgpu.tools.xgpu_run`, the functions the console scripts call
(`[project.scripts]`), so that PYTHONPATH picks the checkout measured (and a
pyenv shim's start-up is not counted).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Row, Target, interleaved, median, print_rows, process_timer, python_module  # noqa: E402

from xgpu.tools.oracle import find_mlir_opt  # noqa: E402

TEN_LINES = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
"""

HOST_ONLY = """func.func @main() {
  %c = arith.constant 42 : index
  %v = arith.addi %c, %c : index
  return
}
"""

ONE_KERNEL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<64xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      memref.store %r, %m[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %m = gpu.alloc () : memref<64xf32>
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%m : memref<64xf32>)
    gpu.dealloc %m : memref<64xf32>
    return
  }
}
"""

XDSL_FLOOR = "import xdsl.context, xdsl.parser, xdsl.printer, xdsl.dialects.builtin"
PYOPENCL_FLOOR = (
    "import pyopencl as cl\n"
    "ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])\n"
    "queue = cl.CommandQueue(ctx)\n"
    "queue.finish()\n"
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="3 runs")
    ap.add_argument("--tiny", action="store_true", help="1 run (the bench's own test)")
    args = ap.parse_args()
    if args.quick:
        args.runs = min(args.runs, 3)
    if args.tiny:
        args.runs = 1
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, text in (("ten", TEN_LINES), ("host", HOST_ONLY), ("kernel", ONE_KERNEL)):
            files[name] = Path(tmp) / f"{name}.mlir"
            files[name].write_text(text)
        sides = {
            "xdsl": process_timer([sys.executable, "-c", XDSL_FLOOR]),
            "xgpu-opt": process_timer(python_module("xgpu.tools.xgpu_opt", str(files["ten"]))),
            "pyopencl": process_timer([sys.executable, "-c", PYOPENCL_FLOOR]),
            "run host": process_timer(python_module("xgpu.tools.xgpu_run", str(files["host"]))),
            "run kernel": process_timer(python_module("xgpu.tools.xgpu_run", str(files["kernel"]))),
        }
        mlir_opt = find_mlir_opt()
        if mlir_opt is not None:
            sides["mlir-opt"] = process_timer([mlir_opt, str(files["ten"])])
        times = interleaved(sides, args.runs, warmup=1)
    med = {k: median(v) for k, v in times.items()}
    plus = Target(plus=0.5)
    rows = [
        Row("xgpu-opt, 10-line file, vs importing xDSL", med["xdsl"], med["xgpu-opt"], Target(1.3)),
        Row(
            "xgpu-run, host only, vs pyopencl context + queue",
            med["pyopencl"],
            med["run host"],
            plus,
        ),
        Row(
            "xgpu-run, one kernel on OpenCL, vs the same", med["pyopencl"], med["run kernel"], plus
        ),
    ]
    if "mlir-opt" in med:
        rows.append(Row("xgpu-opt vs mlir-opt 22, 10-line file", med["mlir-opt"], med["xgpu-opt"]))
    print_rows(
        "Start-up (bench/startup.py)",
        f"whole processes, median of {args.runs} interleaved runs per side after one warm-up; "
        "xgpu's tools as python -m (what the console scripts run)",
        rows,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
