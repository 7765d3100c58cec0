"""What every bench script shares: interleaved measurements, medians and the
row format

    name | baseline | xgpu | ratio | target | met

Each figure is measured against a baseline measured in the same run: the
sides take turns (the first of each turn rotating), so that all see the same
machine load, and the figure is the median of each side's runs (noise from
other processes moves a median less than a mean, and the best time of a
side flatters whichever side had a lucky run).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def interleaved(
    sides: dict[str, Callable[[], float | None]], runs: int, warmup: int = 0
) -> dict[str, list[float]]:
    """`runs` measurements of each side, taking turns (rotating which goes
    first), after `warmup` untimed calls of each. A side returns the time it
    measured itself (seconds), or None to be timed around the call."""
    order = list(sides)
    for _ in range(warmup):
        for fn in sides.values():
            fn()
    times: dict[str, list[float]] = {k: [] for k in order}
    for i in range(runs):
        shift = i % len(order)
        for k in order[shift:] + order[:shift]:
            start = time.perf_counter()
            measured = sides[k]()
            times[k].append(time.perf_counter() - start if measured is None else measured)
    return times


def paired(
    sides: dict[str, Callable[[], float | None]],
    pairs: Sequence[tuple[str, str]],
    runs: int,
    warmup: int = 0,
) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    """`runs` rounds of the `pairs` of sides (xgpu, baseline), each pair run
    back to back (which of the two goes first alternating from round to
    round, the order of the pairs rotating), after `warmup` untimed calls of
    every side: per pair, the times of its two sides, round by round (a side
    in two pairs runs once for each)."""
    for _ in range(warmup):
        for fn in sides.values():
            fn()

    def timed(k: str) -> float:
        start = time.perf_counter()
        measured = sides[k]()
        return time.perf_counter() - start if measured is None else measured

    out: dict[tuple[str, str], tuple[list[float], list[float]]] = {p: ([], []) for p in pairs}
    order = list(pairs)
    for i in range(runs):
        shift = i % len(order)
        for pair in order[shift:] + order[:shift]:
            a, b = pair
            if i % 2:
                tb = timed(b)
                ta = timed(a)
            else:
                ta = timed(a)
                tb = timed(b)
            out[pair][0].append(ta)
            out[pair][1].append(tb)
    return out


def paired_ratio(xs: Sequence[float], bs: Sequence[float]) -> float:
    """The median of the round-by-round ratios xgpu / baseline."""
    return statistics.median(x / b for x, b in zip(xs, bs, strict=True))


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def env_with_root() -> dict[str, str]:
    """The environment for child processes: this checkout first on
    PYTHONPATH (so `python -m xgpu...` runs the code being measured)."""
    env = dict(os.environ)
    parts = [str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(parts))
    return env


def process_timer(cmd: Sequence[str], **kw) -> Callable[[], float]:
    """A side that runs `cmd` (output discarded) and returns its wall time;
    a failing command raises CalledProcessError."""
    env = kw.pop("env", None) or env_with_root()

    def run() -> float:
        start = time.perf_counter()
        subprocess.run(list(cmd), stdout=subprocess.DEVNULL, check=True, env=env, **kw)
        return time.perf_counter() - start

    return run


def python_module(module: str, *args: str) -> list[str]:
    """`python -m module args`: the console scripts as modules, so that
    PYTHONPATH picks the checkout (`xgpu-opt` is `xgpu.tools.xgpu_opt:cli`)."""
    return [sys.executable, "-m", module, *args]


def fmt_time(seconds: float) -> str:
    if seconds != seconds:  # nan
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.2f} us"


@dataclass
class Row:
    """One figure: `xgpu` against `baseline` (seconds, medians), judged by
    `target` on their ratio (or on `paired`)."""

    name: str
    baseline: float
    xgpu: float
    target: Target | None = None
    #: how to print the times (default: fmt_time)
    unit: Callable[[float], str] = fmt_time
    #: the median of round-by-round ratios of runs made back to back
    #: (`paired`), which is then the row's ratio: where the machine's speed
    #: drifts between phases, it compares runs of the same phase
    paired: float | None = None

    @property
    def ratio(self) -> float:
        if self.paired is not None:
            return self.paired
        return self.xgpu / self.baseline if self.baseline > 0 else float("nan")

    def met(self) -> bool | None:
        return None if self.target is None else self.target.met(self)

    def _ratio_text(self) -> str:
        if self.ratio != self.ratio:
            return "-"
        if self.target is not None and self.target.at_least is not None:
            # a ratio of speeds: say it as the target does
            if self.xgpu <= 0:
                return "xgpu below the clock's resolution"
            return f"{self.ratio:.2f}x (baseline / xgpu {self.baseline / self.xgpu:.0f}x)"
        return f"{self.ratio:.2f}x"

    def cells(self) -> list[str]:
        met = self.met()
        return [
            self.name,
            self.unit(self.baseline),
            self.unit(self.xgpu),
            self._ratio_text(),
            self.target.text if self.target is not None else "(informational)",
            "-" if met is None else ("met" if met else "NOT MET"),
        ]


@dataclass(frozen=True)
class Target:
    """A target on a Row: ratio xgpu / baseline at most `at_most`, or at
    least `at_least` (a ratio of speeds: baseline / xgpu when the baseline is
    the slower side), or xgpu at most baseline + `plus` seconds."""

    at_most: float | None = None
    at_least: float | None = None
    plus: float | None = None

    @property
    def text(self) -> str:
        if self.plus is not None:
            return f"<= baseline + {self.plus:g} s"
        if self.at_least is not None:
            return f"baseline / xgpu >= {self.at_least:g}x"
        return f"<= {self.at_most:g}x"

    def met(self, row: Row) -> bool:
        if row.ratio != row.ratio:
            return False
        if self.plus is not None:
            return row.xgpu <= row.baseline + self.plus
        if self.at_least is not None:
            # xgpu's time below the clock's resolution: faster than any ratio
            return row.xgpu <= 0 or row.baseline / row.xgpu >= self.at_least
        assert self.at_most is not None
        return row.ratio <= self.at_most


HEADER = ["name", "baseline", "xgpu", "ratio", "target", "met"]


def print_rows(title: str, how: str, rows: Sequence[Row], out=None) -> None:
    """The table: a title, how it was measured, then one line per row."""
    out = out or sys.stdout
    print(f"## {title}", file=out)
    print(how, file=out)
    print("| " + " | ".join(HEADER) + " |", file=out)
    print("| --- | ---: | ---: | ---: | --- | --- |", file=out)
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |", file=out)
    out.flush()


def skip(script: str, why: str) -> int:
    """Say why a bench (or a row) did not run; `make bench` goes on."""
    print(f"{script}: skipped: {why}")
    return 0
