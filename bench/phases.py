"""Where xgpu-opt's time goes, in-process: parse, verify, pass (with the
verification after it) and print, timed separately (CPU seconds of this
process, so that other load on the machine counts less), on the async host
programs of `bench/programs.py`.

    python bench/phases.py [--sizes 1000,10000] [--pass canonicalize] [--repeat 3]

Start-up (imports, dialect registration) is not included: compare with the
whole-process figures of `bench/compile.py` and `bench/parse.py`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from programs import async_program

from xgpu.ir.parser import LocatingParser
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import XGpuOptMain


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def phases(path: Path, pass_name: str) -> dict[str, float]:
    main = XGpuOptMain(args=[str(path), *(["-p", pass_name] if pass_name else [])])
    text = path.read_text()
    times: dict[str, float] = {}
    times["parse"], module = _timed(
        lambda: LocatingParser(main.ctx, text, str(path)).parse_module(True)
    )
    times["verify"], diag = _timed(lambda: verify_ir(module))  # type: ignore[arg-type]
    if diag is not None:
        raise SystemExit(f"bench: the program does not verify: {diag.message}")
    if pass_name:
        times["pass"], _ = _timed(lambda: main.apply_passes(module))  # type: ignore[arg-type]
    times["print"], _ = _timed(lambda: main._output(module))  # type: ignore[arg-type]
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--pass", dest="pass_name", default="canonicalize")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100000))
    names = ["parse", "verify", *(["pass"] if args.pass_name else []), "print"]
    print(f"in-process CPU seconds, best of {args.repeat}; pass: {args.pass_name or 'none'}")
    print(f"{'launches':>9} " + " ".join(f"{n:>8}" for n in names) + f" {'total':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"launches_{n}.mlir"
            path.write_text(async_program(n))
            best = {name: float("inf") for name in names}
            for _ in range(args.repeat):
                for name, seconds in phases(path, args.pass_name).items():
                    best[name] = min(best[name], seconds)
            cells = " ".join(f"{best[name]:>8.3f}" for name in names)
            print(f"{n:>9} {cells} {sum(best.values()):>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
