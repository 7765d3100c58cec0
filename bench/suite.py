"""The test suite's time: the last measured `make test`.

    python bench/suite.py          # print the last record
    python bench/suite.py --run    # run `make test` now (many minutes), record it

`--run` times `make test` (whole suite: pytest and lit) and writes the wall
time, the exit status and the date to bench/.suite-time.json (not committed);
without it the last record is printed, or that there is none. No baseline:
an informational row.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, env_with_root, fmt_time  # noqa: E402

RECORD = Path(__file__).resolve().parent / ".suite-time.json"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="run `make test` and record its time")
    args = ap.parse_args()
    if args.run:
        start = time.perf_counter()
        proc = subprocess.run(["make", "test"], cwd=ROOT, env=env_with_root())
        record = {
            "seconds": time.perf_counter() - start,
            "returncode": proc.returncode,
            "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        RECORD.write_text(json.dumps(record) + "\n")
    print("## Test suite (bench/suite.py)")
    if not RECORD.exists():
        print("no record: `python bench/suite.py --run` (or `make bench-suite`) runs `make test`")
        return 0
    rec = json.loads(RECORD.read_text())
    status = "passed" if rec["returncode"] == 0 else f"failed (exit {rec['returncode']})"
    print(f"| make test | {fmt_time(rec['seconds'])} | {status} | measured {rec['date']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
