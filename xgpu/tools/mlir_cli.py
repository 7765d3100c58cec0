"""mlir-opt's command line spellings for xgpu-opt.

`translate(argv, flags, passes)` rewrites an mlir-opt command line into
xgpu-opt's (xdsl-opt's) own:
- LLVM's single-dash long options (`-split-input-file`) are the double-dash
  ones; `--mlir-print-op-generic` and `--mlir-print-debuginfo` are
  `--print-op-generic` and `--print-debuginfo`;
- a pass flag `-canonicalize` or `--gpu-kernel-outlining=data-layout-str=...`
  and `--pass-pipeline='builtin.module(func.func(canonicalize))'` become one
  `-p` pipeline, in the order written (together with any `-p`); nesting under
  op anchors is dropped, as xgpu's passes run on the whole module;
- an unknown flag, pass or pass option is a `CliError` whose message names the
  closest known spelling.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence

from xdsl.passes import ModulePass

# mlir-opt flag -> xgpu-opt flag
_ALIASES = {
    "--mlir-print-op-generic": "--print-op-generic",
    "--mlir-print-debuginfo": "--print-debuginfo",
}
# mlir-opt flags without effect on xgpu-opt's output.
_IGNORED = frozenset({"--mlir-disable-threading"})
_PIPELINE_FLAGS = ("--pass-pipeline",)
# MLIR pass options that change nothing in xgpu's output (checks xgpu does not
# make): accepted and dropped.
_NO_EFFECT_OPTIONS = {"canonicalize": frozenset({"test-convergence"})}
_PLAIN_VALUE = re.compile(r"-?[0-9]+(?:\.[0-9]+)?|[A-Za-z_][\w-]*")
_OPENERS = {"(": ")", "{": "}", "[": "]", "<": ">"}


class CliError(Exception):
    """A command line xgpu-opt cannot run (one line, for `xgpu-opt: error: `)."""


def _closest(word: str, candidates: Iterable[str]) -> str | None:
    import difflib  # for error messages only

    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def _did_you_mean(word: str, candidates: Iterable[str]) -> str:
    best = _closest(word, candidates)
    return f", did you mean '{best}'?" if best else ""


def split_options(text: str) -> list[str]:
    """MLIR's pass option string `a=1 b="x y" c=<...>` split at the spaces that
    are outside quotes and brackets."""
    items: list[str] = []
    current = ""
    closers: list[str] = []
    quote = ""
    for ch in text:
        if quote:
            current += ch
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
            current += ch
        elif ch in _OPENERS:
            closers.append(_OPENERS[ch])
            current += ch
        elif closers and ch == closers[-1]:
            closers.pop()
            current += ch
        elif ch == " " and not closers:
            if current:
                items.append(current)
            current = ""
        else:
            current += ch
    if current:
        items.append(current)
    return items


def _spec_value(value: str) -> str:
    """A value as xDSL's pipeline syntax writes it."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    elif _PLAIN_VALUE.fullmatch(value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def pass_spec(name: str, options: str, passes: Mapping[str, Callable[[], type[ModulePass]]]) -> str:
    """`name` with MLIR's option string, in xDSL's syntax (`name{a=1 b="x"}`)."""
    if name not in passes:
        raise CliError(
            f"'{name}' does not refer to a registered pass or pass pipeline"
            + _did_you_mean(name, passes)
        )
    items = split_options(options.strip())
    if not items:
        return name
    known = pass_options(passes[name]())
    parts = []
    for item in items:
        key, eq, value = item.partition("=")
        if key.replace("_", "-") in _NO_EFFECT_OPTIONS.get(name, ()):
            continue
        if key.replace("_", "-") not in known:
            raise CliError(f"no such option '{key}' for pass '{name}'" + _options_hint(key, known))
        parts.append(f"{key}={_spec_value(value)}" if eq else key)
    return f"{name}{{{' '.join(parts)}}}" if parts else name


def pass_options(pass_type: type[ModulePass]) -> list[str]:
    """The option names of a pass, spelled as on the command line."""
    if not dataclasses.is_dataclass(pass_type):
        return []
    return [f.name.replace("_", "-") for f in dataclasses.fields(pass_type)]


def _options_hint(key: str, known: list[str]) -> str:
    best = _closest(key.replace("_", "-"), known)
    if best:
        return f", did you mean '{best}'?"
    return f" (its options: {', '.join(known)})" if known else " (it has no options)"


def _split_pipeline(text: str) -> list[str]:
    """The top-level comma-separated items of an MLIR pipeline."""
    items, depth, current = [], 0, ""
    quote = ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "({[<":
            depth += 1
        elif ch in ")}]>":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            items.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        items.append(current.strip())
    return items


_ITEM = re.compile(r"([\w.$-]+)\s*(?:\{(.*?)\})?\s*(?:\((.*)\))?", re.S)


def mlir_pipeline(
    text: str, passes: Mapping[str, Callable[[], type[ModulePass]]], anchor: str | None = None
) -> list[str]:
    """The passes of `--pass-pipeline` (MLIR's textual pipeline) in xgpu-opt's
    syntax. `anchor` is the path of op names the items run on (None: the
    pipeline's root, "": the module); passes nested under ops inside the module
    run on those ops only (`xgpu-nest`)."""
    specs: list[str] = []
    for item in _split_pipeline(text):
        m = _ITEM.fullmatch(item)
        if m is None:
            raise CliError(f"invalid pass pipeline '{item}'")
        name, options, nested = m.group(1), m.group(2), m.group(3)
        if nested is not None:
            if anchor is None:
                if name not in ("builtin.module", "any"):
                    raise CliError(
                        f"can't add pass restricted to '{name}' on a PassManager intended "
                        "to run on 'builtin.module'"
                    )
                inner = ""
            else:
                inner = f"{anchor}/{name}" if anchor else name
            specs.extend(mlir_pipeline(nested, passes, inner))
            continue
        spec = pass_spec(name, options or "", passes)
        if anchor:
            spec = f"xgpu-nest{{anchor={_spec_value(anchor)} pipeline={_spec_value(spec)}}}"
        specs.append(spec)
    return specs


def check_pipeline(spec: str, passes: Mapping[str, Callable[[], type[ModulePass]]]) -> None:
    """Raise a CliError for an unknown pass or option in an xgpu-opt `-p` pipeline."""
    from xdsl.utils.arg_spec import parse_pipeline
    from xdsl.utils.exceptions import ArgSpecParseError

    try:
        specs = list(parse_pipeline(spec))
    except ArgSpecParseError as err:
        raise CliError(f"invalid pass pipeline '{spec}': {str(err).splitlines()[0]}") from None
    for item in specs:
        if item.name not in passes:
            raise CliError(
                f"'{item.name}' does not refer to a registered pass or pass pipeline"
                + _did_you_mean(item.name, passes)
            )
        pass_type = passes[item.name]()
        known = pass_options(pass_type)
        for key in item.parameters:
            if key.replace("_", "-") not in known:
                raise CliError(
                    f"no such option '{key}' for pass '{item.name}'" + _options_hint(key, known)
                )
        try:
            pass_type.from_pass_spec(item)
        except (ValueError, TypeError) as err:
            raise CliError(f"invalid options for pass '{item.name}': {err}") from None


def translate(
    argv: Iterable[str],
    flags: Mapping[str, bool],
    passes: Mapping[str, Callable[[], type[ModulePass]]],
) -> list[str]:
    """xgpu-opt's command line for `argv` (see the module docstring). `flags`
    maps each option string xgpu-opt knows to whether it takes a value."""
    out: list[str] = []
    pipeline: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out.extend(args[i - 1 :])
            break
        if not arg.startswith("-") or arg == "-":
            out.append(arg)
            continue
        name, eq, value = arg.partition("=")
        long = "-" + name if not name.startswith("--") and len(name) > 2 else name
        if name in ("-p", "--passes") or long == "--passes":
            if not eq:
                if i >= len(args):
                    raise CliError(f"option '{name}' needs a value")
                value = args[i]
                i += 1
            pipeline.append(value)
            continue
        if long in _PIPELINE_FLAGS:
            if not eq:
                if i >= len(args):
                    raise CliError(f"option '{name}' needs a value")
                value = args[i]
                i += 1
            pipeline.extend(mlir_pipeline(value, passes))
            continue
        if long in _IGNORED:
            continue
        if long in _ALIASES:
            out.append(_ALIASES[long])
            continue
        for spelling in (name, long):
            if spelling in flags:
                takes_value = flags[spelling]
                if eq and not takes_value:
                    raise CliError(f"option '{spelling}' takes no value")
                out.append(f"{spelling}={value}" if eq else spelling)
                if takes_value and not eq and i < len(args):
                    out.append(args[i])
                    i += 1
                break
        else:
            pass_name = long[2:]
            if pass_name in passes:
                pipeline.append(pass_spec(pass_name, value, passes))
                continue
            candidates = [*flags, *_ALIASES, *_PIPELINE_FLAGS, *(f"--{p}" for p in passes)]
            raise CliError(
                f"unknown command line argument '{arg if not eq else name}'"
                + _did_you_mean(long, [c for c in candidates if c.startswith("--")])
            )
    if pipeline:
        out.extend(["-p", ",".join(pipeline)])
    return out


def fail(message: str) -> None:
    """Report a command line error on one line and exit with status 1."""
    print(f"xgpu-opt: error: {message}", file=sys.stderr)
    sys.exit(1)


def install(
    parser: argparse.ArgumentParser,
    flags: Mapping[str, bool],
    passes: Mapping[str, Callable[[], type[ModulePass]]],
) -> None:
    """Give xgpu-opt's argument parser `--mlir-style` and mlir-opt's spellings
    (`flags`: xgpu-opt's option strings, each with whether it takes a value)."""
    parser.add_argument(
        "--mlir-style",
        action="store_true",
        help="print as mlir-opt 22 does (its value names, `module`, `return`, ...)",
    )
    known = {**flags, "--mlir-style": False}
    parse_args = parser.parse_args

    def parse(args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None):
        argv = sys.argv[1:] if args is None else list(args)
        try:
            argv = translate(argv, known, passes)
        except CliError as err:
            fail(str(err))
        return parse_args(argv, namespace)

    parser.parse_args = parse  # pyright: ignore[reportAttributeAccessIssue]
