"""Per-launch cost of xgpu-run's compiled host code against a raw pyopencl loop.

    python bench/launch.py [--launches 10000] [--runs 21] [--quick] [--tiny]

All sides run in this process, on the same OpenCL device, with the same
kernel (the OpenCL C xgpu emits for a trivial `x[i] += 1` gpu.func over 64
work-items) and an out-of-order queue:

- xgpu: a host `scf.for` issuing N `gpu.launch_func async` launches, each
  depending on the previous one's token, then a blocking `gpu.wait`; the host
  function is compiled once by xgpu-run's host compiler and called with N.
  A loop whose body is only one launch chained on the loop's token, with
  loop-invariant operands, is compiled to one call of the launcher's
  `repeat` (`xgpu.runtime.launch_repeat`): the first launch goes through the
  launcher, the others are one enqueue each;
- xgpu per launch (an informational row, no target): the same loop with the
  induction variable passed as an extra `index` operand of the kernel (which
  ignores it), so that `repeat` does not apply and every iteration calls the
  launcher (the general path, which also sets that argument at every
  launch), against a raw loop that sets that argument before each enqueue
  with the call xgpu's launcher makes (`Kernel._set_arg_buf_pack_multi`);
- raw (the baseline): the fair hand-written loop: the kernel's arguments set
  once (`Kernel.set_args`, typed scalars), then N calls of the same low-level
  `cl.enqueue_nd_range_kernel(queue, kernel, global, local, None, [event])`
  xgpu's launcher makes, each waiting for the previous launch's event;
- pyopencl's high-level call `kernel(queue, global, local, *args,
  wait_for=[event])` (it sets every argument on every launch): an
  informational row.

xgpu runs as xgpu-run does by default (bounds-checked kernels: the kernel
also takes its buffer's extent, the run's error record and a launch id, which
changes at every launch; the launcher checks the launch sizes and lists the
launch), against a raw loop launching the same checked kernel, and with
`checked=False` (`--unchecked`) against a raw loop launching the unchecked
kernel. Every run of N launches includes the copy in, the launches and the
final blocking copy out. Each xgpu side runs back to back with its baseline,
--runs rounds (which of the two goes first alternates; the pairs' order
rotates): the rows show the medians of each side's runs, and the ratio is
the median of the rounds' ratios (`common.paired`).
Target (issue "Speed where users wait"): at most 1.1x the raw loop.

PoCL runs with one worker thread (`POCL_MAX_PTHREAD_COUNT=1`, unless the
environment sets it; `--pocl-threads N` asks for N, 0 for PoCL's default,
one per core): the kernel is one work-group, which one worker runs, and on
a 2-core machine a second worker only competes with the launching thread
for the cores. With PoCL's default the wall-time ratios of the same code
scattered from 0.88x to 1.24x between runs of 21 (the launching thread's
CPU time staying within 0.93x-1.09x); with one worker, 0.98x-1.07x.

The raw checked loop sets the launch id once: so does xgpu here, since
consecutive launches of one site over the same memrefs share an id (a
failure's report depends only on the site, the memrefs and the record; see
`xgpu.runtime.watch`). A row runs xgpu as xgpu-run does by default, with
`--timeout 60`: the watch's entry for the chain of launches then also keeps
its first event (a timeout names the launch the device is running), and
waits are woken by the event's completion callback. A second table gives the CPU time of the launching
thread per launch (PoCL's worker threads excluded), which other processes
disturb less than the wall time on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import Row, Target, median, paired, paired_ratio, print_rows, skip  # noqa: E402

TARGET = Target(at_most=1.1)
#: each side's host-thread CPU time per run (`time.thread_time`)
THREAD: dict = {}


# @inc's body; @inc_at takes the iteration too (and ignores it).
KERNEL = """
    gpu.func @NAME(%x: memref<?xf32>, %n: indexEXTRA) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %v = memref.load %x[%i] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }"""

# A host function launching N chained launches of KERNEL_ARGS from a loop.
LOOP = """
  func.func @NAME(%host: memref<?xf32>, %count: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%c64) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %t3 = scf.for %i = %c0 to %count step %c1 iter_args(%t = %t2) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @bench::KERNEL_ARGS
      scf.yield %tn : !gpu.async.token
    }
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %dev : memref<?xf32>
    return
  }"""

_SIZES = "blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)"
PROGRAM = (
    "module attributes {gpu.container_module} {\n  gpu.module @bench {"
    + KERNEL.replace("NAME", "inc").replace("EXTRA", "")
    + KERNEL.replace("NAME", "inc_at").replace("EXTRA", ", %it: index")
    + "\n  }"
    + LOOP.replace("NAME", "launches").replace(
        "KERNEL_ARGS", f"@inc {_SIZES} args(%dev : memref<?xf32>, %c64 : index)"
    )
    + LOOP.replace("NAME", "per_launch").replace(
        "KERNEL_ARGS",
        f"@inc_at {_SIZES} args(%dev : memref<?xf32>, %c64 : index, %i : index)",
    )
    + "\n}\n"
)


def xgpu_side(
    device: str | None,
    checked: bool = True,
    timeout: float | None = None,
    entry: str = "launches",
):
    """`entry` "per_launch": the loop whose launches take the general path."""
    from xgpu.runtime.api import Runner, RunOptions, load

    module, sources = load(PROGRAM, "bench/launch.py")
    options = RunOptions(device=device, checked=checked, timeout=timeout)
    runner = Runner(module, sources, options)
    host = np.zeros(64, dtype=np.float32)

    def run(n: int) -> float:
        host[:] = 0
        cpu = time.thread_time()
        start = time.perf_counter()
        runner.call(entry, [host, n])
        elapsed = time.perf_counter() - start
        THREAD[run].append(time.thread_time() - cpu)
        assert host[0] == n, (host[0], n)
        return elapsed

    THREAD[run] = []
    return runner, run


def raw_side(runner, high_level: bool = False, per_launch: bool = False):
    """A raw pyopencl loop launching the kernel of `runner`'s program (its
    own cl.Kernel of the same build, its own queue and buffers): arguments
    set once and `cl.enqueue_nd_range_kernel`, or with `high_level` pyopencl's
    `kernel(queue, ...)` call."""
    import pyopencl as cl

    gpu = runner.gpu_runtime()
    ctx = gpu.context
    gpu_module = next(op for op in runner.module.walk() if op.name == "gpu.module")
    program, built = runner.kernel_cache().program(gpu_module)
    abi = program.kernels["inc_at" if per_launch else "inc"]
    knl = cl.Kernel(built, abi.cl_name)
    knl.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
    queue = cl.CommandQueue(
        ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
    )
    host = np.zeros(64, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    # The values the emitter's ABI asks for, in order: buffer, offset, size,
    # stride and (checked) extent of the memref, n, and (checked) the error
    # record and a launch id.
    record = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 1024)
    cl.enqueue_fill_buffer(queue, record, np.zeros(1, np.int64), 0, 1024).wait()
    values = {
        "buffer": buf,
        "offset": 0,
        "size": 64,
        "stride": 1,
        "extent": 64,
        "scalar": 64,
        "record": record,
        "launch": 1,
    }
    args = [values[p.kind] for p in abi.params]
    enqueue = cl.enqueue_nd_range_kernel
    # @inc_at's third argument (the iteration), set before every launch
    # with the call xgpu's launcher makes for an integer that changed.
    at = [k for k, p in enumerate(abi.params) if p.kind == "scalar" and p.arg == 2]
    pack = knl._set_arg_buf_pack_multi

    def run_raw(n: int) -> float:
        host[:] = 0
        cpu = time.thread_time()
        start = time.perf_counter()
        event = cl.enqueue_copy(queue, buf, host, is_blocking=False)
        knl.set_args(*args)
        for _ in range(n):
            event = enqueue(queue, knl, (64,), (64,), None, [event])
        cl.enqueue_copy(queue, host, buf, wait_for=[event], is_blocking=True)
        elapsed = time.perf_counter() - start
        THREAD[run_side].append(time.thread_time() - cpu)
        assert host[0] == n, (host[0], n)
        return elapsed

    def run_raw_per_launch(n: int) -> float:
        host[:] = 0
        cpu = time.thread_time()
        start = time.perf_counter()
        event = cl.enqueue_copy(queue, buf, host, is_blocking=False)
        knl.set_args(*args)
        (k,) = at
        for i in range(n):
            pack((k, b"l", i))
            event = enqueue(queue, knl, (64,), (64,), None, [event])
        cl.enqueue_copy(queue, host, buf, wait_for=[event], is_blocking=True)
        elapsed = time.perf_counter() - start
        THREAD[run_side].append(time.thread_time() - cpu)
        assert host[0] == n, (host[0], n)
        return elapsed

    def run_high_level(n: int) -> float:
        host[:] = 0
        cpu = time.thread_time()
        start = time.perf_counter()
        event = cl.enqueue_copy(queue, buf, host, is_blocking=False)
        for _ in range(n):
            event = knl(queue, (64,), (64,), *args, wait_for=[event])
        cl.enqueue_copy(queue, host, buf, wait_for=[event], is_blocking=True)
        elapsed = time.perf_counter() - start
        THREAD[run_side].append(time.thread_time() - cpu)
        assert host[0] == n, (host[0], n)
        return elapsed

    run_side = run_high_level if high_level else run_raw_per_launch if per_launch else run_raw
    THREAD[run_side] = []
    return run_side


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--quick", action="store_true", help="2,000 launches, 3 runs")
    ap.add_argument("--tiny", action="store_true", help="50 launches, 1 run (the bench's test)")
    ap.add_argument("--device", default=None)
    ap.add_argument(
        "--pocl-threads",
        type=int,
        default=1,
        help="PoCL's worker threads (POCL_MAX_PTHREAD_COUNT, unless set; 0: PoCL's default)",
    )
    args = ap.parse_args()
    if args.pocl_threads > 0:
        # Before the OpenCL platform starts in this process.
        os.environ.setdefault("POCL_MAX_PTHREAD_COUNT", str(args.pocl_threads))
    if args.quick:
        args.launches, args.runs = min(args.launches, 2000), 3
    if args.tiny:
        args.launches, args.runs = 50, 1
    try:
        checked, xgpu_run = xgpu_side(args.device)
        unchecked, unchecked_run = xgpu_side(args.device, checked=False)
        _, timeout_run = xgpu_side(args.device, timeout=60.0)
        _, per_launch_run = xgpu_side(args.device, entry="per_launch")
        raw_checked = raw_side(checked)
        raw_unchecked = raw_side(unchecked)
        high_level = raw_side(checked, high_level=True)
        raw_per_launch = raw_side(checked, per_launch=True)
    except Exception as err:  # no device, no emitter: say so, do not fail `make bench`
        return skip("bench/launch.py", f"{type(err).__name__}: {err}")
    n = args.launches
    sides = {
        "xgpu": lambda: xgpu_run(n),
        "raw": lambda: raw_checked(n),
        "xgpu --timeout 60": lambda: timeout_run(n),
        "xgpu unchecked": lambda: unchecked_run(n),
        "raw unchecked": lambda: raw_unchecked(n),
        "high-level": lambda: high_level(n),
        "xgpu per launch": lambda: per_launch_run(n),
        "raw per launch": lambda: raw_per_launch(n),
    }
    # Each xgpu side back to back with its baseline, round by round: the
    # machine's speed moves between phases (the same loop took 2 us per
    # launch in one run and 7 us in the next), and a ratio of two runs of
    # one phase is what compares the code. The warm-up: the first launch
    # builds the work-group function.
    pairs = [
        ("xgpu", "raw"),
        ("xgpu unchecked", "raw unchecked"),
        ("xgpu --timeout 60", "raw"),
        ("xgpu", "high-level"),
        ("xgpu per launch", "raw per launch"),
    ]
    times = paired(sides, pairs, args.runs, warmup=1)

    def row(name: str, pair: tuple[str, str], target: Target | None = TARGET) -> Row:
        xs, bs = times[pair]
        return Row(name, median(bs) / n, median(xs) / n, target, paired=paired_ratio(xs, bs))

    threads = os.environ.get("POCL_MAX_PTHREAD_COUNT", "PoCL's default")
    print(f"device: {checked.gpu_runtime().dctx.description} (PoCL worker threads: {threads})")
    print_rows(
        "Launches (bench/launch.py)",
        f"{n} chained async launches per run, time per launch (copy in, launches, blocking copy "
        f"out), medians of {args.runs} runs; ratio: the median of the ratios of {args.runs} "
        "pairs of runs made back to back; baseline: raw pyopencl loop, arguments set once, "
        "cl.enqueue_nd_range_kernel",
        [
            row("launch (checked, default)", pairs[0]),
            row("launch (--unchecked)", pairs[1]),
            row("launch (checked, --timeout 60: xgpu-run's default)", pairs[2]),
            row("launch vs pyopencl kernel(...) call (checked)", pairs[3], None),
            row(
                "per-launch path, no repeat (induction variable as a kernel operand, checked)",
                pairs[4],
                None,
            ),
        ],
    )
    fns = {
        "xgpu": xgpu_run,
        "raw": raw_checked,
        "xgpu --timeout 60": timeout_run,
        "xgpu unchecked": unchecked_run,
        "raw unchecked": raw_unchecked,
        "xgpu per launch": per_launch_run,
        "raw per launch": raw_per_launch,
    }
    cpu = {k: median(THREAD[f][1:]) / n for k, f in fns.items()}  # [0]: the warm-up
    print_rows(
        "Launches, host thread (bench/launch.py)",
        "the same runs: CPU time of the launching thread per launch (time.thread_time; PoCL's "
        "worker threads not counted), less sensitive to other processes than the wall time",
        [
            Row("host thread (checked, default)", cpu["raw"], cpu["xgpu"]),
            Row("host thread (--unchecked)", cpu["raw unchecked"], cpu["xgpu unchecked"]),
            Row("host thread (checked, --timeout 60)", cpu["raw"], cpu["xgpu --timeout 60"]),
            Row(
                "host thread, per-launch path (no repeat, checked)",
                cpu["raw per launch"],
                cpu["xgpu per launch"],
            ),
        ],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
