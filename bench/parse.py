"""Parse + verify + print speed of xgpu-opt, against mlir-opt 22 on the same files
in the same run.

    python bench/parse.py [--sizes 1000,2000,10000] [--repeat 3]

Times `xgpu-opt F` and `mlir-opt F` (whole process, output discarded, best of
--repeat) on the async host programs of `bench/programs.py`, and prints each
time, the ratio, and how time grows with N.
"""

from __future__ import annotations

import argparse
import sys

from programs import compare


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,2000,10000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    return compare("parse+verify+print", sizes, args.repeat, [], [])


if __name__ == "__main__":
    sys.exit(main())
