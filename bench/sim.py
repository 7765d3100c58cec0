"""The simulator's kernel time against Oclgrind's, on the same programs.

    python bench/sim.py [--quick] [--tiny] [--only NAME,...] [--runs N] [--timeout S]

Programs (bench/programs/sim/, each a host `@main` launching one kernel over
its whole grid, and `@warmup` launching one block of the same kernel):
matmul_tiled_128 and matmul_tiled_256 (16x16 tiles in workgroup memory, two
barriers per tile), saxpy_1m (2^20 f32) and reduce (gpu.all_reduce add over
2^18 f32, 256 work-items per block).

Sides, each a process of its own (`python bench/sim.py --child ...`), the
sides taking turns:

- sim: `xgpu.run` on the simulator (`--backend sim`);
- sim+races: the simulator with `--detect-races`;
- oclgrind: xgpu's generated OpenCL C of the same program on Oclgrind's
  simulated device (`oclgrind python ... --device oclgrind`), the baseline;
- oclgrind+races: the same under `oclgrind --data-races`, the baseline of
  sim+races.

Kernel time, measured inside each process after a first `@warmup` call
(it parses and compiles the host program, builds the OpenCL program or
compiles the simulator's kernel, and runs one block):

- on the simulator, the time of the launch itself (`Launch.run`: from its
  first block to the race detector's entering its accesses), the median
  over seven calls of `@main`; copies, frees and host code are not in it;
- on Oclgrind, which runs in a process of its own, `@main` - `@warmup`
  (both allocate, copy in, launch, copy out and free the same buffers):
  the launch of all blocks but one (0 where the difference is below the
  noise; a 0 row counts as faster than any target ratio). The simulator's
  figure includes the one block more.

Process start-up, parsing and OpenCL compilation are not in the figure.
The result of `@main` is checked against numpy.
Medians of --runs (default 3; 1 for matmul_tiled_256 and with --quick). A
side that runs past --timeout seconds (default 600) is reported as such.
`--tiny` times `@warmup` (one block) instead of `@main`: the bench's own test.

Targets (issue "Speed where users wait"): the simulator at least 10x faster
than Oclgrind (Oclgrind / sim >= 10), with and without race detection, and
`--detect-races` at most 3x the plain simulator. Oclgrind's rows are skipped,
with the reason, where `oclgrind` is not installed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Row, Target, env_with_root, fmt_time, median, print_rows, skip  # noqa: E402

PROGRAMS = Path(__file__).resolve().parent / "programs" / "sim"
NAMES = ("matmul_tiled_128", "matmul_tiled_256", "saxpy_1m", "reduce")
#: programs measured once even without --quick (minutes on Oclgrind)
BIG = ("matmul_tiled_256",)
FASTER = Target(at_least=10)
RACES = Target(at_most=3)
SIDES = ("sim", "sim+races", "oclgrind", "oclgrind+races")


def inputs(name: str):
    """The arguments of `name`'s @main and @warmup, and a check of the result
    of @main (None for @warmup)."""
    rng = np.random.default_rng(0)
    if name.startswith("matmul_tiled_"):
        n = int(name.rsplit("_", 1)[1])
        a = rng.random((n, n), dtype=np.float32)
        b = rng.random((n, n), dtype=np.float32)
        c = np.zeros((n, n), np.float32)
        return [a, b, c], lambda: np.allclose(c, a @ b, rtol=1e-4, atol=1e-4)
    if name == "saxpy_1m":
        x = rng.random(1 << 20, dtype=np.float32)
        y0 = rng.random(1 << 20, dtype=np.float32)
        y = y0.copy()
        return [1.5, x, y], lambda: np.allclose(y, np.float32(1.5) * x + y0, rtol=1e-6)
    if name == "reduce":
        x = rng.random(1 << 18, dtype=np.float32)
        p = np.zeros((1 << 18) // 256, np.float32)
        return [x, p], lambda: np.allclose(p, x.reshape(-1, 256).sum(axis=1), rtol=1e-4)
    raise ValueError(name)


def child(args) -> int:
    """One side: build, warm up, time @main (or @warmup with --tiny), print
    {"kernel_s": seconds} as the last line."""
    from xgpu.runtime.api import Runner, RunOptions, load

    path = PROGRAMS / f"{args.child}.mlir"
    module, sources = load(path.read_text(), str(path))
    options = RunOptions(
        backend=args.backend, detect_races=args.detect_races, device=args.device, timeout=0
    )
    runner = Runner(module, sources, options)
    values, check = inputs(args.child)
    runner.call("warmup", values)

    def timed(entry: str) -> float:
        values, check = inputs(args.child)
        start = time.perf_counter()
        runner.call(entry, values)
        elapsed = time.perf_counter() - start
        if entry == "main" and not check():
            print(f"{args.child}: wrong result on {args.backend}", file=sys.stderr)
            raise SystemExit(2)
        return elapsed

    if args.tiny:
        print(json.dumps({"kernel_s": timed("warmup")}))
        return 0
    if args.backend == "sim":
        # The simulator's launch, timed where it runs: from its first block
        # to the race detector's entering its accesses (`Launch.run`), the
        # median of PAIRS calls of @main. (@main - @warmup is no measure of
        # the race detector: the copies and frees of @warmup cost more
        # than those of @main, their shadows being a mix of the one block's
        # accesses and the copies'.)
        from xgpu.backend.sim.workgroup import Launch

        spent: list[float] = []
        run = Launch.run

        def timed_run(self) -> None:
            start = time.perf_counter()
            try:
                run(self)
            finally:
                spent.append(time.perf_counter() - start)

        Launch.run = timed_run  # type: ignore[method-assign]
        kernel, whole = [], []
        for _ in range(PAIRS):
            spent.clear()
            whole.append(timed("main"))
            kernel.append(sum(spent))
        print(json.dumps({"kernel_s": median(kernel), "main_s": median(whole)}))
        return 0
    # Oclgrind: what @main takes more than @warmup (the same copies in
    # both) is its launch's other blocks.
    warm = timed("warmup")
    whole = timed("main")
    print(json.dumps({"kernel_s": max(whole - warm, 0.0), "main_s": whole, "warmup_s": warm}))
    return 0


def find_oclgrind() -> str | None:
    from xgpu.tools.oclgrind_run import find_oclgrind as find

    return find()


def side_command(name: str, side: str, tiny: bool, oclgrind: str | None) -> list[str]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", name]
    if tiny:
        cmd.append("--tiny")
    if side.startswith("sim"):
        cmd += ["--backend", "sim"] + (["--detect-races"] if side == "sim+races" else [])
        return cmd
    assert oclgrind is not None
    flags = ["--data-races"] if side == "oclgrind+races" else []
    return [oclgrind, *flags, *cmd, "--backend", "opencl", "--device", "oclgrind"]


def measure(cmd: list[str], timeout: float) -> float | str:
    """The kernel time the child reports, or why there is none."""
    try:
        proc = subprocess.run(
            cmd, capture_output=True, text=True, timeout=timeout, env=env_with_root()
        )
    except subprocess.TimeoutExpired:
        return f"timed out (> {timeout:g} s)"
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed (exit {proc.returncode}: {tail})"
    return float(json.loads(lines[-1])["kernel_s"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=None, help="comma-separated program names")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run per side")
    ap.add_argument("--tiny", action="store_true", help="time @warmup (one block)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per side and run")
    ap.add_argument("--no-oclgrind", action="store_true", help="the simulator rows only")
    # a side's process
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--backend", default="sim", help=argparse.SUPPRESS)
    ap.add_argument("--detect-races", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--device", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        return child(args)
    names = list(NAMES) if args.only is None else args.only.split(",")
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        ap.error(f"unknown program(s) {unknown}; have {list(NAMES)}")
    oclgrind = None if args.no_oclgrind else find_oclgrind()
    if oclgrind is None:
        why = "--no-oclgrind" if args.no_oclgrind else "oclgrind is not installed"
        skip("bench/sim.py: Oclgrind rows", why)
    sides = [s for s in SIDES if oclgrind is not None or s.startswith("sim")]
    rows: list[Row] = []
    failures: list[str] = []
    for name in names:
        runs = 1 if args.quick or (name in BIG and not args.tiny) else args.runs
        times: dict[str, list[float]] = {s: [] for s in sides}
        broken: dict[str, str] = {}
        for i in range(runs):
            shift = i % len(sides)
            for side in sides[shift:] + sides[:shift]:
                if side in broken:
                    continue
                got = measure(side_command(name, side, args.tiny, oclgrind), args.timeout)
                if isinstance(got, str):
                    broken[side] = got
                else:
                    times[side].append(got)
        med = {s: median(v) for s, v in times.items() if v and s not in broken}
        for side, why in broken.items():
            failures.append(f"  {name}, {side}: {why}")
        pairs = [
            ("sim vs Oclgrind", "oclgrind", "sim", FASTER),
            ("sim --detect-races vs oclgrind --data-races", "oclgrind+races", "sim+races", FASTER),
            ("--detect-races vs plain sim", "sim", "sim+races", RACES),
        ]
        for label, base, ours, target in pairs:
            if base in med and ours in med:
                rows.append(Row(f"{name}: {label}", med[base], med[ours], target))
        # the speeds themselves, for the README
        print(
            f"{name}: "
            + ", ".join(f"{s} {fmt_time(v)}" for s, v in med.items())
            + f" (median of {runs})",
            flush=True,
        )
    how = (
        "kernel time: wall time of @main (the whole grid) - wall time of @warmup (one block; "
        "same allocations and copies), inside the process, after a first @warmup (parse, "
        "compile, OpenCL build); each side a process of its own, sides interleaved, medians; "
        "ratio = sim / baseline, the speed-up target reads baseline / sim"
    )
    if args.tiny:
        how += "; --tiny: the second one-block @warmup call timed whole"
    print_rows("Simulator vs Oclgrind (bench/sim.py)", how, rows)
    if failures:
        print("sides without a figure:")
        print("\n".join(failures))
    return 0


#: calls of @main a simulator side times (Oclgrind: one, seconds to
#: minutes per call)
PAIRS = 7


if __name__ == "__main__":
    os.environ.setdefault("PYOPENCL_NO_CACHE", "1")
    sys.exit(main())
