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


# --------------------------------------------------------------------------- #
# Hostile inputs: the whole driver, with its flags                            #
# --------------------------------------------------------------------------- #


def _hostile_fragment(data: st.DataObject) -> str:
    """Text that has broken xDSL-based tools: huge numbers, deep nesting, odd
    locations, NUL and non-UTF-8 bytes, long strings, -verify-diagnostics
    annotations with arbitrary regexes."""
    digits = data.draw(st.text("0123456789", min_size=1, max_size=40))
    depth = data.draw(st.integers(1, 3000))
    kind = data.draw(
        st.sampled_from(
            [
                "number",
                "memref",
                "vector",
                "int_type",
                "nesting",
                "loc",
                "raw",
                "string",
                "annotation",
                "splat",
            ]
        )
    )
    if kind == "number":
        return data.draw(st.sampled_from(["", "-", "0x"])) + digits
    if kind == "memref":
        return f"memref<{digits}x{data.draw(st.sampled_from(TYPES))}>"
    if kind == "vector":
        return f"vector<{digits}x{data.draw(st.sampled_from(['0', '1', '?', '[4]']))}xf32>"
    if kind == "int_type":
        return f"i{digits}"
    if kind == "nesting":
        opener, closer = data.draw(
            st.sampled_from(
                [("[", "]"), ("(", ")"), ("{", "}"), ("tuple<", ">"), ("fused[", "]"), ("(", "")]
            )
        )
        return opener * depth + "i32" + closer * data.draw(st.integers(0, depth))
    if kind == "loc":
        line = data.draw(st.sampled_from([digits, "-1", "0", "4294967296"]))
        inner = data.draw(
            st.sampled_from(['"f":{0}:{0}', 'callsite("a" at "f":{0}:1)', '"n"("f":1:{0})'])
        )
        return "loc(" + inner.format(line) + ")"
    if kind == "raw":
        chars = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=["Cs"])
        return data.draw(st.text(chars, max_size=12)) + data.draw(
            st.sampled_from(["\x00", "\udcff", "\ufffd"])
        )
    if kind == "string":
        return (
            '"'
            + "x" * data.draw(st.integers(0, 200000))
            + data.draw(st.sampled_from(['"', "\\", "\\q", ""]))
        )
    if kind == "splat":
        value = data.draw(st.sampled_from(["1.0", "7", "true", '"0x00"']))
        return f"dense<{value}> : tensor<{digits}xf32>"
    regex = data.draw(st.text("()[]{}|*+?.^$\\:ab0129-,=", max_size=16))
    severity = data.draw(st.sampled_from(["error", "note", "warning", "remark"]))
    where = data.draw(
        st.sampled_from(["", "@+1 ", "@-1 ", "@above ", "@below ", "@unknown ", f"@+{digits} "])
    )
    return f"\n// expected-{severity}-re {where}{{{{{regex} {{{{{regex}}}}}}}}}\n"


FLAG_SETS = [
    [],
    ["--print-op-generic"],
    ["-p", "canonicalize"],
    ["--verify-diagnostics"],
    ["--split-input-file", "--verify-diagnostics"],
    ["--split-input-file", "-p", "canonicalize", "--print-op-generic"],
]


@pytest.mark.skipif(not CORPUS, reason="no corpus")
@settings(
    max_examples=int(os.environ.get("XGPU_FUZZ_HOSTILE_EXAMPLES", "500")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_hostile_inputs_get_diagnostics(tmp_path_factory, capfd, data: st.DataObject):
    text = data.draw(st.sampled_from(CORPUS))
    for _ in range(data.draw(st.integers(1, 2))):
        at = data.draw(st.integers(0, len(text)))
        end = at + data.draw(st.integers(0, 12))
        text = text[:at] + _hostile_fragment(data) + text[end:]
    flags = data.draw(st.sampled_from(FLAG_SETS))
    path = tmp_path_factory.mktemp("hostile") / "hostile.mlir"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(20)
    try:
        XGpuOptMain(args=[str(path), "-o", os.devnull, *flags]).run()
        rc = 0
    except SystemExit as exc:
        rc = exc.code if isinstance(exc.code, int) else 1
    finally:
        signal.alarm(0)
    err = capfd.readouterr().err
    assert rc in (0, 1), (text, flags, err)
    for bad in ("Traceback", "internal error", "verifier failed unexpectedly"):
        assert bad not in err, (text, flags, err)


def _regex_strategy() -> st.SearchStrategy[str]:
    """Patterns that llvm::Regex and Python's re read alike (and that match
    the same texts): literals, `.`, classes, groups, alternation and the
    repetitions of ERE."""
    atom = st.sampled_from(["a", "b", ".", "[ab]", "[^a]", "[[:alpha:]]"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        group = inner.map(lambda p: f"({p})")
        repeated = st.tuples(
            st.one_of(atom, group), st.sampled_from(["", "*", "+", "?", "{1,2}", "{2}"])
        )
        piece = repeated.map("".join)
        concat = st.lists(piece, min_size=1, max_size=3).map("".join)
        return st.lists(concat, min_size=1, max_size=2).map("|".join)

    return st.recursive(atom, extend, max_leaves=6)


@settings(max_examples=int(os.environ.get("XGPU_FUZZ_REGEX_EXAMPLES", "500")), deadline=None)
@given(_regex_strategy(), st.lists(st.text("abc", max_size=8), min_size=1, max_size=4))
def test_posix_regex_agrees_with_python_on_common_syntax(pattern, texts):
    from xgpu.tools.posix_regex import compile_pattern

    regex = compile_pattern(pattern)
    python = re.compile(pattern.replace("[[:alpha:]]", "[A-Za-z]"))
    for text in texts:
        assert regex.search(text) == (python.search(text) is not None), (pattern, text)


@settings(max_examples=int(os.environ.get("XGPU_FUZZ_REGEX_EXAMPLES", "500")), deadline=None)
@given(st.text("()[]{}|*+?.^$\\:,=-ab019", max_size=24), st.text("ab(){}", max_size=200))
def test_posix_regex_never_raises_but_regex_errors(pattern, text):
    from xgpu.tools.posix_regex import RegexError, compile_pattern

    try:
        regex = compile_pattern(pattern)
    except RegexError:
        return
    regex.search(text)
