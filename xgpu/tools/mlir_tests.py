"""Run MLIR's own lit tests (their `// RUN:` lines) with xgpu-opt in mlir-opt's place.

    python -m xgpu.tools.mlir_tests DIR [--opt 'xgpu-opt --mlir-style'] [-v]

For each `*.mlir` file of DIR (or each FILE given), every `// RUN:` line (with
its `\\` continuations) is run by bash, as lit would run it, after these
substitutions: `%s` (the file), `%S`/`%p` (its folder), `%t`/`%T` (scratch
paths), `mlir-opt` -> the `--opt` command, `FileCheck` -> `--filecheck` (the pip
`filecheck` by default) and lit's `not` (inverts the exit status of the command
it prefixes). Pipes fail as soon as one of their commands fails (lit's
pipefail). Each RUN line is reported PASS, FAIL (with the first lines of its
output) or UNSUPPORTED: it names a pass that xgpu-opt does not have (the names
are printed), or the file `REQUIRES:` a feature. Nothing is fetched; exit status
1 if any RUN line FAILs.

`--xdsl-flags` respells mlir-opt's flags for an xgpu-opt without
`--mlir-style`: `-allow-unregistered-dialect` -> `--allow-unregistered-dialect`,
`-mlir-print-op-generic` -> `--print-op-generic`, pass flags `-name=a=1 b` ->
`-p 'name{a=1 b=true}'`, and so on.

`--chunks` checks, instead, each `// -----` chunk of the files whose RUN lines
run no pass (only parse, verify and print): xgpu-opt and mlir-opt 22 must agree
on it. A chunk with `expected-*` annotations passes when xgpu-opt
`--verify-diagnostics` accepts it (a chunk that mlir-opt 22 itself fails is
counted apart: the file is not the MLIR 22 version there); another chunk passes
when both tools reject it with the same first error, or both accept it and their
outputs, each reprinted by mlir-opt 22, are equal.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from xgpu.tools.oracle import find_mlir_opt

PASS, FAIL, UNSUPPORTED = "PASS", "FAIL", "UNSUPPORTED"

# mlir-opt options that are not passes (the `mlir-` and `print-ir-` families too).
_GENERAL_OPTIONS = frozenset(
    {
        "allow-unregistered-dialect",
        "split-input-file",
        "verify-diagnostics",
        "verify-each",
        "verify-roundtrip",
        "o",
        "pass-pipeline",
        "debug",
        "debug-only",
        "show-dialects",
        "no-implicit-module",
        "emit-bytecode",
        "dump-pass-pipeline",
        "log-actions-to",
        "pass-statistics",
        "timing",
        "load-pass-plugin",
        "load-dialect-plugin",
        "disable-i2p-p2i-opt",
        "run-reproducer",
        "list-passes",
    }
)
# mlir-opt spelling -> xdsl-opt spelling, for --xdsl-flags.
_XDSL_SPELLING = {
    "allow-unregistered-dialect": "--allow-unregistered-dialect",
    "split-input-file": "--split-input-file",
    "verify-diagnostics": "--verify-diagnostics",
    "mlir-print-op-generic": "--print-op-generic",
    "mlir-print-debuginfo": "--print-debuginfo",
    "no-implicit-module": "--no-implicit-module",
}
_BASH_PRELUDE = 'set -o pipefail; not() { if "$@"; then return 1; else return 0; fi; }; '
_SHELL_STOP = set("|;&<>()")


# ------------------------------------------------------------------ RUN lines
def run_lines(text: str) -> list[str]:
    """The file's RUN lines, continuations (a trailing `\\`) joined."""
    lines: list[str] = []
    pending = ""
    for raw in text.splitlines():
        m = re.search(r"\bRUN:(.*)$", raw)
        if m is None:
            continue
        part = m.group(1).strip()
        if part.endswith("\\"):
            pending += part[:-1].rstrip() + " "
            continue
        lines.append((pending + part).strip())
        pending = ""
    if pending.strip():
        lines.append(pending.strip())
    return lines


def requirements(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"\bREQUIRES:(.*)$", text, re.M)]


def lit_substitute(line: str, path: Path, tmp: str) -> str:
    subs = {
        "%s": shlex.quote(str(path)),
        "%S": shlex.quote(str(path.parent)),
        "%p": shlex.quote(str(path.parent)),
        "%t": shlex.quote(tmp),
        "%T": shlex.quote(os.path.dirname(tmp)),
        "%%": "%",
    }
    # Only the substitutions named: `%shlibext` or `%mlir_lib_dir` stay as they are.
    return re.sub(r"%[sSptT](?!\w)|%%", lambda m: subs[m.group(0)], line)


def _segment_end(line: str, start: int) -> int:
    """Where the simple command starting at `start` ends (an unquoted shell
    operator, or the end of the line)."""
    quote = ""
    i = start
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c in _SHELL_STOP:
            break
        i += 1
    end = min(i, len(line))
    # `2>&1`: the digit belongs to the redirection, not to the command.
    m = re.search(r"\s\d+$", line[start:end])
    return start + m.start() + 1 if m and end < len(line) and line[end] in "<>" else end


_MLIR_OPT_WORD = re.compile(r"(?<![\w./%-])mlir-opt(?![\w.-])")


def mlir_opt_invocations(line: str) -> list[tuple[int, int, list[str]]]:
    """(start, end, args) of each `mlir-opt ...` command in a RUN line."""
    found = []
    for m in _MLIR_OPT_WORD.finditer(line):
        end = _segment_end(line, m.end())
        try:
            args = shlex.split(line[m.end() : end])
        except ValueError:
            args = line[m.end() : end].split()
        found.append((m.start(), end, args))
    return found


def _option(arg: str) -> tuple[str, str | None] | None:
    if not arg.startswith("-") or arg in ("-", "--"):
        return None
    name, eq, value = arg.lstrip("-").partition("=")
    return name, (value if eq else None)


def _is_general(name: str) -> bool:
    return name in _GENERAL_OPTIONS or name.startswith(("mlir-", "print-ir-"))


def pipeline_pass_names(pipeline: str) -> list[str]:
    """Pass names of a `--pass-pipeline` string (not its op anchors)."""
    flat = re.sub(r"\{[^{}]*\}", "", pipeline.strip("'\""))
    names = re.split(r"[(),\s]+", flat)
    return [n for n in names if n and "." not in n and n != "any"]


def pass_names(args: Iterable[str]) -> list[str]:
    """The passes an mlir-opt command line runs, in order."""
    names: list[str] = []
    args = list(args)
    i = 0
    while i < len(args):
        opt = _option(args[i])
        i += 1
        if opt is None:
            continue
        name, value = opt
        if name == "pass-pipeline":
            if value is None and i < len(args):
                value, i = args[i], i + 1
            names += pipeline_pass_names(value or "")
        elif name == "o" and value is None:
            i += 1
        elif not _is_general(name):
            names.append(name)
    return names


def _xdsl_pass_spec(name: str, value: str | None) -> str:
    if not value:
        return name
    items = []
    for item in shlex.split(value):
        key, eq, val = item.partition("=")
        if not eq:
            val = "true"
        elif not re.fullmatch(r"-?\d+|true|false|[\w,-]+", val):
            val = '"' + val.replace("\\", "\\\\").replace('"', '\\"') + '"'
        items.append(f"{key}={val}")
    return f"{name}{{{' '.join(items)}}}"


def xdsl_args(args: list[str]) -> list[str]:
    """mlir-opt's flags respelled for xdsl-opt (see --xdsl-flags)."""
    out: list[str] = []
    passes: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        opt = _option(arg)
        if opt is None:
            out.append(arg)
            continue
        name, value = opt
        if name in _XDSL_SPELLING:
            out.append(_XDSL_SPELLING[name])
        elif name == "o":
            out += ["-o", value if value is not None else args[i]]
            i += value is None
        elif _is_general(name):
            out.append(arg)
        else:
            passes.append(_xdsl_pass_spec(name, value))
    if passes:
        out += ["-p", ",".join(passes)]
    return out


@dataclass
class Expanded:
    command: str
    passes: list[str] = field(default_factory=list)


def expand(
    line: str, path: Path, opt: str, filecheck: str, tmp: str, xdsl: bool = False
) -> Expanded:
    """The bash command for a RUN line, and the passes its mlir-opt runs."""
    line = lit_substitute(line, path, tmp)
    passes: list[str] = []
    pieces: list[str] = []
    pos = 0
    for start, end, args in mlir_opt_invocations(line):
        passes += pass_names(args)
        new_args = xdsl_args(args) if xdsl else args
        pieces += [line[pos:start], opt, " ", " ".join(map(shlex.quote, new_args)), " "]
        pos = end
    pieces.append(line[pos:])
    command = re.sub(r"(?<![\w-])FileCheck(?![\w-])", filecheck, "".join(pieces))
    return Expanded(command, passes)


# -------------------------------------------------------------- running lines
def run_command(command: str, timeout: float, cwd: str | None = None) -> tuple[int | None, str]:
    """Run a bash command; (exit status or None on timeout, stdout+stderr)."""
    proc = subprocess.Popen(
        ["bash", "-c", _BASH_PRELUDE + command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        cwd=cwd,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out


@dataclass
class LineResult:
    index: int
    status: str
    detail: str
    command: str
    output: str = ""


def head(text: str, n: int) -> str:
    """The first `n` non-blank lines of `text`, from its first error on."""
    lines = [line for line in text.splitlines() if line.strip()]
    first = next((i for i, line in enumerate(lines) if "error" in line), 0)
    lines = lines[first:]
    more = f"\n... ({len(lines) - n} more lines)" if len(lines) > n else ""
    return "\n".join(lines[:n]) + more


@dataclass
class Runner:
    opt: str = "xgpu-opt"
    filecheck: str = "filecheck"
    timeout: float = 120.0
    xdsl: bool = False
    supported: frozenset[str] | None = None
    lines_shown: int = 6

    def run_file(self, path: Path) -> list[LineResult]:
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = run_lines(text)
        reqs = requirements(text)
        results: list[LineResult] = []
        with tempfile.TemporaryDirectory(prefix="mlir-tests-") as tmpdir:
            for i, line in enumerate(lines, 1):
                tmp = os.path.join(tmpdir, f"{path.name}.tmp{i}")
                exp = expand(line, path, self.opt, self.filecheck, tmp, self.xdsl)
                if reqs:
                    results.append(
                        LineResult(i, UNSUPPORTED, "REQUIRES: " + ", ".join(reqs), exp.command)
                    )
                    continue
                missing = []
                if self.supported is not None:
                    missing = [p for p in dict.fromkeys(exp.passes) if p not in self.supported]
                if missing:
                    detail = "passes xgpu-opt lacks: " + ", ".join(missing)
                    results.append(LineResult(i, UNSUPPORTED, detail, exp.command))
                    continue
                rc, out = run_command(exp.command, self.timeout, tmpdir)
                if rc == 0:
                    results.append(LineResult(i, PASS, "", exp.command, out))
                else:
                    why = f"timed out after {self.timeout:g} s" if rc is None else f"exit {rc}"
                    results.append(LineResult(i, FAIL, why, exp.command, out))
        return results


def xgpu_passes() -> frozenset[str]:
    from xgpu.tools.xgpu_opt import pass_registry

    return frozenset(pass_registry())


def supported_passes(opt: str) -> frozenset[str] | None:
    """xgpu-opt's pass names when `opt` runs xgpu-opt (None: do not check)."""
    try:
        words = shlex.split(opt)
    except ValueError:
        return None
    if any(os.path.basename(w).startswith("xgpu-opt") for w in words[:1]):
        return xgpu_passes()
    return None


def test_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in map(Path, paths):
        files += sorted(p.glob("*.mlir")) if p.is_dir() else [p]
    return files


# --------------------------------------------------------------- chunk mode
@dataclass
class ChunkResult:
    line: int
    status: str  # PASS, FAIL or "SKIP" (mlir-opt 22 fails the chunk's annotations)
    detail: str = ""


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
    names = {o[0] for a in args for o in map(_option, a) if o}
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

    if verify and re.search(r"expected-(error|warning|note|remark)", chunk):
        ref = oracle("--verify-diagnostics")
        if ref.returncode != 0:
            return "SKIP", "mlir-opt 22 fails it: " + _first_error(ref.stderr)
        rc, _, err = tool([path, "--verify-diagnostics", *allow_flag])
        return (PASS, "") if rc == 0 else (FAIL, head(err, 3))
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
        import difflib

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


# ------------------------------------------------------------------- driver
def _indent(text: str, by: str = "      ") -> str:
    return "\n".join(by + line for line in text.splitlines())


def main_lines(args: argparse.Namespace, files: list[Path]) -> int:
    supported = None if args.no_pass_check else supported_passes(args.opt)
    runner = Runner(args.opt, args.filecheck, args.timeout, args.xdsl_flags, supported)
    runner.lines_shown = 40 if args.verbose else 6
    counts = {PASS: 0, FAIL: 0, UNSUPPORTED: 0}
    for path in files:
        results = runner.run_file(path)
        print(f"{path.name}: " + ", ".join(f"RUN {r.index} {r.status}" for r in results))
        for r in results:
            counts[r.status] += 1
            if args.verbose:
                print(_indent(f"RUN {r.index}: {r.command}", "    "))
            if r.status == UNSUPPORTED:
                print(f"    RUN {r.index}: UNSUPPORTED ({r.detail})")
            elif r.status == FAIL:
                print(f"    RUN {r.index}: FAIL ({r.detail})")
                print(_indent(head(r.output, runner.lines_shown)))
    total = sum(counts.values())
    print(
        f"\n{len(files)} file(s), {total} RUN line(s): {counts[PASS]} PASS, "
        f"{counts[FAIL]} FAIL, {counts[UNSUPPORTED]} UNSUPPORTED"
    )
    return 1 if counts[FAIL] else 0


def main_chunks(args: argparse.Namespace, files: list[Path]) -> int:
    mlir_opt = args.mlir_opt or find_mlir_opt()
    if mlir_opt is None:
        print("mlir_tests: --chunks needs mlir-opt 22 (set XGPU_MLIR_OPT)", file=sys.stderr)
        return 2
    agree = total = skipped = 0
    for path in files:
        results = run_chunks(path, mlir_opt, args.opt, args.all_chunks)
        if results is None:
            if args.verbose:
                print(f"{path.name}: not checked by chunk (its RUN lines run passes)")
            continue
        ok = sum(r.status == PASS for r in results)
        skip = sum(r.status == "SKIP" for r in results)
        print(
            f"{path.name}: {ok} of {len(results) - skip} chunk(s) agree with mlir-opt 22"
            + (f" ({skip} skipped: mlir-opt 22 fails their annotations)" if skip else "")
        )
        for r in results:
            if r.status == FAIL or (args.verbose and r.status == "SKIP"):
                print(f"    line {r.line}: {r.status}")
                print(_indent(r.detail))
        agree, total, skipped = agree + ok, total + len(results) - skip, skipped + skip
    print(f"\nchunks: {agree} of {total} agree with mlir-opt 22 ({skipped} skipped)")
    return 1 if agree != total else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m xgpu.tools.mlir_tests", description=__doc__.splitlines()[0]
    )
    ap.add_argument("paths", nargs="+", help="folders of *.mlir test files, or files")
    ap.add_argument("--opt", default="xgpu-opt", help="the command put in mlir-opt's place")
    ap.add_argument("--filecheck", default="filecheck", help="the command put for FileCheck")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per RUN line")
    ap.add_argument(
        "--xdsl-flags", action="store_true", help="respell mlir-opt's flags as xdsl-opt's"
    )
    ap.add_argument(
        "--no-pass-check", action="store_true", help="run RUN lines whatever passes they name"
    )
    ap.add_argument("--chunks", action="store_true", help="compare pass-free files per chunk")
    ap.add_argument(
        "--all-chunks",
        action="store_true",
        help="with --chunks: also the inputs of files that run passes (parsed and printed only)",
    )
    ap.add_argument("--mlir-opt", default=None, help="mlir-opt 22 for --chunks")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    files = test_files(args.paths)
    if not files:
        print("mlir_tests: no *.mlir test file found", file=sys.stderr)
        return 2
    return main_chunks(args, files) if args.chunks or args.all_chunks else main_lines(args, files)


if __name__ == "__main__":
    sys.exit(main())
