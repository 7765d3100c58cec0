"""Shared helpers for xgpu's unit tests."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from xgpu.tools.xgpu_opt import XGpuOptMain


@dataclass
class OptResult:
    rc: int
    out: str
    err: str


@pytest.fixture
def xgpu_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Run xgpu-opt in-process on `text` with `args`; return rc, stdout, stderr."""

    def run(text: str, *args: str, name: str = "input.mlir") -> OptResult:
        path = tmp_path / name
        path.write_text(text)
        capsys.readouterr()
        try:
            XGpuOptMain(args=[str(path), *args]).run()
            rc = 0
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        return OptResult(rc, captured.out, captured.err.replace(str(tmp_path) + "/", ""))

    return run


sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
# The tests' helper modules (`devices`, `async_programs`, ...) import by name.
sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis keeps no example database, and its other caches (the constants
# it collects from the code) go under ~/.cache, not into .hypothesis/ in the
# working tree; the tests' budgets are their own `settings`.
import os  # noqa: E402

os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY",
    os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "xgpu",
        "hypothesis",
    ),
)
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("xgpu", database=None)
_hypothesis_settings.load_profile("xgpu")
