"""The bench scripts keep running: bench/common.py's rows, and bench/sim.py's
cheapest mode (the simulator only, one block: it must keep working while the
simulator changes) prints its table (`--tiny` modes of the other scripts:
`make bench-quick`; bench/kernels.py: test_bench_kernels.py). Nothing here is timed: a row's figures and whether its
target is met are whatever the machine gave."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from common import Row, Target, interleaved  # noqa: E402


def test_rows_and_targets():
    assert Row("a", 2.0, 2.1, Target(at_most=1.1)).cells()[3:] == ["1.05x", "<= 1.1x", "met"]
    assert Row("b", 1.0, 2.0, Target(at_most=1.1)).cells()[-1] == "NOT MET"
    assert Row("c", 10.0, 0.5, Target(at_least=10)).met()
    assert not Row("d", 1.0, 1.6, Target(plus=0.5)).met()
    assert Row("e", 1.0, 3.0).cells()[-2:] == ["(informational)", "-"]


def test_interleaved_takes_turns():
    calls: list[str] = []
    times = interleaved({k: (lambda k=k: calls.append(k) or 1.0) for k in "ab"}, 2, warmup=1)
    assert calls == ["a", "b", "a", "b", "b", "a"]
    assert times == {"a": [1.0, 1.0], "b": [1.0, 1.0]}


def _run(*args: str) -> str:
    proc = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, cwd=BENCH.parent
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def _table(out: str) -> list[str]:
    assert "| name | baseline | xgpu | ratio | target | met |" in out
    return [ln for ln in out.splitlines() if ln.startswith("| ") and "---" not in ln][1:]


def test_sim_script():
    # --quick: one run per side (the medians of three are not what is checked)
    out = _run(
        str(BENCH / "sim.py"), "--tiny", "--quick", "--no-oclgrind", "--only", "matmul_tiled_128"
    )
    rows = _table(out)
    assert [r.split(" | ")[0] for r in rows] == ["| matmul_tiled_128: --detect-races vs plain sim"]
