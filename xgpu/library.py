"""xgpu as a library: parse, verify and transform MLIR text with the
diagnostics mlir-opt 22 gives, for compilers that embed xgpu.

    import xgpu

    module = xgpu.parse(text, "kernels.mlir")      # raises ParseDiagnosticError
    errors = xgpu.verify(module)                   # every error, [] when valid
    remarks = xgpu.run_pipeline(module, "canonicalize,gpu-async-simplify")
    print(xgpu.print_mlir(module))

- `ParseDiagnosticError` is an xDSL `ParseError` and a `DiagnosticException`;
  `str(err)` is what mlir-opt prints (`file:line:col: error: message`, the
  source line, a caret); `err.diagnostics` holds the `Diagnostic` objects.
- `verify` returns a `Diagnostics` list: each error mlir-opt reports, in its
  order (`.first` is the first, or None).
- `run_pipeline` runs an xgpu-opt pass pipeline (the names of
  `xgpu-opt -p`) and verifies after each pass, as mlir-opt does; it returns
  the warnings and remarks the passes emitted and raises
  `PassDiagnosticError` (with every diagnostic) when a pass reports an error.
- Every entry point takes an optional Context: one from `xgpu.make_context()`
  is used as is; any other (say, one with xDSL's own dialects registered) is
  extended into a new one where xgpu's dialects replace xDSL's of the same
  name (the given context is left as it was).
"""

from __future__ import annotations

import difflib
import re
import weakref
from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import (
    DiagnosticException,
    ParseError,
    PassFailedException,
    VerifyException,
)
from xdsl.utils.lexer import Input, Span

from xgpu import diagnostics
from xgpu.diagnostics import Diagnostic, LineIndex, Location, SourceFiles, format_diagnostic

__all__ = [
    "Diagnostics",
    "ParseDiagnosticError",
    "PassDiagnosticError",
    "PipelineError",
    "VerifyDiagnosticError",
    "XGpuDiagnosticError",
    "context",
    "make_context",
    "parse",
    "run_pipeline",
    "verify",
]

# The contexts xgpu made (used as they are), by id.
_XGPU_CONTEXTS: weakref.WeakValueDictionary[int, Context] = weakref.WeakValueDictionary()
# The source text of each module `parse` returned, for the caret lines.
_SOURCES: weakref.WeakKeyDictionary[Operation, SourceFiles] = weakref.WeakKeyDictionary()


# ---------------------------------------------------------------- diagnostics


class Diagnostics(list[Diagnostic]):
    """Diagnostics in the order mlir-opt reports them."""

    def __init__(self, items: Iterable[Diagnostic] = (), sources: SourceFiles | None = None):
        super().__init__(items)
        self.sources = sources

    @property
    def first(self) -> Diagnostic | None:
        """The first diagnostic (what a driver that stops at one would show)."""
        return self[0] if self else None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity == "error"]

    def format(self) -> str:
        """The text mlir-opt prints for these diagnostics (with the source
        lines where the text is known)."""
        return "\n".join(format_diagnostic(d, self.sources) for d in self)


class XGpuDiagnosticError(DiagnosticException):
    """An error reported as mlir-opt's diagnostics: `str(err)` is their text,
    `err.diagnostics` the `Diagnostic` objects (`err.diagnostic`: the first)."""

    def __init__(self, found: Iterable[Diagnostic], sources: SourceFiles | None = None):
        self.diagnostics = Diagnostics(found, sources)
        DiagnosticException.__init__(self, self.diagnostics.format())

    @property
    def diagnostic(self) -> Diagnostic:
        return self.diagnostics[0]

    def __str__(self) -> str:
        return self.diagnostics.format()


class ParseDiagnosticError(XGpuDiagnosticError, ParseError):
    """MLIR text that does not parse (also an xDSL `ParseError`, whose `span`
    is where the error is)."""

    def __init__(self, diag: Diagnostic, span: Span, sources: SourceFiles):
        XGpuDiagnosticError.__init__(self, [diag], sources)
        self.span = span
        self.msg = diag.message

    __str__ = XGpuDiagnosticError.__str__


class VerifyDiagnosticError(XGpuDiagnosticError, VerifyException):
    """IR that fails to verify (every error mlir-opt's verifier reports)."""


class PassDiagnosticError(XGpuDiagnosticError, PassFailedException):
    """A pass of a pipeline reported an error (or left IR that fails to
    verify): every diagnostic the pipeline emitted, the warnings too."""


class PipelineError(XGpuDiagnosticError, ValueError):
    """A pipeline string that names an unknown pass or a bad option."""


# ------------------------------------------------------------------- contexts


def make_context(allow_unregistered: bool = False) -> Context:
    """A Context with every dialect xgpu-opt has (xgpu's in place of xDSL's)."""
    from xgpu.tools.xgpu_opt import make_context as _make

    ctx = _make(allow_unregistered)
    _XGPU_CONTEXTS[id(ctx)] = ctx
    return ctx


def context(ctx: Context | None = None, allow_unregistered: bool | None = None) -> Context:
    """The Context xgpu parses and transforms with: `ctx` itself when xgpu made
    it, else a new context with xgpu's dialects and those of `ctx` that xgpu
    does not replace (`ctx` is not changed)."""
    if ctx is None:
        return make_context(bool(allow_unregistered))
    if _XGPU_CONTEXTS.get(id(ctx)) is ctx and (
        allow_unregistered is None or allow_unregistered == ctx.allow_unregistered
    ):
        return ctx
    new = make_context(ctx.allow_unregistered if allow_unregistered is None else allow_unregistered)
    known = set(new.registered_dialect_names)
    for name in list(ctx.registered_dialect_names):
        if name not in known:
            new.register_dialect(name, lambda name=name: ctx.get_dialect(name))
            known.add(name)
    for dialect in list(ctx.loaded_dialects):
        if dialect.name not in known:
            new.register_dialect(dialect.name, lambda dialect=dialect: dialect)
            known.add(dialect.name)
    # Ops and attributes loaded on their own, outside any dialect xgpu has.
    for op in list(ctx.loaded_ops):
        if op.name.split(".", 1)[0] not in known and new.get_optional_op(op.name) is None:
            new.load_op(op)
    for attr in list(ctx.loaded_attrs):
        if attr.name.split(".", 1)[0] not in known and new.get_optional_attr(attr.name) is None:
            new.load_attr_or_type(attr)
    return new


# ---------------------------------------------------------------------- parse


def _span_at(text: str, name: str, diag: Diagnostic) -> Span:
    """The one-character span of `text` at the diagnostic's line and column."""
    offset = 0
    if diag.location is not None:
        lines = text.split("\n")
        line = min(max(diag.location.line, 1), len(lines))
        offset = sum(len(t) + 1 for t in lines[: line - 1]) + max(diag.location.col - 1, 0)
        offset = min(offset, len(text))
    return Span(offset, min(offset + 1, len(text)), Input(text, name))


_UNDEFINED = re.compile(r"values used but not defined: \[(.*)\]")
_TOKENS = re.compile(r'//[^\n]*|"(?:[^"\\\n]|\\.)*"|%[\w$.-]+')


def undeclared_value_diagnostics(text: str, name: str, message: str) -> list[Diagnostic] | None:
    """mlir-opt's diagnostics for xDSL's `values used but not defined: [%a,
    ...]` (raised at the end of the input): `use of undeclared SSA value name`
    at the first use of each value, in the order of the text. None for any
    other message."""
    match = _UNDEFINED.fullmatch(message)
    if match is None:
        return None
    wanted = {v.strip() for v in match[1].split(",") if v.strip()}
    index = LineIndex(text)
    found: list[Diagnostic] = []
    for token in _TOKENS.finditer(text):
        value = token.group()
        if value in wanted:
            wanted.discard(value)
            line, col = index.line_col(token.start())
            loc = Location(name, line, col)
            found.append(Diagnostic("error", "use of undeclared SSA value name", loc))
    return found or None


def parse(
    text: str,
    name: str = "<input>",
    ctx: Context | None = None,
    *,
    allow_unregistered: bool | None = None,
    verify: bool = False,
) -> ModuleOp:
    """Parse MLIR text with every dialect xgpu-opt has. Bad input raises
    `ParseDiagnosticError` with mlir-opt's diagnostic; with `verify`, IR that
    fails to verify raises `VerifyDiagnosticError`."""
    from xgpu.ir.nesting import TOO_DEEP
    from xgpu.tools.xgpu_opt import (
        LocatingParser,
        parse_error_diagnostic,
        parse_exception_message,
    )

    ctx = context(ctx, allow_unregistered)
    sources = SourceFiles()
    sources.add(name, text)
    parser = None
    try:
        parser = LocatingParser(ctx, text, name)
        module = parser.parse_module()
    except ParseError as err:
        undeclared = undeclared_value_diagnostics(text, name, err.msg)
        if undeclared is not None:
            error = ParseDiagnosticError(
                undeclared[0], _span_at(text, name, undeclared[0]), sources
            )
            error.diagnostics.extend(undeclared[1:])
            raise error from None
        diag = parse_error_diagnostic(err, 0, ctx)
        raise ParseDiagnosticError(diag, err.span, sources) from None
    except DiagnosticException as err:
        # A located parse error (a use of an undefined value), or an attribute
        # that fails its own verifier while it is built.
        located = getattr(err, "diag", None)
        if isinstance(located, Diagnostic):
            diag = located
        elif parser is not None:
            diag = parser.diagnostic_here(str(err))
        else:
            raise
        raise ParseDiagnosticError(diag, _span_at(text, name, diag), sources) from None
    except RecursionError:
        if parser is None:
            raise
        diag = parser.diagnostic_here(TOO_DEEP)
        raise ParseDiagnosticError(diag, _span_at(text, name, diag), sources) from None
    except Exception as err:
        # xDSL raises other exceptions for some malformed input.
        if parser is None:
            raise
        diag = parser.diagnostic_here(parse_exception_message(err))
        raise ParseDiagnosticError(diag, _span_at(text, name, diag), sources) from None
    _SOURCES[module] = sources
    if verify and (found := _verify(module)):
        raise VerifyDiagnosticError(found, sources)
    return module


# --------------------------------------------------------------------- verify


def _sources_of(op: Operation) -> SourceFiles | None:
    while op is not None:
        if (found := _SOURCES.get(op)) is not None:
            return found
        op = op.parent_op()
    return None


def verify(op: Operation) -> Diagnostics:
    """Every error mlir-opt's verifier reports for `op` (the first failure in
    each function, module, ... that holds one), in mlir-opt's order; empty
    when the IR is valid."""
    from xgpu.ir.verifier import verify_all

    return Diagnostics(verify_all(op), _sources_of(op))


def _verify(op: Operation) -> Diagnostics:
    return verify(op)


# ------------------------------------------------------------------ pipelines


def _split_top_level(spec: str) -> list[str]:
    """`a,b{x="1,2"},c(d,e)` -> `a`, `b{x="1,2"}`, `c(d,e)`."""
    parts: list[str] = []
    depth, quote, start = 0, False, 0
    for i, char in enumerate(spec):
        if char == '"':
            quote = not quote
        elif not quote and char in "({":
            depth += 1
        elif not quote and char in ")}":
            depth -= 1
        elif not quote and char == "," and depth == 0:
            parts.append(spec[start:i])
            start = i + 1
    parts.append(spec[start:])
    return [p.strip() for p in parts if p.strip()]


_ANCHOR = re.compile(r"([\w$]+\.[\w$.]+)\((.*)\)", re.DOTALL)


def flatten_pipeline(spec: str) -> str:
    """An mlir-opt pass pipeline (`builtin.module(func.func(canonicalize),
    gpu-kernel-outlining)`) as xgpu-opt's pass list: the op anchors dropped
    (xgpu's passes find the ops they work on themselves)."""
    out: list[str] = []
    for part in _split_top_level(spec):
        match = _ANCHOR.fullmatch(part)
        out.append(flatten_pipeline(match[2]) if match else part)
    return ",".join(p for p in out if p)


def _pipeline(spec: str, callback) -> PassPipeline:  # type: ignore[no-untyped-def]
    from xgpu.tools.xgpu_opt import pass_registry

    spec = flatten_pipeline(spec)

    available = pass_registry()
    try:
        return PassPipeline.parse_spec(available, spec, callback)
    except ValueError as err:
        message = str(err)
        if message.startswith("Unrecognized passes: "):
            from xdsl.utils.arg_spec import parse_pipeline

            unknown = [p.name for p in parse_pipeline(spec) if p.name not in available]
            message = f"'{unknown[0]}' does not refer to a registered pass or pass pipeline"
            close = difflib.get_close_matches(unknown[0], list(available), n=1)
            if close:
                message += f" (did you mean '{close[0]}'?)"
        raise PipelineError([Diagnostic("error", message, None)]) from None
    except Exception as err:
        message = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise PipelineError([Diagnostic("error", message, None)]) from None


class _VerifyFailed(Exception):
    def __init__(self, found: list[Diagnostic]):
        super().__init__(found[0].message)
        self.found = found


def run_pipeline(
    module: ModuleOp,
    pipeline: str,
    ctx: Context | None = None,
    *,
    verify_each: bool = True,
) -> Diagnostics:
    """Run the xgpu-opt pass pipeline `pipeline` (`"canonicalize,cse"`,
    `'gpu-kernel-outlining{data-layout-str="..."}'`; mlir-opt's op anchors,
    `builtin.module(func.func(canonicalize))`, are dropped) on `module`, in place.
    Returns the warnings and remarks the passes emitted; raises
    `PassDiagnosticError` with every diagnostic when a pass reports an error
    or, with `verify_each`, leaves IR that fails to verify (checked before
    the first pass too, as mlir-opt does); `PipelineError` for an unknown
    pass or option."""
    sources = _sources_of(module)

    def callback(previous: ModulePass | None, op: ModuleOp, _next: ModulePass | None) -> None:
        if previous is not None and verify_each and (found := verify(op)):
            raise _VerifyFailed(found)

    passes = _pipeline(pipeline, callback)
    if verify_each and (found := verify(module)):
        raise VerifyDiagnosticError(found, sources)
    ctx = context(ctx)
    with diagnostics.collecting() as engine:
        try:
            passes.apply(ctx, module)
        except _VerifyFailed as failed:
            engine.diagnostics.extend(failed.found)
        except DiagnosticException as err:
            text = str(err)
            message = text.splitlines()[0] if text else type(err).__name__
            engine.diagnostics.append(Diagnostic("error", message, None))
    if engine.has_errors:
        raise PassDiagnosticError(engine.diagnostics, sources)
    return Diagnostics(engine.diagnostics, sources)
