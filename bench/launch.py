"""Per-launch cost of xgpu-run's compiled host code against raw pyopencl.

    python bench/launch.py [--launches 10000] [--repeat 5] [--check]

Both sides run in this process, on the same OpenCL device, with the same
kernel (the OpenCL C xgpu emits for a trivial `x[i] += 1` gpu.func over 64
work-items) and an out-of-order queue:

- xgpu: a host `scf.for` issuing N `gpu.launch_func async` launches, each
  depending on the previous one's token, then a blocking `gpu.wait`; the host
  function is compiled once by xgpu-run's host compiler and called with N;
- raw: a Python loop of `knl(queue, gsize, lsize, *args, wait_for=[event])`
  with `set_scalar_arg_dtypes` (typed scalar arguments: the memref's buffer,
  offset, size and stride, and n), each launch waiting for the previous one's
  event, then `event.wait()`.

The xgpu side runs as xgpu-run does by default (bounds-checked kernels: the
kernel takes its buffer's extent, the run's error record and a launch id; the
launcher checks the launch sizes and lists the launch), and once more with
`checked=False` (`--unchecked`); the raw side launches the same (checked)
kernel of the same program.

Reported: microseconds per launch (best of --repeat, the final wait included)
and the ratio xgpu / raw. Target (OpenCL backend issue): at most 4x.
`--check` exits 1 when the ratio is above the target.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

TARGET = 4.0

PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @bench {
    gpu.func @inc(%x: memref<?xf32>, %n: index) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %v = memref.load %x[%i] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @launches(%host: memref<?xf32>, %count: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%c64) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %t3 = scf.for %i = %c0 to %count step %c1 iter_args(%t = %t2) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @bench::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%dev : memref<?xf32>, %c64 : index)
      scf.yield %tn : !gpu.async.token
    }
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
"""


def xgpu_side(device: str | None, checked: bool = True):
    from xgpu.runtime.api import Runner, RunOptions, load

    module, sources = load(PROGRAM, "bench/launch.py")
    runner = Runner(module, sources, RunOptions(device=device, checked=checked))
    host = np.zeros(64, dtype=np.float32)

    def run(n: int) -> float:
        host[:] = 0
        start = time.perf_counter()
        runner.call("launches", [host, n])
        elapsed = time.perf_counter() - start
        assert host[0] == n, (host[0], n)
        return elapsed

    return runner, run


def raw_side(runner):
    import pyopencl as cl

    gpu = runner.gpu_runtime()
    ctx = gpu.context
    gpu_module = next(op for op in runner.module.walk() if op.name == "gpu.module")
    # The program xgpu built for the run (same source, same build), a kernel
    # object of its own.
    program, built = runner.kernel_cache().program(gpu_module)
    abi = program.kernels["inc"]
    knl = cl.Kernel(built, abi.cl_name)
    knl.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
    queue = cl.CommandQueue(
        ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE
    )
    host = np.zeros(64, dtype=np.float32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    # The values the emitter's ABI asks for, in order: buffer, offset, size,
    # stride and extent of the memref, n, the error record and a launch id.
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

    def run(n: int) -> float:
        host[:] = 0
        start = time.perf_counter()
        event = cl.enqueue_copy(queue, buf, host, is_blocking=False)
        for _ in range(n):
            event = knl(queue, (64,), (64,), *args, wait_for=[event])
        cl.enqueue_copy(queue, host, buf, wait_for=[event], is_blocking=True)
        elapsed = time.perf_counter() - start
        assert host[0] == n, (host[0], n)
        return elapsed

    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--device", default=None)
    ap.add_argument("--check", action="store_true", help=f"exit 1 above {TARGET}x")
    args = ap.parse_args()
    try:
        runner, xgpu_run = xgpu_side(args.device)
        _, unchecked_run = xgpu_side(args.device, checked=False)
        raw_run = raw_side(runner)
    except Exception as err:  # no device, no emitter: say so, do not fail `make bench`
        print(f"bench/launch.py: skipped: {type(err).__name__}: {err}")
        return 0
    n = args.launches
    xgpu_run(100)  # warm-up: first launch builds the work-group function
    unchecked_run(100)
    raw_run(100)
    xs, us, rs = [], [], []
    for _ in range(args.repeat):
        # Interleaved, so that all sides see the same machine load.
        xs.append(xgpu_run(n))
        us.append(unchecked_run(n))
        rs.append(raw_run(n))
    x_us = min(xs) / n * 1e6
    u_us = min(us) / n * 1e6
    r_us = min(rs) / n * 1e6
    ratio = x_us / r_us
    device = runner.gpu_runtime().dctx.description
    print(f"device: {device}")
    print(f"chained async launches: {n}, best of {args.repeat}")
    print(f"| side | us/launch |\n| --- | ---: |\n| xgpu-run host code | {x_us:.2f} |")
    print(f"| xgpu-run host code, --unchecked | {u_us:.2f} |")
    print(f"| raw pyopencl | {r_us:.2f} |")
    print(f"ratio xgpu / raw: {ratio:.2f}x (target <= {TARGET:g}x)")
    if args.check and ratio > TARGET:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
