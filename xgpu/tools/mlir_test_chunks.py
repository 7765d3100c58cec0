"""`python -m xgpu.tools.mlir_tests --chunks`: MLIR's test files chunk by chunk.

Each `// -----` chunk of a file whose RUN lines run no pass (only parse, verify
and print) is checked on its own, xgpu-opt against mlir-opt 22 (see
xgpu.tools.mlir_tests and docs/mlir-tests.md).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xgpu.tools.mlir_tests import (
    FAIL,
    PASS,
    head,
    indent,
    mlir_opt_invocations,
    option_of,
    pass_names,
    run_lines,
)
from xgpu.tools.oracle import find_mlir_opt


@dataclass
class ChunkResult:
    line: int
    status: str  # PASS or FAIL
    detail: str = ""

    @property
    def by_oracle(self) -> bool:
        return self.detail.startswith(BY_ORACLE)


# The detail of a chunk whose annotations mlir-opt 22 itself fails.
BY_ORACLE = "judged by mlir-opt 22's diagnostics (the file's are not 22's)"


def _first_error(text: str) -> str:
    m = re.search(r"error: (.*)", text)
    return m.group(1).strip() if m else text.strip().splitlines()[0] if text.strip() else ""


def xgpu_in_process(argv: list[str]) -> tuple[int, str, str]:
    """Run xgpu-opt's main in this process: (exit status, stdout, stderr)."""
    from xgpu.tools.xgpu_opt import XGpuOptMain

    out, err = io.StringIO(), io.StringIO()
    rc = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            XGpuOptMain(args=argv).run()
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else 1
    return rc, out.getvalue(), err.getvalue()


def _subprocess_tool(opt: str) -> Callable[[list[str]], tuple[int, str, str]]:
    def run(argv: list[str]) -> tuple[int, str, str]:
        proc = subprocess.run(
            [*shlex.split(opt), *argv], capture_output=True, text=True, errors="replace"
        )
        return proc.returncode, proc.stdout, proc.stderr

    return run


def xgpu_tool(opt: str) -> Callable[[list[str]], tuple[int, str, str]]:
    """How to run the --opt command: in-process for plain xgpu-opt[ FLAGS]."""
    words = shlex.split(opt)
    if words and os.path.basename(words[0]) == "xgpu-opt":
        extra = words[1:]
        return lambda argv: xgpu_in_process([*argv, *extra])
    return _subprocess_tool(opt)


def chunkable(text: str) -> tuple[bool, bool, bool]:
    """(pass-free, allow-unregistered, verify-diagnostics) of a file's RUN lines."""
    lines = run_lines(text)
    args = [a for line in lines for _, _, a in mlir_opt_invocations(line)]
    if not args or any(pass_names(a) for a in args):
        return False, False, False
    names = {o[0] for a in args for o in map(option_of, a) if o}
    return True, "allow-unregistered-dialect" in names, "verify-diagnostics" in names


def check_chunk(
    chunk: str,
    path: str,
    mlir_opt: str,
    tool: Callable[[list[str]], tuple[int, str, str]],
    allow: bool,
    verify: bool,
) -> tuple[str, str]:
    """(status, detail) of one chunk, written to `path` (padded to its line)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(chunk)
    allow_flag = ["--allow-unregistered-dialect"] if allow else []

    def oracle(*args: str, text: str | None = None) -> subprocess.CompletedProcess[str]:
        argv = [mlir_opt, *allow_flag, *args, "-" if text is not None else path]
        return subprocess.run(argv, input=text, capture_output=True, text=True, errors="replace")

    prefix = ""
    if verify and re.search(r"expected-(error|warning|note|remark)", chunk):
        ref = oracle("--verify-diagnostics")
        if ref.returncode == 0:
            rc, _, err = tool([path, "--verify-diagnostics", *allow_flag])
            return (PASS, "") if rc == 0 else (FAIL, head(err, 3))
        # Not the MLIR 22 version of the file here: compare with mlir-opt 22.
        prefix = BY_ORACLE
    status, detail = _compare(path, oracle, tool, allow_flag)
    return status, prefix + (": " + detail if prefix and detail else detail)


def _compare(
    path: str,
    oracle: Callable[..., subprocess.CompletedProcess[str]],
    tool: Callable[[list[str]], tuple[int, str, str]],
    allow_flag: list[str],
) -> tuple[str, str]:
    """Both tools on the chunk at `path`, without annotations."""
    ref = oracle()
    rc, out, err = tool([path, *allow_flag])
    if ref.returncode != 0:
        if rc == 0:
            return FAIL, "xgpu-opt accepts what mlir-opt 22 rejects: " + _first_error(ref.stderr)
        want, got = _first_error(ref.stderr), _first_error(err)
        return (PASS, "") if want == got else (FAIL, f"error differs: {got!r} vs {want!r}")
    if rc != 0:
        return FAIL, "xgpu-opt rejects it: " + _first_error(err or out)
    again = oracle(text=out)
    if again.returncode != 0:
        return FAIL, "mlir-opt 22 rejects xgpu-opt's output: " + _first_error(again.stderr)
    if again.stdout != ref.stdout:
        diff = difflib.unified_diff(
            ref.stdout.splitlines(), again.stdout.splitlines(), "mlir-opt", "xgpu", lineterm="", n=0
        )
        return FAIL, "output differs:\n" + head("\n".join(list(diff)[2:]), 6)
    return PASS, ""


def run_chunks(
    path: Path, mlir_opt: str, opt: str, all_files: bool = False
) -> list[ChunkResult] | None:
    """Per-chunk results of a pass-free file (None: not such a file). With
    `all_files`, the inputs of files that run passes are checked too (parsed and
    printed only, no pass run)."""
    from xgpu.tools.xgpu_opt import split_chunks

    text = path.read_text(encoding="utf-8", errors="replace")
    free, allow, verify = chunkable(text)
    if not free:
        if not all_files or not run_lines(text):
            return None
        flags = " ".join(run_lines(text))
        allow = "allow-unregistered-dialect" in flags
        verify = "verify-diagnostics" in flags
    split = any("split-input-file" in line for line in run_lines(text))
    tool = xgpu_tool(opt)
    results = []
    with tempfile.TemporaryDirectory(prefix="mlir-chunks-") as tmpdir:
        chunk_path = os.path.join(tmpdir, path.name)
        for chunk, offset in split_chunks(text, split):
            if not chunk.strip():
                continue
            status, detail = check_chunk(
                "\n" * offset + chunk, chunk_path, mlir_opt, tool, allow, verify
            )
            results.append(ChunkResult(offset + 1, status, detail))
    return results


def main_chunks(args: argparse.Namespace, files: list[Path]) -> int:
    mlir_opt = args.mlir_opt or find_mlir_opt()
    if mlir_opt is None:
        print("mlir_tests: --chunks needs mlir-opt 22 (set XGPU_MLIR_OPT)", file=sys.stderr)
        return 2
    agree = total = by_oracle = 0
    for path in files:
        results = run_chunks(path, mlir_opt, args.opt, args.all_chunks)
        if results is None:
            if args.verbose:
                print(f"{path.name}: not checked by chunk (its RUN lines run passes)")
            continue
        ok = sum(r.status == PASS for r in results)
        judged = sum(r.by_oracle for r in results)
        print(
            f"{path.name}: {ok} of {len(results)} chunk(s) agree with mlir-opt 22"
            + (f" ({judged} judged by mlir-opt 22's diagnostics, not the file's)" if judged else "")
        )
        for r in results:
            if r.status == FAIL or (args.verbose and r.by_oracle):
                print(f"    line {r.line}: {r.status}")
                print(indent(r.detail))
        agree, total, by_oracle = agree + ok, total + len(results), by_oracle + judged
    print(
        f"\nchunks: {agree} of {total} agree with mlir-opt 22 ({by_oracle} of them judged by "
        "mlir-opt 22's diagnostics: the file's annotations are not MLIR 22's there)"
    )
    return 1 if agree != total else 0
