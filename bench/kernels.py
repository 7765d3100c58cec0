"""Generated OpenCL C against hand-written OpenCL C: same work, same device.

    python bench/kernels.py [--runs 31] [--quick] [--tiny] [--device NAME] [--only NAME,...]

Each case pairs a gpu.module of `bench/kernels/` (MLIR as a compiler engineer
would write it in the GPU dialect), compiled by xgpu's OpenCL emitter, with
idiomatic hand-written OpenCL C for the same algorithm and work-group size:

- saxpy: y = a * x + y over 2^22 floats (global id + bounds check), 256 work
  items per group (`saxpy.mlir` / `saxpy.cl`);
- matmul_tiled: 512 x 512 f32 C = A @ B with 16 x 16 tiles of A and B in
  workgroup memory, two barriers per tile, 16 x 16 work items per group
  (`matmul_tiled.mlir` / `matmul_tiled.cl` and `matmul_tiled_flat.cl`);
- reduce_fold, reduce_tree: one partial sum per 256-work-item block over
  2^22 floats, written with `gpu.all_reduce add` (`reduce.mlir`) and emitted
  in each reduction order (`compile_gpu_module(..., reduction=...)`), each
  against the same algorithm written by hand: one lane folding the block
  left to right (`reduce_fold.cl`) and the idiomatic `__local` halving tree
  (`reduce.cl`);
- reduce_tree_dialect: that `__local` tree written out in the GPU dialect
  (`reduce_tree.mlir`, a workgroup attribution, `scf.for` and
  `gpu.barrier`) against `reduce.cl`.

Three sides are built in this process for the selected device (`--device`,
else `$XGPU_DEVICE` / `$XGPU_OPENCL_DEVICE`, chosen as xgpu-run chooses, see
`xgpu.runtime.opencl_device`): the generated program without bounds checks
(`compile_gpu_module(..., checked=False, **emit_options(device))`, what
`xgpu-run --unchecked` runs), the generated program with them (`checked=True`,
what `xgpu-run` runs by default; its error record must stay clean), and the
hand-written one, all with the emitter's build options. Every result is
checked against numpy first; a wrong result stops the bench (exit status 2).
Every side runs on the same buffers (where buffers lie moves a memory-bound
kernel by up to 1.5x on PoCL). Then, on one in-order profiling queue, each
side is warmed up twice and run --runs times, the sides taking turns (and
rotating which goes first) so that all see the same machine load. The time of a run is the kernel event's
profiling `end - start`.

Printed per case (bench/common.py's rows, medians of the runs; the ratio is
the median of the rounds' ratios, each round's sides having run back to
back): the unchecked generated kernel against the fastest hand-written
version of the same algorithm (the matmul has two: 2-D indexed `matmul_tiled.cl` and
flat-indexed `matmul_tiled_flat.cl`), judged by the OpenCL backend issue's
target, at most 1.10x; the checked side against the same baseline
(informational: the cost of the bounds checks). Then, when both reduce cases
ran, fold / tree on each side: which order suits the device (`emit_options`
picks fold on CPU devices, tree on the others). `--tiny` runs the tests'
small sizes (the bench's own test); `--quick` 5 runs per side.

`check_case(env, name, small=True)` runs the correctness part only
(tests/unit/test_bench_kernels.py, on small sizes).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Row, Target, fmt_time, median, paired_ratio, print_rows, skip  # noqa: E402

TARGET = Target(at_most=1.10)
WARMUP = 2
KERNEL_DIR = Path(__file__).resolve().parent / "kernels"


class WrongResult(AssertionError):
    """A kernel did not build, or computed a wrong result."""


# --------------------------------------------------------------------------- #
# The cases                                                                   #
# --------------------------------------------------------------------------- #


@dataclass
class Launch:
    """One launch, for both sides: the initial arrays (each copied to a buffer
    of its own per side), the arguments of each side given those buffers, the
    output array and the numpy expectation."""

    grid: tuple[int, ...]
    block: tuple[int, ...]
    arrays: dict[str, np.ndarray]
    generated_args: Callable[[dict[str, Any]], list[Any]]  # one per gpu.func argument
    handwritten_args: Callable[[dict[str, Any]], list[Any]]  # the OpenCL arguments
    handwritten_dtypes: list[Any]  # for Kernel.set_scalar_arg_dtypes
    output: str
    expected: np.ndarray
    rtol: float
    atol: float


def memref(buf: Any, array: np.ndarray) -> tuple[Any, int, tuple[int, ...], tuple[int, ...]]:
    """The memref descriptor (buffer, offset, sizes, strides) of a whole
    row-major `array` held in `buf`, as `KernelABI.pack_args` takes it."""
    return buf, 0, array.shape, tuple(s // array.itemsize for s in array.strides)


def saxpy(small: bool) -> Launch:
    block = 256
    n = 1000 if small else 1 << 22  # small: not a multiple of the block (bounds check)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    a = np.float32(2.5)
    return Launch(
        grid=(-(-n // block),),
        block=(block,),
        arrays={"x": x, "y": y},
        generated_args=lambda b: [a, memref(b["x"], x), memref(b["y"], y), n],
        handwritten_args=lambda b: [a, b["x"], b["y"], n],
        handwritten_dtypes=[np.float32, None, None, np.int32],
        output="y",
        expected=a * x + y,
        rtol=1e-6,
        atol=1e-6,
    )


def matmul_tiled(small: bool) -> Launch:
    n = 48 if small else 512
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    return Launch(
        grid=(n // 16, n // 16),
        block=(16, 16),
        arrays={"A": a, "B": b, "C": c},
        generated_args=lambda m: [memref(m["A"], a), memref(m["B"], b), memref(m["C"], c)],
        handwritten_args=lambda m: [m["A"], m["B"], m["C"], n],
        handwritten_dtypes=[None, None, None, np.int32],
        output="C",
        expected=(a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32),
        rtol=1e-4,
        atol=1e-5 * n,
    )


def reduce(small: bool) -> Launch:
    block = 256
    n = 5 * block if small else 1 << 22
    groups = n // block
    rng = np.random.default_rng(2)
    x = rng.uniform(0, 1, n).astype(np.float32)
    partial = np.zeros(groups, np.float32)
    return Launch(
        grid=(groups,),
        block=(block,),
        arrays={"in": x, "partial": partial},
        generated_args=lambda m: [memref(m["in"], x), memref(m["partial"], partial)],
        handwritten_args=lambda m: [m["in"], m["partial"]],
        handwritten_dtypes=[None, None],
        output="partial",
        expected=x.astype(np.float64).reshape(groups, block).sum(axis=1).astype(np.float32),
        rtol=1e-5,
        atol=0.0,
    )


@dataclass(frozen=True)
class Case:
    """`kernels/<mlir>.mlir` (gpu.func @<mlir>), emitted with the device's
    options updated by `options`, against `kernels/<cl>.cl` (kernel <cl>),
    launched as `launch(small)` says."""

    mlir: str
    cl: str
    launch: Callable[[bool], Launch]
    note: str
    options: tuple[tuple[str, Any], ...] = ()
    #: more hand-written versions of the same algorithm (`kernels/<name>.cl`,
    #: kernel <name>, same arguments); the baseline is the fastest of all
    alternatives: tuple[str, ...] = ()


CASES: dict[str, Case] = {
    "saxpy": Case("saxpy", "saxpy", saxpy, "2^22 f32, 256 work items per group"),
    "matmul_tiled": Case(
        "matmul_tiled",
        "matmul_tiled",
        matmul_tiled,
        "512^3 f32, 16x16 tiles in __local; hand-written 2-D indexed and flat-indexed",
        alternatives=("matmul_tiled_flat",),
    ),
    "reduce_fold": Case(
        "reduce",
        "reduce_fold",
        reduce,
        "2^22 f32, gpu.all_reduce add emitted as a fold vs a hand-written fold by one lane",
        (("reduction", "fold"),),
    ),
    "reduce_tree": Case(
        "reduce",
        "reduce",
        reduce,
        "2^22 f32, gpu.all_reduce add emitted as a tree vs the hand-written __local tree",
        (("reduction", "tree"),),
    ),
    "reduce_tree_dialect": Case(
        "reduce_tree", "reduce", reduce, "2^22 f32, the same __local tree on both sides"
    ),
}


# --------------------------------------------------------------------------- #
# Building and running                                                        #
# --------------------------------------------------------------------------- #


@dataclass
class Env:
    """pyopencl, the device, a context, a profiling queue and the emitter's
    options for the device."""

    cl: Any
    device: Any
    ctx: Any
    queue: Any
    options: dict[str, Any]


def open_device(device: Any | None = None) -> Env:
    """An Env on `device` (a pyopencl Device, a name as xgpu-run takes it, or
    None: `$XGPU_DEVICE` / `$XGPU_OPENCL_DEVICE` or the default). Raises
    ImportError without pyopencl, `DeviceError` without a matching device."""
    import pyopencl as cl

    from xgpu.backend.opencl.device import emit_options
    from xgpu.runtime.opencl_device import select_device

    if device is None or isinstance(device, str):
        device = select_device(device)
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    return Env(cl, device, ctx, queue, emit_options(device))


def emit(name: str, options: dict[str, Any] | None = None):
    """The OpenCLProgram the emitter makes of case `name`'s gpu.module."""
    import xgpu
    from xgpu.backend.opencl import compile_gpu_module

    case = CASES[name]
    path = KERNEL_DIR / f"{case.mlir}.mlir"
    module = xgpu.parse(path.read_text(), str(path))
    if errors := xgpu.verify(module):
        raise WrongResult(f"{path}: does not verify: {errors.first.message}")
    gpu_module = next(op for op in module.walk() if op.name == "gpu.module")
    return compile_gpu_module(gpu_module, **{**(options or {}), **dict(case.options)})


def case_buffers(env: Env, launch: Launch) -> dict[str, Any]:
    """The buffers of a case's arrays, shared by all its sides: a memory-bound
    kernel's time depends on where its buffers lie (alignment, huge pages;
    on PoCL's CPU device saxpy's three sides with buffers of their own
    differed by up to 1.5x, and by nothing on the same buffers)."""
    cl = env.cl
    mf = cl.mem_flags
    return {
        k: cl.Buffer(env.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=v)
        for k, v in launch.arrays.items()
    }


class Side:
    """One built kernel (generated or hand-written) on the case's buffers."""

    def __init__(self, env: Env, kernel: Any, launch: Launch, abi: Any = None, buffers: Any = None):
        from xgpu.backend.opencl.guards import RECORD_LONGS

        cl = env.cl
        self.env, self.kernel, self.launch = env, kernel, launch
        mf = cl.mem_flags
        self.buffers = buffers if buffers is not None else case_buffers(env, launch)
        self.gsize = tuple(g * b for g, b in zip(launch.grid, launch.block, strict=True))
        #: the error record of a checked kernel (None otherwise)
        self.record = None
        if abi is not None and any(p.kind == "record" for p in abi.params):
            zeros = np.zeros(RECORD_LONGS, np.int64)
            self.record = cl.Buffer(env.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=zeros)
        if abi is not None:  # generated: the arguments as the emitter's ABI says
            kernel.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
            self.args = abi.pack_args(
                launch.generated_args(self.buffers), launch.block, record=self.record
            )
        else:
            kernel.set_scalar_arg_dtypes(launch.handwritten_dtypes)
            self.args = launch.handwritten_args(self.buffers)

    def reset(self) -> None:
        for k, v in self.launch.arrays.items():
            self.env.cl.enqueue_copy(self.env.queue, self.buffers[k], v)

    def run(self) -> float:
        """Launch once and wait; the kernel's time in ms (event profiling)."""
        event = self.kernel(self.env.queue, self.gsize, self.launch.block, *self.args)
        event.wait()
        return (event.profile.end - event.profile.start) * 1e-6

    def result(self) -> np.ndarray:
        out = np.empty_like(self.launch.arrays[self.launch.output])
        self.env.cl.enqueue_copy(self.env.queue, out, self.buffers[self.launch.output])
        return out

    def record_clean(self) -> bool:
        if self.record is None:
            return True
        rec = np.empty(1, np.int64)
        self.env.cl.enqueue_copy(self.env.queue, rec, self.record)
        return rec[0] == 0


SIDES = ("generated", "checked", "hand-written")


def _generated(env: Env, name: str, launch: Launch, checked: bool, buffers: Any = None) -> Side:
    cl = env.cl
    case = CASES[name]
    prog = emit(name, {**env.options, "checked": checked})
    abi = prog.kernels[case.mlir]
    try:
        built = cl.Program(env.ctx, prog.source).build(options=prog.build_options)
    except cl.RuntimeError as err:
        raise WrongResult(
            f"{name}: the emitted OpenCL C does not build:\n{prog.explain_build_log(str(err))}"
        ) from None
    return Side(env, cl.Kernel(built, abi.cl_name), launch, abi, buffers)


def build_sides(env: Env, name: str, small: bool) -> dict[str, Side]:
    """The Sides of case `name`, keyed as SIDES: generated (unchecked),
    checked (generated with bounds checks) and hand-written, then
    "hand-written NAME" for each of the case's alternatives."""
    from xgpu.backend.opencl import BUILD_OPTIONS

    cl = env.cl
    case = CASES[name]
    launch = case.launch(small)
    buffers = case_buffers(env, launch)
    gen = _generated(env, name, launch, checked=False, buffers=buffers)
    checked = _generated(env, name, launch, checked=True, buffers=buffers)
    sides = {"generated": gen, "checked": checked}
    for cl_name in (case.cl, *case.alternatives):
        hand_src = (KERNEL_DIR / f"{cl_name}.cl").read_text()
        hand_built = cl.Program(env.ctx, hand_src).build(options=BUILD_OPTIONS)
        label = "hand-written" if cl_name == case.cl else f"hand-written {cl_name}"
        sides[label] = Side(env, cl.Kernel(hand_built, cl_name), launch, buffers=buffers)
    return sides


def check_sides(name: str, sides: dict[str, Side]) -> None:
    """Run each side once from the initial data and compare with numpy (and
    the checked side's record must stay clean); raises WrongResult."""
    for label, side in sides.items():
        side.reset()
        side.run()
        launch = side.launch
        try:
            np.testing.assert_allclose(
                side.result(), launch.expected, rtol=launch.rtol, atol=launch.atol
            )
        except AssertionError as err:
            raise WrongResult(f"{name} ({label}): wrong result against numpy:{err}") from None
        if not side.record_clean():
            raise WrongResult(f"{name} ({label}): a bounds check failed")


def check_case(env: Env, name: str, small: bool = True) -> None:
    """Build the sides of case `name` and check their results (no timing)."""
    check_sides(name, build_sides(env, name, small))


def time_sides(sides: dict[str, Side], runs: int) -> dict[str, list[float]]:
    """Kernel times (ms) of `runs` runs of each side taking turns (the first
    of each turn rotating), after WARMUP runs of each (the first launch
    compiles the work-group function)."""
    order = list(sides)
    for _ in range(WARMUP):
        for side in sides.values():
            side.run()
    times: dict[str, list[float]] = {k: [] for k in order}
    for i in range(runs):
        turn = order[i % len(order) :] + order[: i % len(order)]
        for k in turn:
            times[k].append(sides[k].run())
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=31, help="timed runs per side (default 31)")
    ap.add_argument("--quick", action="store_true", help="5 runs per side")
    ap.add_argument("--tiny", action="store_true", help="the small sizes of the tests")
    ap.add_argument("--device", default=None, help="as xgpu-run --device")
    ap.add_argument("--only", default=None, help="comma-separated case names")
    args = ap.parse_args()
    if args.quick:
        args.runs = min(args.runs, 5)
    names = list(CASES) if args.only is None else args.only.split(",")
    unknown = [n for n in names if n not in CASES]
    if unknown:
        ap.error(f"unknown case(s) {unknown}; have {list(CASES)}")
    try:
        env = open_device(args.device)
    except Exception as err:  # no pyopencl or no device: say so, do not fail `make bench`
        return skip("bench/kernels.py", f"{type(err).__name__}: {err}")
    from xgpu.runtime.opencl_device import describe

    results = []
    try:
        for name in names:
            sides = build_sides(env, name, small=args.tiny)
            check_sides(name, sides)
            results.append((name, time_sides(sides, args.runs)))
    except WrongResult as err:
        print(f"bench/kernels.py: FAILED: {err}", file=sys.stderr)
        return 2
    print(f"device: {describe(env.device)}")
    rows: list[Row] = []
    notes = []
    medians: dict[str, dict[str, float]] = {}
    for name, times in results:
        med = medians[name] = {k: median(v) / 1e3 for k, v in times.items()}
        hands = {k: v for k, v in med.items() if k.startswith("hand-written")}
        best = min(hands, key=hands.__getitem__)
        base = hands[best]
        # The ratio of runs of the same round (back to back): the machine's
        # speed moves between phases of a run.
        hand = times[best]
        rows.append(
            Row(
                f"{name}: generated (--unchecked)",
                base,
                med["generated"],
                TARGET,
                paired=paired_ratio(times["generated"], hand),
            )
        )
        rows.append(
            Row(
                f"{name}: checked (default)",
                base,
                med["checked"],
                paired=paired_ratio(times["checked"], hand),
            )
        )
        variants = ", ".join(f"{k} {fmt_time(v)}" for k, v in hands.items())
        notes.append(f"  {name}: {CASES[name].note}; baseline: {best} ({variants})")
    print_rows(
        "Kernels (bench/kernels.py)",
        f"kernel time (OpenCL profiling end - start), median of {args.runs} runs per side, "
        f"sides taking turns after {WARMUP} warm-ups; ratio: the median of the {args.runs} "
        "rounds' ratios; results checked against numpy; "
        "baseline: the fastest hand-written version of the same algorithm",
        rows,
    )
    for line in notes:
        print(line)
    if "reduce_fold" in medians and "reduce_tree" in medians:
        f, t = medians["reduce_fold"], medians["reduce_tree"]
        print(
            f"reduction orders on this device, fold / tree (medians): generated "
            f"{f['generated'] / t['generated']:.2f}x, hand-written "
            f"{f['hand-written'] / t['hand-written']:.2f}x (the device's choice: "
            f"{env.options['reduction']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
