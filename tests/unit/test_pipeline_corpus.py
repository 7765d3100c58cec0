"""What real GPU programs carry: the IR that mlir-opt 22's GPU pipelines make of
linalg-on-memref programs must read and print in xgpu as mlir-opt prints it.

The programs (matmul, elementwise add/mul with linalg.generic, reductions,
broadcast, transpose; 1-d, 2-d and 3-d; static and dynamic shapes) are in
tests/filecheck/with-mlir/inputs/corpus/, each with the tile sizes of its
`// tile-sizes:` line. At test time mlir-opt 22 runs each pipeline below on
each program; xgpu (in this process) parses, verifies and prints every output,
in custom and in generic form, and mlir-opt 22's reprint of each of xgpu's
prints must be mlir-opt 22's own output; mlir-opt 22's generic print of the
output must read back to the same IR too. The failing outputs are listed with
their first error, grouped by cause.

mlir-opt runs once per pipeline and step, on every program of that step at
once (`--split-input-file`: each chunk is read in a context of its own, and
its output is the output of that chunk run alone); a batch that fails runs
again one program at a time, so that each failure keeps its own message.

Skipped without mlir-opt 22, except when XGPU_REQUIRE_MLIR=1.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter, defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest
from xdsl.utils.exceptions import ParseError

from xgpu.ir.mlir_style import mlir_style_text
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.oracle import find_mlir_opt
from xgpu.tools.xgpu_opt import make_context, parse, parse_error_diagnostic

MLIR_OPT = find_mlir_opt()
REQUIRE = os.environ.get("XGPU_REQUIRE_MLIR") == "1"
CORPUS = Path(__file__).parents[1] / "filecheck" / "with-mlir" / "inputs" / "corpus"

TO_LOOPS = ["--convert-linalg-to-parallel-loops"]
TO_GPU = ["--gpu-map-parallel-loops", "--convert-parallel-loops-to-gpu"]
OUTLINE = ["--gpu-kernel-outlining"]


def pipelines(tile_sizes: str) -> dict[str, list[str]]:
    tile = [f"--scf-parallel-loop-tiling=parallel-loop-tile-sizes={tile_sizes}"]
    return {
        "launch": TO_LOOPS + TO_GPU,
        "outlined": TO_LOOPS + TO_GPU + OUTLINE,
        "tiled": TO_LOOPS + tile + TO_GPU + OUTLINE,
        "async": TO_LOOPS + TO_GPU + OUTLINE + ["--gpu-async-region"],
        "canonicalized": TO_LOOPS + TO_GPU + OUTLINE + ["--canonicalize"],
        "tiled-async-canonicalized": TO_LOOPS
        + tile
        + TO_GPU
        + OUTLINE
        + ["--gpu-async-region", "--canonicalize"],
    }


def corpus_cases() -> list[tuple[str, str, list[str]]]:
    cases = []
    for path in sorted(CORPUS.glob("*.mlir")):
        text = path.read_text()
        m = re.search(r"// tile-sizes: ([0-9,]+)", text)
        assert m, f"{path.name} has no `// tile-sizes:` line"
        for name, flags in pipelines(m.group(1)).items():
            cases.append((f"{path.stem}/{name}", text, flags))
    return cases


class MlirOptError(Exception):
    pass


def mlir_opt(text: str, *flags: str) -> str:
    assert MLIR_OPT is not None
    proc = subprocess.run([MLIR_OPT, *flags, "-"], input=text, capture_output=True, text=True)
    if proc.returncode != 0:
        raise MlirOptError(first_error(proc.stderr))
    return proc.stdout


SPLIT = "// -----\n"


def mlir_opt_many(texts: list[str], flags: tuple[str, ...]) -> list[str | MlirOptError]:
    """mlir-opt's output (or error) for each text: one process for them all."""
    assert MLIR_OPT is not None
    if len(texts) > 1 and not any("// -----" in t for t in texts):
        proc = subprocess.run(
            [MLIR_OPT, *flags, "--split-input-file", "-"],
            input=SPLIT.join(t if t.endswith("\n") else t + "\n" for t in texts),
            capture_output=True,
            text=True,
        )
        outputs = proc.stdout.split(SPLIT)
        if proc.returncode == 0 and len(outputs) == len(texts):
            return list(outputs)
    results: list[str | MlirOptError] = []
    for text in texts:
        try:
            results.append(mlir_opt(text, *flags))
        except MlirOptError as err:
            results.append(err)
    return results


def _output(out: str | MlirOptError) -> str:
    if isinstance(out, MlirOptError):
        raise out
    return out


def first_error(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower():
            return line
    return lines[0] if lines else "(no message)"


def _line(text: str, diag) -> str:
    """The source line a diagnostic points at, shortened."""
    if diag.location is None:
        return ""
    line = text.splitlines()[diag.location.line - 1].strip()
    return line if len(line) <= 80 else line[:77] + "..."


def _first_difference(want: str, got: str) -> str:
    for i, (a, b) in enumerate(zip(want.splitlines(), got.splitlines(), strict=False), 1):
        if a != b:
            return f"line {i}: mlir-opt prints `{a.strip()}`, xgpu's IR reprints as `{b.strip()}`"
    return "the outputs differ in length"


def _read(text: str, what: str):
    """(module, None) if xgpu parses and verifies `text`, else (None, problem)."""
    ctx = make_context()
    try:
        module = parse(text, "<mlir-opt output>", ctx)
    except ParseError as err:
        diag = parse_error_diagnostic(err, 0, ctx)
        return None, f"xgpu cannot parse {what}: {diag.message} (at `{_line(text, diag)}`)"
    except Exception as err:
        return None, f"xgpu cannot parse {what}: {str(err).strip() or type(err).__name__}"
    if (diag := verify_ir(module)) is not None:
        return None, f"xgpu's verifier rejects {what}: {diag.message}"
    return module, None


#: What a step asks mlir-opt for: (text, flags) pairs; it is sent their outputs.
Requests = list[tuple[str, tuple[str, ...]]]
Step = Generator[Requests, list["str | MlirOptError"], object]

GENERIC = ("--mlir-print-op-generic",)


def round_trip_problem(ref: str) -> Step:
    """None if xgpu reads `ref` (mlir-opt 22's output), and mlir-opt's generic
    print of it, and prints it back to the same IR in custom and generic form;
    else the first problem. A generator: it yields the mlir-opt runs it needs
    (see `run_steps`)."""
    module, problem = _read(ref, "it")
    if module is None:
        return problem
    # `xgpu-opt --mlir-style` prints mlir-opt's text byte for byte.
    styled = mlir_style_text(make_context(), module, generic=False, debuginfo=False)
    if styled != ref:
        return f"--mlir-style text differs: {_first_difference(ref, styled)}"
    prints = []
    for form, generic in (("custom", False), ("generic", True)):
        try:
            prints.append((form, print_mlir(module, generic)))
        except Exception as err:
            return f"xgpu cannot print it ({form} form): {type(err).__name__}: {err}"
    outs = yield [(text, ()) for _, text in prints] + [(ref, ()), (ref, GENERIC)]
    for (form, _), again in zip(prints, outs):
        if isinstance(again, MlirOptError):
            return f"mlir-opt 22 rejects xgpu's {form} print: {again}"
        if again != ref and again != _output(outs[2]):
            return f"{form} form differs: {_first_difference(ref, again)}"
    module, problem = _read(_output(outs[3]), "its generic form")
    if module is None:
        return problem
    (again,) = yield [(print_mlir(module), ())]
    if _output(again) != ref:
        return f"its generic form reads differently: {_first_difference(ref, again)}"
    return None


def case_problem(text: str, flags: list[str]) -> Step:
    """The pipeline on `text`, then `round_trip_problem` of its output:
    (whether the output has a GPU launch, the problem or None)."""
    (ref,) = yield [(text, tuple(flags))]
    if isinstance(ref, MlirOptError):
        return False, f"mlir-opt 22 fails the pipeline (fix the corpus): {ref}"
    problem = yield from round_trip_problem(ref)
    return "gpu.launch" in ref, problem


def run_steps(steps: list[Step]) -> list[object]:
    """Runs the generators side by side: at each round, the mlir-opt runs all
    of them ask for, one process per set of flags (`mlir_opt_many`)."""
    results: list[object] = [None] * len(steps)
    sending: dict[int, list | None] = dict.fromkeys(range(len(steps)))
    while sending:
        asked: dict[int, Requests] = {}
        for i, value in sending.items():
            try:
                asked[i] = steps[i].send(value)  # type: ignore[arg-type]
            except StopIteration as stop:
                results[i] = stop.value
        by_flags: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for requests in asked.values():
            for text, flags in requests:
                if text not in by_flags[flags]:
                    by_flags[flags].append(text)
        outputs = {}
        for flags, texts in by_flags.items():
            outputs.update({(t, flags): out for t, out in zip(texts, mlir_opt_many(texts, flags))})
        sending = {i: [outputs[r] for r in requests] for i, requests in asked.items()}
    return results


def _cause(problem: str) -> str:
    """The problem without the places and names that vary between outputs."""
    cause = re.sub(r" \(at `.*`\)$", "", problem)
    cause = re.sub(r"line \d+: ", "", cause)
    return re.sub(r"%[\w#]+|@\w+|\^\w+", "_", cause)[:160]


@pytest.mark.skipif(
    MLIR_OPT is None and not REQUIRE,
    reason="mlir-opt 22 not found (install mlir-22-tools or set XGPU_MLIR_OPT)",
)
def test_pipeline_outputs_read_and_print_as_mlir_opt_22():
    assert MLIR_OPT is not None, "XGPU_REQUIRE_MLIR=1 but mlir-opt (22) not found"
    cases = corpus_cases()
    failures: list[tuple[str, str]] = []
    launches = 0
    results = run_steps([case_problem(text, flags) for _, text, flags in cases])
    for (name, _, _), (launch, problem) in zip(cases, results):  # type: ignore[misc]
        launches += launch
        if problem is not None:
            failures.append((name, problem))
    # The corpus is what it claims: about fifty outputs, most with GPU launches.
    assert len(cases) >= 50
    assert launches >= 40
    causes = Counter(_cause(problem) for _, problem in failures)
    report = "\n".join(f"  {name}: {problem}" for name, problem in failures)
    summary = "\n".join(f"  {n} x {cause}" for cause, n in causes.most_common())
    print(f"\n{len(failures)} of {len(cases)} pipeline outputs fail\n{summary}")
    assert not failures, (
        f"{len(failures)} of {len(cases)} pipeline outputs do not round-trip through xgpu:\n"
        f"{report}\nby cause:\n{summary}"
    )
