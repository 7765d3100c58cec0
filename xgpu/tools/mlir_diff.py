"""Differential check of xgpu against mlir-opt (the MLIR 22 oracle).

    python -m xgpu.tools.mlir_diff FILE [--mlir-opt PATH]

For each `// -----` chunk of FILE (which must be valid for mlir-opt):
1. custom form:  `mlir-opt F`                  == `xgpu-opt F | mlir-opt`
2. generic form: `mlir-opt --generic F`        == `xgpu-opt --print-op-generic F | mlir-opt --generic`
3. mlir-opt's custom output parses in xgpu and prints back to the same IR;
4. mlir-opt's generic output parses in xgpu and prints back to the same IR;
5. every gpu, scf and memref op line xgpu prints for mlir-opt's output is the line
   mlir-opt printed, byte for byte (`#map` aliases included), up to the names of SSA
   values and blocks.
Exits 1 and prints a diff for each difference.

    python -m xgpu.tools.mlir_diff --pass PIPELINE FILE

compares a pass instead: for each chunk, `mlir-opt --PASS... F` must equal
`xgpu-opt -p PIPELINE F | mlir-opt` (both printed by mlir-opt), e.g.
`--pass canonicalize` or `--pass 'gpu-kernel-outlining,canonicalize'`; a pass
option is written as in xgpu-opt (`name{opt=v}`) and translated to mlir-opt's
`--name=opt=v`.

    python -m xgpu.tools.mlir_diff --pass PIPELINE --mlir-flags 'FLAGS' FILE

gives mlir-opt FLAGS (split as a shell would) instead of the translation, for a
pass xgpu runs where mlir-opt needs other flags, e.g. `--pass
'gpu-eliminate-barriers{gpu-funcs=true}' --mlir-flags='--pass-pipeline=...'`.

    python -m xgpu.tools.mlir_diff --mlir-style [--mlir-flags 'FLAGS'] FILE

compares printed text byte for byte: `xgpu-opt --mlir-style FLAGS FILE` must
print exactly what `mlir-opt FLAGS FILE` prints (FLAGS in mlir-opt's
spelling, e.g. `-split-input-file -canonicalize`), and fail when it fails.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shlex
import subprocess
import sys

from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.oracle import find_mlir_opt
from xgpu.tools.xgpu_opt import make_context, parse, split_chunks

_GPU_LINE = re.compile(r"^\s*(?:%[^=]*=\s*)?(?:gpu|scf|memref)\.")
_NAME = re.compile(r"[%^][A-Za-z0-9_.$-]+(?:#\d+)?")


class OracleError(Exception):
    pass


def run_mlir_opt(mlir_opt: str, text: str, *flags: str) -> str:
    proc = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", *flags, "-"],
        input=text,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise OracleError(proc.stderr.strip())
    return proc.stdout


def xgpu_print(text: str, generic: bool = False) -> str:
    """Parse, verify and print with xgpu (in-process, like `xgpu-opt`)."""
    ctx = make_context(allow_unregistered=True)
    module = parse(text, "<chunk>", ctx)
    if (diag := verify_ir(module)) is not None:
        raise OracleError(f"xgpu rejects it: {diag.location}: {diag.message}")
    return print_mlir(module, generic) + "\n"


def _normalize_names(line: str) -> str:
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        tok = m.group(0)
        return names.setdefault(tok, f"{tok[0]}v{len(names)}")

    return _NAME.sub(rename, line.rstrip("\n"))


_RESULT_LIST = re.compile(r"^(\s*)(%[^=]*?)\s*=")
_PACKED = re.compile(r"%([A-Za-z0-9_.$-]+):(\d+)")


def _unpack_results(line: str) -> str:
    """MLIR prints N results of one op as `%0:2 = ...` (used as `%0#1`), possibly
    among others (`%0:2, %t = ...`); xDSL names each (`%a, %b, %t = ...`).
    Spell MLIR's form like xDSL's."""
    m = _RESULT_LIST.match(line)
    if m is None or ":" not in m.group(2):
        return line

    def expand(p: re.Match[str]) -> str:
        return ", ".join(f"%{p.group(1)}#{i}" for i in range(int(p.group(2))))

    return m.group(1) + _PACKED.sub(expand, m.group(2)) + " =" + line[m.end() :]


def gpu_lines(text: str) -> list[str]:
    return [
        _normalize_names(_unpack_results(line))
        for line in text.splitlines()
        if _GPU_LINE.match(line)
    ]


def _diff(what: str, expected: str, actual: str) -> str:
    diff = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "mlir-opt", "xgpu", lineterm=""
    )
    return f"{what}:\n" + "\n".join(diff)


def run_mlir_opt_each(mlir_opt: str, texts: list[str], *flags: str) -> list[str | OracleError]:
    """`run_mlir_opt` of each text, in order: one mlir-opt process for all of
    them (`--split-input-file`, which prints each output followed by `//
    -----`) where every one succeeds, else one process per text. (A batch's
    outputs are the single runs' outputs, compared on every with-mlir test.)"""
    if len(texts) > 1:
        proc = subprocess.run(
            [mlir_opt, "--allow-unregistered-dialect", "--split-input-file", *flags, "-"],
            input="\n// -----\n".join(texts),
            capture_output=True,
            text=True,
        )
        if proc.returncode == 0:
            outputs = proc.stdout.split("// -----\n")
            if len(outputs) == len(texts):
                return list(outputs)
    results: list[str | OracleError] = []
    for text in texts:
        try:
            results.append(run_mlir_opt(mlir_opt, text, *flags))
        except OracleError as err:
            results.append(err)
    return results


def _attempt(produce) -> str | Exception:
    try:
        return produce()
    except Exception as err:  # a parse error or a crash in xgpu
        return err


def compare_chunks(mlir_opt: str, chunks: list[str]) -> list[list[str]]:
    """The problems of each chunk (see the module docstring), mlir-opt's runs
    batched (`run_mlir_opt_each`)."""
    refs = run_mlir_opt_each(mlir_opt, chunks)
    refs_generic = run_mlir_opt_each(mlir_opt, chunks, "--mlir-print-op-generic")
    problems: list[list[str]] = [[] for _ in chunks]
    valid = []
    for i, (ref, ref_generic) in enumerate(zip(refs, refs_generic, strict=True)):
        if isinstance(ref, OracleError) or isinstance(ref_generic, OracleError):
            err = ref if isinstance(ref, OracleError) else ref_generic
            problems[i].append(f"mlir-opt rejects the input (fix the test): {err}")
        else:
            valid.append(i)
    # What xgpu prints (in-process), then mlir-opt's reading of it, batched.
    stages = [
        ("custom form (xgpu-opt F | mlir-opt)", lambda i: xgpu_print(chunks[i]), ()),
        (
            "generic form (xgpu-opt --print-op-generic F | mlir-opt --mlir-print-op-generic)",
            lambda i: xgpu_print(chunks[i], generic=True),
            ("--mlir-print-op-generic",),
        ),
        ("mlir-opt's custom output through xgpu", lambda i: xgpu_print(refs[i]), ()),
        ("mlir-opt's generic output through xgpu", lambda i: xgpu_print(refs_generic[i]), ()),
    ]
    expected = {0: refs, 1: refs_generic, 2: refs, 3: refs}
    outcomes: list[dict[int, str | Exception]] = []
    for _, produce, flags in stages:
        printed = {i: _attempt(lambda i=i: produce(i)) for i in valid}
        ok = [i for i in valid if isinstance(printed[i], str)]
        read = run_mlir_opt_each(mlir_opt, [printed[i] for i in ok], *flags)  # type: ignore[misc]
        outcome: dict[int, str | Exception] = dict(printed)
        outcome.update(zip(ok, read, strict=True))
        outcomes.append(outcome)
    for i in valid:
        for k, (what, _, _) in enumerate(stages):
            _record(problems[i], what, expected[k][i], outcomes[k][i])  # type: ignore[arg-type]
        lines = _attempt(lambda i=i: "\n".join(gpu_lines(xgpu_print(refs[i]))))  # type: ignore[arg-type]
        _record(
            problems[i],
            "gpu and memref op syntax, byte for byte (names normalized)",
            "\n".join(gpu_lines(refs[i])),  # type: ignore[arg-type]
            lines,
        )
    return problems


def _record(problems: list[str], what: str, expected: str, actual: str | Exception) -> None:
    if isinstance(actual, OracleError):
        problems.append(f"{what}: {actual}")
    elif isinstance(actual, Exception):
        problems.append(f"{what}: {type(actual).__name__}: {actual}")
    elif actual != expected:
        problems.append(_diff(what, expected, actual))


def compare_chunk(mlir_opt: str, chunk: str) -> list[str]:
    """The problems of one chunk (`compare_chunks`)."""
    return compare_chunks(mlir_opt, [chunk])[0]


def _mlir_pass_flags(pipeline: str) -> list[str]:
    flags = []
    for item in re.findall(r"[^,{]+(?:\{[^}]*\})?", pipeline):
        item = item.strip()
        name, _, opts = item.partition("{")
        opts = opts.rstrip("}").strip()
        flags.append(f"--{name}" + (f"={opts}" if opts else ""))
    return flags


def xgpu_run_pipeline(text: str, pipeline: str) -> str:
    """Parse, verify, run `pipeline` (xgpu-opt's -p syntax) and print, in-process."""
    from xdsl.passes import PassPipeline

    from xgpu.tools.xgpu_opt import pass_registry

    ctx = make_context(allow_unregistered=True)
    module = parse(text, "<chunk>", ctx)
    if (diag := verify_ir(module)) is not None:
        raise OracleError(f"xgpu rejects it: {diag.location}: {diag.message}")
    passes = pass_registry()
    PassPipeline.parse_spec(passes, pipeline).apply(ctx, module)
    if (diag := verify_ir(module)) is not None:
        raise OracleError(f"xgpu's output does not verify: {diag.location}: {diag.message}")
    return print_mlir(module) + "\n"


def compare_pass_chunks(
    mlir_opt: str, chunks: list[str], pipeline: str, mlir_flags: list[str] | None = None
) -> list[list[str]]:
    """The problems of each chunk under `pipeline`, mlir-opt's runs batched."""
    flags = _mlir_pass_flags(pipeline) if mlir_flags is None else mlir_flags
    refs = run_mlir_opt_each(mlir_opt, chunks, *flags)
    problems: list[list[str]] = [[] for _ in chunks]
    produced: dict[int, str] = {}
    for i, ref in enumerate(refs):
        if isinstance(ref, OracleError):
            problems[i].append(f"mlir-opt fails on the input (fix the test): {ref}")
            continue
        try:
            produced[i] = xgpu_run_pipeline(chunks[i], pipeline)
        except OracleError as err:
            problems[i].append(f"{pipeline}: {err}")
        except Exception as err:  # a crash in xgpu
            problems[i].append(f"{pipeline}: {type(err).__name__}: {err}")
    order = list(produced)
    read = run_mlir_opt_each(mlir_opt, [produced[i] for i in order])
    for i, actual in zip(order, read, strict=True):
        if isinstance(actual, OracleError):
            problems[i].append(f"{pipeline}: {actual}")
        elif actual != refs[i]:
            what = f"-p {pipeline} (xgpu-opt | mlir-opt) vs mlir-opt"
            problems[i].append(_diff(what, refs[i], actual))  # type: ignore[arg-type]
    return problems


def compare_pass_chunk(
    mlir_opt: str, chunk: str, pipeline: str, mlir_flags: list[str] | None = None
) -> list[str]:
    """The problems of one chunk under `pipeline` (`compare_pass_chunks`)."""
    return compare_pass_chunks(mlir_opt, [chunk], pipeline, mlir_flags)[0]


def xgpu_opt_output(argv: list[str]) -> tuple[int, str, str]:
    """Run xgpu-opt in-process: (exit status, stdout, stderr)."""
    import contextlib
    import io

    from xgpu.tools.xgpu_opt import main as xgpu_opt_main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            xgpu_opt_main(argv)
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def compare_mlir_style(mlir_opt: str, path: str, flags: list[str]) -> list[str]:
    """`xgpu-opt --mlir-style FLAGS F` against `mlir-opt FLAGS F`, byte for byte."""
    proc = subprocess.run([mlir_opt, *flags, path], capture_output=True, text=True)
    if proc.returncode != 0:
        return [f"mlir-opt fails on the input (fix the test): {proc.stderr.strip()}"]
    code, out, err = xgpu_opt_output(["--mlir-style", *flags, path])
    if code != 0:
        return [f"xgpu-opt --mlir-style fails: {err.strip()}"]
    if out != proc.stdout:
        return [_diff(f"xgpu-opt --mlir-style {shlex.join(flags)}", proc.stdout, out)]
    return []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--mlir-opt", default=None)
    ap.add_argument("--pass", dest="pipeline", default=None, help="compare this pass pipeline")
    ap.add_argument(
        "--mlir-flags", default=None, help="mlir-opt flags for --pass (instead of its translation)"
    )
    ap.add_argument(
        "--mlir-style", action="store_true", help="compare xgpu-opt --mlir-style's text exactly"
    )
    args = ap.parse_args(argv)
    mlir_opt = args.mlir_opt or find_mlir_opt()
    if mlir_opt is None:
        print("mlir_diff: no mlir-opt found (set XGPU_MLIR_OPT)", file=sys.stderr)
        return 2
    if args.mlir_style:
        flags = shlex.split(args.mlir_flags or "")
        problems = compare_mlir_style(mlir_opt, args.file, flags)
        for problem in problems:
            print(f"{args.file}: output differs: {problem}\n", file=sys.stderr)
        print(f"mlir_diff --mlir-style: {len(problems)} difference(s)")
        return 1 if problems else 0
    with open(args.file, encoding="utf-8") as f:
        text = f.read()
    failed = 0
    chunks = split_chunks(text, True)
    present = [(chunk, offset) for chunk, offset in chunks if chunk.strip()]
    texts = [chunk for chunk, _ in present]
    if args.pipeline:
        mlir_flags = shlex.split(args.mlir_flags) if args.mlir_flags is not None else None
        found = compare_pass_chunks(mlir_opt, texts, args.pipeline, mlir_flags)
    else:
        found = compare_chunks(mlir_opt, texts)
    for (_, offset), problems in zip(present, found, strict=True):
        for problem in problems:
            failed += 1
            print(f"{args.file}:{offset + 1}: chunk differs: {problem}\n", file=sys.stderr)
    print(f"mlir_diff: {len(chunks)} chunk(s), {failed} difference(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
