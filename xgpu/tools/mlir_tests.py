"""Run MLIR's own lit tests (their `// RUN:` lines) with xgpu-opt in mlir-opt's place.

    python -m xgpu.tools.mlir_tests DIR [--opt 'xgpu-opt --mlir-style'] [-v]

For each `*.mlir` file of DIR (or each FILE given), every `// RUN:` line (with
its `\\` continuations) is run by bash, as lit would run it, after these
substitutions: `%s` (the file), `%S`/`%p` (its folder), `%t`/`%T` (scratch
paths), `mlir-opt` -> the `--opt` command (`xgpu-opt --mlir-style` by default),
`FileCheck` -> `--filecheck` (by default LLVM's FileCheck where one is installed,
e.g. Debian's `FileCheck-14`, else the pip `filecheck`, which reads some
CHECK-NOT lines differently) and lit's `not` (inverts the exit status of the command
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
`--verify-diagnostics` accepts it; another chunk, or one whose annotations
mlir-opt 22 itself fails (the file is not the MLIR 22 version there: it is
judged by mlir-opt 22's diagnostics, and counted), passes when both tools reject
it with the same first error, or both accept it and their outputs, each
reprinted by mlir-opt 22, are equal. `--all-chunks` checks the inputs of the
files that run passes too (parsed and printed only).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

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


def option_of(arg: str) -> tuple[str, str | None] | None:
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
        opt = option_of(args[i])
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
        opt = option_of(arg)
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


# ------------------------------------------------------------------- driver
def default_filecheck() -> str:
    """LLVM's FileCheck (newest installed), else the pip `filecheck`."""
    import shutil

    for version in ("", *(f"-{v}" for v in range(30, 13, -1))):
        if shutil.which(f"FileCheck{version}"):
            return f"FileCheck{version}"
    return "filecheck"


def indent(text: str, by: str = "      ") -> str:
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
                print(indent(f"RUN {r.index}: {r.command}", "    "))
            if r.status == UNSUPPORTED:
                print(f"    RUN {r.index}: UNSUPPORTED ({r.detail})")
            elif r.status == FAIL:
                print(f"    RUN {r.index}: FAIL ({r.detail})")
                print(indent(head(r.output, runner.lines_shown)))
    total = sum(counts.values())
    print(
        f"\n{len(files)} file(s), {total} RUN line(s): {counts[PASS]} PASS, "
        f"{counts[FAIL]} FAIL, {counts[UNSUPPORTED]} UNSUPPORTED"
    )
    return 1 if counts[FAIL] else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m xgpu.tools.mlir_tests", description=__doc__.splitlines()[0]
    )
    ap.add_argument("paths", nargs="+", help="folders of *.mlir test files, or files")
    ap.add_argument(
        "--opt", default="xgpu-opt --mlir-style", help="the command put in mlir-opt's place"
    )
    ap.add_argument(
        "--filecheck", default=default_filecheck(), help="the command put for FileCheck"
    )
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
    if args.chunks or args.all_chunks:
        from xgpu.tools.mlir_test_chunks import main_chunks

        return main_chunks(args, files)
    return main_lines(args, files)


if __name__ == "__main__":
    sys.exit(main())
