"""`xgpu-run FILE`: run a host function with its GPU work on an OpenCL device.

    xgpu-run prog.mlir                      # runs @main
    xgpu-run prog.mlir --entry other --device cpu --verbose --trace out.json

The entry function takes no arguments (as with mlir-runner); a scalar result
is printed on a line of its own. See `xgpu.runtime.api` for what programs may
contain, and README.md ("Running programs") for the conventions.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def _arg_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xgpu-run",
        description="Run a host function of an MLIR program, its GPU work on an OpenCL device.",
    )
    parser.add_argument("input", help="the MLIR file ('-' for stdin)")
    parser.add_argument("--entry", "-e", default="main", help="the function to run (default: main)")
    parser.add_argument(
        "--device",
        default=None,
        help="OpenCL device: gpu, cpu, P:D, or part of the device or platform name "
        "(default: $XGPU_DEVICE, else a GPU if there is one, else the CPU)",
    )
    parser.add_argument("--trace", metavar="FILE.json", help="write a Chrome/Perfetto trace")
    parser.add_argument("--verbose", "-v", action="store_true", help="say which device runs")
    parser.add_argument(
        "--in-order",
        action="store_true",
        help="use an in-order queue (debugging: hides missing dependencies)",
    )
    parser.add_argument(
        "--list-devices", action="store_true", help="list the OpenCL devices and exit"
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
    args = _arg_parser().parse_args(argv)
    sys.exit(run_file(args))


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
        )
        runner = Runner(module, sources, options)
        func = runner.program.func_ops.get(args.entry)
        if func is not None and func.function_type.inputs.data:
            print(
                f"xgpu-run: error: @{args.entry} takes arguments; xgpu-run runs functions "
                "without arguments (use xgpu.run from Python to pass some)",
                file=sys.stderr,
            )
            return 1
        result = runner.call(args.entry, [])
    except RunError as err:
        sys.stdout.flush()
        if err.diagnostic.location is None and not err.diagnostic.notes:
            print(f"xgpu-run: error: {err.diagnostic.message}", file=sys.stderr)
        else:
            print(err.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 1
    except BrokenPipeError:
        # The reader went away (`xgpu-run F | head`): stop quietly.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    if result is not None:
        for value in result if isinstance(result, tuple) else (result,):
            print(value)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    main()
