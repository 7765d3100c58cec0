"""Parse + verify + print speed of xgpu-opt, against mlir-opt 22 on the same files
in the same run.

    python bench/parse.py [--sizes 1000,2000,10000] [--runs 3] [--quick] [--tiny]

Times `xgpu-opt F` and `mlir-opt F` (whole process, output discarded, best of
--repeat) on the async host programs of `bench/programs.py`, and prints each
time, the ratio, and how time grows with N.
"""

from __future__ import annotations

import argparse
import sys

from common import Target
from programs import compare


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,10000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="sizes 1000,10000, one run")
    ap.add_argument("--tiny", action="store_true", help="sizes 10,100, one run")
    args = ap.parse_args()
    if args.quick:
        args.sizes, args.runs = "1000,10000", 1
    if args.tiny:
        args.sizes, args.runs = "10,100", 1
    sizes = [int(s) for s in args.sizes.split(",")]
    return compare(
        "Parse + verify + print (bench/parse.py)",
        sizes,
        args.runs,
        [],
        [],
        Target(at_most=10),
        passes="",
    )


if __name__ == "__main__":
    sys.exit(main())
