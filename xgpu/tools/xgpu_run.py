"""`xgpu-run FILE`: run a host function with its GPU work on an OpenCL device,
or on xgpu's simulator.

    xgpu-run prog.mlir                      # runs @main
    xgpu-run prog.mlir --entry other --device cpu --verbose --trace out.json
    xgpu-run prog.mlir --backend sim --schedule random --seed 3 --detect-races

The entry function takes no arguments (as with mlir-runner), or one `--arg
VALUE` per argument (`--arg 10`, `--arg 'range(10)'`, `--arg '[1, 2, 3]'`,
`--arg 'zeros(4, 4)'`: see xgpu.tools.run_args); a scalar result is printed on
a line of its own, and the final contents of each memref argument as
`arg N = [...]`.

Safe by default: launch sizes are checked against the device's limits, and
kernel memory accesses are bounds-checked on OpenCL (`--unchecked` runs the
kernels without the checks); a blocking point that waits more than
`--timeout SECONDS` (default 60, 0: no limit) for a kernel ends the run
with an error at the kernel's launch: the process exits at once (status 1),
since OpenCL cannot stop a running kernel. See `xgpu.runtime.api` for what programs may
contain, and README.md ("Running programs") for the conventions.

`--trace FILE.json` writes a Chrome/Perfetto trace, on both backends
(`xgpu.runtime.trace`, `xgpu.runtime.sim_trace`). On a terminal, a run that
lasts more than 2 s shows a progress line on stderr (`xgpu.runtime.progress`;
`--quiet` turns it off). Ctrl-C ends the run with status 130 and one line
naming the op that was running (`xgpu.runtime.interrupt`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

#: seconds a blocking point waits for a kernel before the run ends (--timeout)
DEFAULT_TIMEOUT = 60.0


def _arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xgpu-run",
        description="Run a host function of an MLIR program, its GPU work on an OpenCL device.",
    )
    parser.add_argument("input", help="the MLIR file ('-' for stdin)")
    parser.add_argument("--entry", "-e", default="main", help="the function to run (default: main)")
    parser.add_argument(
        "--arg",
        action="append",
        default=[],
        metavar="VALUE",
        help="an argument of the entry function, in order: a number, or for a memref "
        "[1, 2, ...], range(N) or zeros(N, ...)",
    )
    parser.add_argument(
        "--device",
        default=None,
        help="OpenCL device: gpu, cpu, P:D, or part of the device or platform name "
        "(default: $XGPU_DEVICE, else a GPU if there is one, else the CPU)",
    )
    parser.add_argument("--trace", metavar="FILE.json", help="write a Chrome/Perfetto trace")
    parser.add_argument("--verbose", "-v", action="store_true", help="say which device runs")
    parser.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress line (shown on a terminal once a run lasts 2 s)",
    )
    parser.add_argument(
        "--in-order",
        action="store_true",
        help="use an in-order queue (debugging: hides missing dependencies)",
    )
    parser.add_argument(
        "--list-devices", action="store_true", help="list the OpenCL devices and exit"
    )
    parser.add_argument(
        "--backend",
        choices=("opencl", "sim"),
        default="opencl",
        help="run kernels with OpenCL (default) or on the simulator, work-item by work-item",
    )
    parser.add_argument(
        "--schedule",
        choices=("program-order", "random"),
        default="program-order",
        help="simulator: start async GPU ops as issued (default) or in a random order "
        "that respects their dependencies",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="simulator: the seed of --schedule random"
    )
    parser.add_argument(
        "--detect-races",
        action="store_true",
        help="simulator: report data races (host vs GPU, GPU op vs GPU op, work-items "
        "between barriers); --detect-races=all also reports work-items that write the same "
        "value to one element (a uniform write, left out by default)",
    )
    parser.add_argument("--detect-races-all", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--unchecked",
        action="store_true",
        help="OpenCL: run kernels without bounds checks on their memory accesses (faster; "
        "an out-of-bounds access then reads or corrupts other memory)",
    )
    parser.add_argument(
        "--register-host-memory",
        action="store_true",
        help="register each memref argument of the entry function with the device for the "
        "run, as gpu.host_register would (host memory that kernels and copies may then use)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"end the run with an error when the host waits more than SECONDS for a kernel "
        f"(default {DEFAULT_TIMEOUT:g}; 0: no limit)",
    )
    parser.add_argument(
        "--subgroup-size",
        type=int,
        default=None,
        metavar="N",
        help="subgroup size (simulator: default 32; OpenCL devices without cl_khr_subgroups: "
        "emulated subgroups of N lanes, default one subgroup per workgroup)",
    )
    parser.add_argument(
        "--reduction",
        choices=("fold", "tree"),
        default=None,
        help="how gpu.all_reduce and gpu.subgroup_reduce combine: one lane folds left to "
        "right, or a tree of halving steps (default: $XGPU_REDUCTION, else fold on the "
        "simulator and CPU devices, tree on other devices)",
    )
    return parser


def _list_devices() -> int:
    from xgpu.runtime.opencl_device import available_devices, describe

    devices = available_devices()
    if not devices:
        print("no OpenCL device")
        return 1
    for p, d, device in devices:
        print(f"{p}:{d} {describe(device)}")
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if "--list-devices" in argv:
        sys.exit(_list_devices())
    parser = _arg_parser()
    # `--detect-races=all` (a bare --detect-races takes no value: the input
    # file after it stays the input).
    argv = [
        a2
        for a in argv
        for a2 in (["--detect-races", "--detect-races-all"] if a == "--detect-races=all" else [a])
    ]
    bad = [a for a in argv if a.startswith("--detect-races=")]
    if bad:
        parser.error(f"{bad[0]}: the only value of --detect-races is 'all'")
    args = parser.parse_args(argv)
    if args.detect_races_all:
        args.detect_races = "all"
    if args.backend != "sim":
        for flag, value in (
            ("--schedule", args.schedule != "program-order"),
            ("--seed", args.seed is not None),
            ("--detect-races", args.detect_races),
        ):
            if value:
                parser.error(f"{flag} needs --backend sim")
    elif args.seed is not None and args.schedule != "random":
        parser.error("--seed needs --schedule random")
    if args.subgroup_size is not None and args.subgroup_size < 1:
        parser.error("--subgroup-size must be positive")
    if not args.timeout >= 0 or args.timeout == float("inf"):
        parser.error("--timeout must be a number of seconds (0: no limit)")
    if args.unchecked and args.backend == "sim":
        parser.error("--unchecked needs --backend opencl (the simulator checks every access)")
    try:
        status = run_file(args)
    except KeyboardInterrupt:  # before or after the run (printing the results)
        print("xgpu-run: interrupted", file=sys.stderr)
        status = 130
    sys.exit(status)


def run_file(args: argparse.Namespace) -> int:
    from xgpu.runtime.api import RunError, Runner, RunOptions, load

    name = args.input
    try:
        if name == "-":
            text = sys.stdin.read()
            name = "<stdin>"
        else:
            with open(name, encoding="utf-8", errors="replace") as f:
                text = f.read()
    except OSError as err:
        print(f"xgpu-run: error: could not open input file: {err}", file=sys.stderr)
        return 1
    try:
        module, sources = load(text, name)
        options = RunOptions(
            device=args.device,
            trace=args.trace,
            verbose=args.verbose,
            in_order=True if args.in_order else None,
            backend=getattr(args, "backend", "opencl"),
            schedule=getattr(args, "schedule", "program-order"),
            seed=getattr(args, "seed", None),
            detect_races=getattr(args, "detect_races", False),
            subgroup_size=getattr(args, "subgroup_size", None),
            checked=not getattr(args, "unchecked", False),
            timeout=getattr(args, "timeout", DEFAULT_TIMEOUT) or None,
            reduction=getattr(args, "reduction", None),
            register_host_memory=getattr(args, "register_host_memory", False),
            progress=not getattr(args, "quiet", False),
            interruptible=True,
        )
        runner = Runner(module, sources, options)
        func = runner.program.func_ops.get(args.entry)
        values: list = []
        if func is not None and (func.function_type.inputs.data or args.arg):
            from xgpu.tools.run_args import ArgError, parse_args

            try:
                values = parse_args(args.arg, func.function_type.inputs.data, args.entry)
            except ArgError as err:
                print(f"xgpu-run: error: {err}", file=sys.stderr)
                return 1
        result = runner.call(args.entry, values)
    except RunError as err:
        sys.stdout.flush()
        if err.diagnostic.location is None and not err.diagnostic.notes and not err.more:
            print(f"xgpu-run: error: {err.diagnostic.message}", file=sys.stderr)
        else:
            print(err.format(), file=sys.stderr)
        if err.fatal:
            # A kernel still runs and cannot be stopped: the OpenCL driver
            # would wait for it at exit. End the process now.
            import os

            sys.stderr.flush()
            os._exit(1)
        return 1
    except KeyboardInterrupt as err:
        # Ctrl-C: what was running (`xgpu.runtime.interrupt`), no traceback.
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        running = getattr(err, "xgpu_running", None)
        where = f" while running {running}" if running else ""
        print(f"xgpu-run: interrupted{where}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`xgpu-run F | head`): stop quietly.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if result is not None:
        for value in result if isinstance(result, tuple) else (result,):
            print(value)
    if values:
        import numpy as np

        from xgpu.tools.run_args import format_array

        for i, value in enumerate(values):
            if isinstance(value, np.ndarray):
                print(f"arg {i} = {format_array(value)}")
    sys.stdout.flush()
    return 0


def cli() -> None:
    """The `xgpu-run` command (`python -m xgpu.tools.xgpu_run` too): `main()`,
    then the process ends at once, without Python's and the OpenCL driver's
    clean-up (`xgpu.tools.process_exit`): the results are printed, a trace is
    written and closed, and the device's work is finished by then."""
    from xgpu.tools.process_exit import run_then_exit

    run_then_exit(main)


if __name__ == "__main__":
    cli()
