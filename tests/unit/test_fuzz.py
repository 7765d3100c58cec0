"""Fuzzing xgpu-opt: mutated GPU programs get a diagnostic or valid output,
never a Python traceback (nor an "internal error" diagnostic, which is how the
driver reports one)."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xgpu.tools.xgpu_opt import XGpuOptMain, split_chunks

CORPUS_DIRS = [
    Path(__file__).parents[1] / "filecheck",
    Path(__file__).parents[2] / "examples",
]


def _corpus() -> list[str]:
    """Every chunk of every .mlir test and example (valid and invalid ones)."""
    chunks: list[str] = []
    for d in CORPUS_DIRS:
        for f in sorted(d.rglob("*.mlir")):
            text = f.read_text()
            for chunk, _ in split_chunks(text, True):
                body = "\n".join(
                    line for line in chunk.splitlines() if not line.lstrip().startswith("//")
                )
                if body.strip():
                    chunks.append(body)
    return chunks


CORPUS = _corpus()
TYPES = ["index", "i32", "i64", "f32", "!gpu.async.token", "memref<?xf32>", "memref<4xf32>", "i1"]
# Inserted at random places: unbalanced brackets, unterminated strings, stray sigils.
PUNCTUATION = [
    '"',
    "%",
    "@",
    "^",
    "#gpu<",
    "!gpu.",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "<",
    ">",
    ",",
    ":",
]
_TOKEN = re.compile(r"%[A-Za-z0-9_]+")


def _mutate(data: st.DataObject, text: str) -> str:
    lines = text.splitlines()
    kind = data.draw(
        st.sampled_from(
            [
                "drop_token",
                "dup_token",
                "swap_type",
                "delete_line",
                "truncate_line",
                "truncate_file",
                "swap_lines",
                "insert_token",
                "delete_span",
            ]
        )
    )
    if not lines:
        return text
    i = data.draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    if kind in ("drop_token", "dup_token"):
        toks = list(_TOKEN.finditer(line))
        if toks:
            m = toks[data.draw(st.integers(0, len(toks) - 1))]
            rep = "" if kind == "drop_token" else f"{m.group(0)}, {m.group(0)}"
            lines[i] = line[: m.start()] + rep + line[m.end() :]
    elif kind == "swap_type":
        found = [t for t in TYPES if t in line]
        if found:
            old = data.draw(st.sampled_from(found))
            lines[i] = line.replace(old, data.draw(st.sampled_from(TYPES)), 1)
    elif kind == "delete_line":
        del lines[i]
    elif kind == "truncate_line":
        lines[i] = line[: data.draw(st.integers(0, len(line)))]
    elif kind == "truncate_file":
        return text[: data.draw(st.integers(0, len(text)))]
    elif kind == "insert_token":
        at = data.draw(st.integers(0, len(text)))
        return text[:at] + data.draw(st.sampled_from(PUNCTUATION)) + text[at:]
    elif kind == "delete_span":
        at = data.draw(st.integers(0, len(text)))
        return text[:at] + text[at + data.draw(st.integers(1, 8)) :]
    elif kind == "swap_lines":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _too_slow(signum, frame):
    raise TimeoutError("xgpu-opt took more than 20 s on one chunk")


@pytest.fixture(scope="module")
def driver() -> XGpuOptMain:
    return XGpuOptMain(args=[])


@pytest.mark.skipif(not CORPUS, reason="no corpus")
@settings(
    max_examples=int(os.environ.get("XGPU_FUZZ_EXAMPLES", "1000")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(st.data())
def test_mutated_programs_never_crash(driver: XGpuOptMain, data: st.DataObject):
    text = data.draw(st.sampled_from(CORPUS))
    for _ in range(data.draw(st.integers(1, 3))):
        text = _mutate(data, text)
    driver.ctx.allow_unregistered = True
    # A hang is a failure too (xDSL's lexer once backtracked exponentially).
    old = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(20)
    try:
        result = driver.process_chunk(text, "fuzz.mlir", 0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    for diag in result.diagnostics:
        assert "internal error" not in diag.message, (text, diag.message)
        assert "verifier failed unexpectedly" not in diag.message, (text, diag.message)
    if result.output is not None:
        # valid output must itself be accepted
        again = driver.process_chunk(result.output, "again.mlir", 0)
        assert again.output is not None, (result.output, again.diagnostics)
