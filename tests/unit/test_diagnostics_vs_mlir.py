"""Differential test of diagnostics: for every chunk of every invalid-IR test
file, xgpu-opt's first error has the line and the message (SSA names aside)
that mlir-opt 22 gives. Columns may differ inside attributes, where xDSL's
attribute parsers stop at another token.

mlir-opt runs once per file on all its chunks (`--split-input-file`: each
chunk is read in a context of its own, and its diagnostics carry the line in
the joined input, which gives the chunk and its own line). A chunk with
locations of its own (`loc(`), or that gets no error so, runs alone."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import pytest

from xgpu.tools.mlir_diff import _normalize_names
from xgpu.tools.oracle import find_mlir_opt
from xgpu.tools.xgpu_opt import XGpuOptMain, split_chunks

MLIR_OPT = find_mlir_opt()
pytestmark = pytest.mark.skipif(
    MLIR_OPT is None and os.environ.get("XGPU_REQUIRE_MLIR") != "1",
    reason="mlir-opt (22) not found",
)

FILECHECK = Path(__file__).parents[1] / "filecheck"
_ERROR = re.compile(r"^[^:]*:(\d+):\d+: error: (.*)$")


def _chunks() -> list[tuple[str, int, str, bool]]:
    cases = []
    for path in sorted(FILECHECK.rglob("*invalid*.mlir")):
        text = path.read_text()
        if re.search(r"RUN:.*\s-p\s", text):
            continue  # errors of a pass, not of parsing and verification
        unregistered = "--allow-unregistered-dialect" in text
        for i, (chunk, _) in enumerate(split_chunks(text, True)):
            if chunk.strip():
                cases.append((str(path.relative_to(FILECHECK)), i, chunk, unregistered))
    return cases


CASES = _chunks()


def _first_error(stderr: str) -> tuple[str, str] | None:
    for line in stderr.splitlines():
        if (m := _ERROR.match(line)) is not None:
            return m.group(1), _normalize_names(m.group(2))
    return None


def _mlir_opt_first_error(chunk: str, flags: tuple[str, ...]) -> tuple[str, str] | None:
    ref = subprocess.run([MLIR_OPT, *flags, "-"], input=chunk, capture_output=True, text=True)
    return _first_error(ref.stderr)


_STDIN_ERROR = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")


@functools.cache
def _first_errors_of_file(name: str, unregistered: bool) -> dict[int, tuple[str, str]]:
    """The first error of each chunk of `name`, by chunk index, from one
    mlir-opt run over them all; chunks it cannot tell are left out."""
    flags = ("--allow-unregistered-dialect",) if unregistered else ()
    chunks = [(i, c if c.endswith("\n") else c + "\n") for n, i, c, _ in CASES if n == name]
    starts, line = [], 1  # the first line of each chunk in the joined input
    for _, chunk in chunks:
        starts.append(line)
        line += chunk.count("\n") + 1  # and the `// -----` line after it
    joined = "// -----\n".join(chunk for _, chunk in chunks)
    ref = subprocess.run(
        [MLIR_OPT, *flags, "--split-input-file", "-"], input=joined, capture_output=True, text=True
    )
    found: dict[int, tuple[str, str]] = {}
    for text_line in ref.stderr.splitlines():
        if (m := _STDIN_ERROR.match(text_line)) is None:
            continue
        at = int(m.group(1))
        k = max(j for j, start in enumerate(starts) if start <= at)
        index, chunk = chunks[k]
        if index not in found and "loc(" not in chunk:
            found[index] = str(at - starts[k] + 1), _normalize_names(m.group(2))
    return found


@pytest.fixture(scope="module")
def driver() -> XGpuOptMain:
    return XGpuOptMain(args=[])


@pytest.mark.parametrize(
    ("name", "index", "chunk", "unregistered"), CASES, ids=[f"{c[0]}#{c[1]}" for c in CASES]
)
def test_first_error_matches_mlir_opt(driver, name, index, chunk, unregistered):
    flags = ("--allow-unregistered-dialect",) if unregistered else ()
    expected = _first_errors_of_file(name, unregistered).get(index)
    if expected is None:
        expected = _mlir_opt_first_error(chunk, flags)
    assert expected is not None, f"mlir-opt accepts chunk {index} of {name}"
    driver.ctx.allow_unregistered = unregistered
    result = driver.process_chunk(chunk, "<stdin>", 0)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, f"xgpu accepts chunk {index} of {name}; mlir-opt says {expected}"
    first = errors[0]
    actual = (str(first.location.line) if first.location else "?", _normalize_names(first.message))
    assert actual == expected
