"""xgpu-opt: xdsl-opt with xgpu's gpu dialect in place of xDSL's.

Every xdsl-opt flag and pass keeps working. What differs, to behave like
mlir-opt:
- parse and verifier errors are diagnostics `FILE:LINE:COL: error: 'gpu.op' op
  MESSAGE` with the source line and a caret, never a Python traceback, and the
  exit status is 1;
- ops remember where they were parsed, so verifier errors point at them;
- `--verify-diagnostics` checks `expected-error`/`-warning`/`-note`/`-remark`
  annotations against the diagnostics produced, per `--split-input-file` chunk;
- xDSL passes and targets that only know xDSL's own gpu classes are removed.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from xgpu import diagnostics
from xgpu.diagnostics import Diagnostic, SourceFiles, format_diagnostic
from xgpu.ir.nesting import TOO_DEEP, deep_call
from xgpu.ir.parser import LocatedParseError, LocatingParser, parse_error_diagnostic
from xgpu.ir.printer import XGpuMLIRTarget
from xgpu.ir.verifier import generic_text, verify_ir
from xgpu.tools import mlir_cli
from xgpu.tools.oracle import find_mlir_opt

if TYPE_CHECKING:
    from xgpu.tools.verify_diagnostics import Expectation

# xDSL passes and targets that build or match xDSL's own gpu classes: they would
# silently do nothing (or the wrong thing) on xgpu's ops.
_XDSL_GPU_PASSES = ("memref-to-gpu", "gpu-map-parallel-loops")
_XDSL_GPU_TARGETS = ("wgsl",)


@dataclass
class ChunkResult:
    output: str | None
    diagnostics: list[Diagnostic]


class _VerifierFailed(Exception):
    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


def split_chunks(text: str, split: bool) -> list[tuple[str, int]]:
    """MLIR's `--split-input-file`: chunks separated by `// -----` lines, each with
    the number of lines before it."""
    if not split:
        return [(text, 0)]
    chunks: list[tuple[str, int]] = []
    offset = 0
    for chunk in text.split("// -----"):
        chunks.append((chunk, offset))
        offset += chunk.count("\n")
    return chunks


def pass_registry() -> dict[str, Callable[[], type[ModulePass]]]:
    """xgpu-opt's passes: xDSL's, less its gpu ones, plus xgpu's (which win on
    a shared name, e.g. `canonicalize`)."""
    from xgpu.dialects import multiverse
    from xgpu.transforms import get_all_passes

    passes = dict(multiverse().all_passes)
    for name in _XDSL_GPU_PASSES:
        passes.pop(name, None)
    passes.update(get_all_passes())
    return passes


class XGpuOptMain(xDSLOptMain):
    version_format = "xgpu-opt (MLIR 22 gpu dialect) built on xdsl version {xdsl_version}"

    def __init__(self, description: str = "xgpu modular optimizer driver", args=None):
        # xdsl-opt's --disable-verify replaces Attribute.__post_init__ for the whole
        # process; remember the real one so that `run` can put it back.
        self._attribute_post_init = Attribute.__post_init__
        # xdsl-opt's `mlir-opt[...]` pass runs $XDSL_MLIR_OPT or `mlir-opt`; let it
        # find MLIR 22 as installed by Debian (`mlir-opt-22`) too.
        if "XDSL_MLIR_OPT" not in os.environ and (oracle := find_mlir_opt()) is not None:
            os.environ["XDSL_MLIR_OPT"] = oracle
        super().__init__(description, args)

    # ---------------------------------------------------------------- registry
    def register_all_dialects(self) -> None:
        from xgpu.ir.context import XGpuContext

        self.ctx = XGpuContext()
        register_xgpu_dialects(self.ctx)

    def register_all_passes(self) -> None:
        self.available_passes.update(pass_registry())

    def register_all_frontends(self) -> None:
        from xgpu.dialects import multiverse

        for name, factory in multiverse().all_frontends.items():
            self.available_frontends.setdefault(name, factory)

    def register_all_targets(self) -> None:
        # xDSL's own registration reads the installed packages' entry points
        # again (each time: ~30 ms); xgpu reads them once per process.
        from xgpu.dialects import multiverse

        for name, factory in multiverse().all_targets.items():
            self.available_targets.setdefault(name, factory)
        for name in _XDSL_GPU_TARGETS:
            self.available_targets.pop(name, None)
        self.available_targets["mlir"] = lambda: XGpuMLIRTarget
        self.available_targets["opencl"] = _opencl_target

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        flags: dict[str, bool] = {}
        for action in arg_parser._actions:
            flags.update(dict.fromkeys(action.option_strings, action.nargs != 0))
            if action.dest == "verify_diagnostics":
                action.help = (
                    "check the expected-error/warning/note/remark annotations of the "
                    "input against the diagnostics produced (MLIR's -verify-diagnostics)"
                )
            if action.dest == "parsing_diagnostics":
                action.help = "accepted for compatibility: parse errors are always diagnostics"
        mlir_cli.install(arg_parser, flags, self.available_passes)

    def setup_pipeline(self) -> None:
        def callback(
            previous: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
        ) -> None:
            if previous is not None and not self.args.disable_verify:
                if (diag := verify_ir(module)) is not None:
                    raise _VerifierFailed(diag)
            if previous and next_pass and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")

        try:
            mlir_cli.check_pipeline(self.args.passes, self.available_passes)
            self.pipeline = PassPipeline.parse_spec(
                self.available_passes, self.args.passes, callback
            )
        except (mlir_cli.CliError, ValueError) as err:
            mlir_cli.fail(_first_line(err))

    def output_resulting_program(self, prog: ModuleOp) -> str:
        if self.args.mlir_style and parse_spec(self.args.target).name == "mlir":
            from xgpu.ir.mlir_style import mlir_style_text

            return mlir_style_text(
                self.ctx, prog, self.args.print_op_generic, self.args.print_debuginfo
            )
        return super().output_resulting_program(prog)

    # --------------------------------------------------------------- running
    def process_chunk(self, text: str, name: str, line_offset: int) -> ChunkResult:
        """Parse, verify, transform and print one chunk; collect its diagnostics."""
        parser: LocatingParser | None = None
        try:
            parser = LocatingParser(self.ctx, text, name, line_offset)
            module = parser.parse_module(not self.args.no_implicit_module)
        except ParseError as err:
            return ChunkResult(None, [parse_error_diagnostic(err, line_offset, self.ctx)])
        except LocatedParseError as err:
            return ChunkResult(None, [err.diag])
        except VerifyException as err:
            # An attribute or type that fails its own verifier while being built.
            assert parser is not None
            return ChunkResult(None, [parser.diagnostic_here(str(err))])
        except RecursionError:
            # Attributes or types nested deeper than the recursion limit allows.
            if parser is None:
                raise
            return ChunkResult(None, [parser.diagnostic_here(TOO_DEEP)])
        except Exception as err:
            # xDSL raises other exceptions for some malformed input (`^0` as a block
            # name, `array<i302: ...>`): report them where the parser stands.
            if parser is None:
                raise
            return ChunkResult(None, [parser.diagnostic_here(parse_exception_message(err))])

        if not self.args.disable_verify and (diag := verify_ir(module)) is not None:
            self._add_current_op_note(diag)
            return ChunkResult(None, [diag])

        with diagnostics.collecting() as engine:
            try:
                self.apply_passes(module)
            except _VerifierFailed as failed:
                self._add_current_op_note(failed.diag)
                engine.diagnostics.append(failed.diag)
            except DiagnosticException as err:
                engine.diagnostics.append(Diagnostic("error", _first_line(err), None))
            if engine.has_errors:
                for diag in engine.diagnostics:
                    if not diag.notes or not diag.notes[0].message.startswith("see current"):
                        self._add_current_op_note(diag)
                return ChunkResult(None, engine.diagnostics)
            return ChunkResult(self._output(module), engine.diagnostics)

    def _output(self, module: ModuleOp) -> str:
        """Print the result; IR that the custom syntax cannot show (invalid IR kept
        with --disable-verify) is printed in generic form, as mlir-opt does."""
        try:
            return self.output_resulting_program(module)
        except Exception:
            if self.args.print_op_generic or parse_spec(self.args.target).name != "mlir":
                raise
            self.args.print_op_generic = True
            try:
                return self.output_resulting_program(module)
            finally:
                self.args.print_op_generic = False

    def _add_current_op_note(self, diag: Diagnostic) -> None:
        """mlir-opt adds `note: see current operation: ...` to an error about an
        op (not under -verify-diagnostics)."""
        if self.args.verify_diagnostics or diag.op is None or diag.severity != "error":
            return
        note = Diagnostic("note", f"see current operation: {generic_text(diag.op)}", diag.location)
        diag.notes.insert(0, note)

    def run(self) -> None:
        try:
            sys.exit(deep_call(self._run))
        except (KeyboardInterrupt, BrokenPipeError):
            sys.exit(1)
        finally:
            Attribute.__post_init__ = self._attribute_post_init

    def _run(self) -> int:
        name = self.get_input_name()
        if self.args.input_file in (None, "-"):
            data = sys.stdin.buffer.read()
            name = "<stdin>"
        else:
            try:
                with open(self.args.input_file, "rb") as f:
                    data = f.read()
            except OSError as err:
                print(f"xgpu-opt: error: could not open input file: {err}", file=sys.stderr)
                return 1
        text = data.decode("utf-8", errors="replace")
        sources = SourceFiles()
        sources.add(name, text)

        out: IO[str] = sys.stdout
        if self.args.output_file is not None:
            out = open(self.args.output_file, "w")
        failed = False
        # As in mlir-opt 22, the annotations are read from the whole input at
        # once (an `@above` may point across a `// -----`), and all the chunks'
        # diagnostics are checked against them.
        expectations: list[Expectation] = []
        if self.args.verify_diagnostics:
            from xgpu.tools.verify_diagnostics import check, parse_expectations

            expectations = parse_expectations(text, name, 0)
        produced: list[Diagnostic] = []
        try:
            chunks = split_chunks(text, self.args.split_input_file)
            first = True
            for chunk, line_offset in chunks:
                try:
                    result = self.process_chunk(chunk, name, line_offset)
                except RecursionError:
                    result = ChunkResult(None, [Diagnostic("error", TOO_DEEP, None)])
                except Exception as err:  # never a Python traceback
                    message = f"internal error: {type(err).__name__}: {err}"
                    result = ChunkResult(None, [Diagnostic("error", message, None)])
                if self.args.verify_diagnostics:
                    produced.extend(result.diagnostics)
                else:
                    for diag in result.diagnostics:
                        print(format_diagnostic(diag, sources), file=sys.stderr)
                    failed |= any(d.severity == "error" for d in result.diagnostics)
                if result.output is not None:
                    if not first:
                        out.write("// -----\n")
                    out.write(result.output)
                    first = False
            if self.args.verify_diagnostics:
                problems = check(expectations, produced)
                for problem in problems:
                    print(format_diagnostic(problem, sources), file=sys.stderr)
                failed |= bool(problems)
            out.flush()
        finally:
            if out is not sys.stdout:
                out.close()
        return 1 if failed else 0


def parse_exception_message(err: Exception) -> str:
    """The message for an exception other than ParseError that xDSL's parser
    raised on malformed input (reported where the parser stands)."""
    if isinstance(err, UnicodeDecodeError):
        # MLIR strings are bytes; xDSL keeps them as text.
        return "string literal is not valid UTF-8 (xgpu-opt keeps strings as text)"
    return " ".join(map(str, err.args)) or f"invalid input ({type(err).__name__})"


def _opencl_target():
    from xgpu.backend.opencl.target import OpenCLTarget

    return OpenCLTarget


def _first_line(err: Exception) -> str:
    text = str(err)
    return text.splitlines()[0] if text else type(err).__name__


def register_xgpu_dialects(
    ctx: Context, register: Callable[[str, Callable], None] | None = None
) -> None:
    """Register every dialect xdsl-opt knows, with xgpu's gpu dialect in place of
    xDSL's (and the GPU target attributes added to their dialects)."""
    from xgpu.dialects import all_dialect_overrides, multiverse

    overrides = all_dialect_overrides()
    dialects = dict(multiverse().all_dialects)
    dialects.update(overrides)
    for name, factory in dialects.items():
        ctx.register_dialect(name, factory)


def make_context(allow_unregistered: bool = False) -> Context:
    """A Context with every dialect xgpu-opt has, for use as a library."""
    from xgpu.ir.context import XGpuContext

    ctx = XGpuContext(allow_unregistered=allow_unregistered)
    register_xgpu_dialects(ctx)
    return ctx


def parse(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse MLIR text into a module (raises ParseError, or a DiagnosticException
    for a use of an undefined value, on bad input)."""
    return LocatingParser(ctx or make_context(), text, name).parse_module()


def main(argv: Sequence[str] | None = None) -> None:
    XGpuOptMain(args=argv).run()


def cli() -> None:
    """The `xgpu-opt` command (`python -m xgpu.tools.xgpu_opt` too): `main()`,
    then the process ends at once (`xgpu.tools.process_exit`). Python's
    clean-up of a large module (each op, attribute and value freed one by
    one) is about a seventh of a run on 10k launches, and nothing is left to
    do then: the output file is written and closed, the streams are flushed."""
    from xgpu.tools.process_exit import run_then_exit

    run_then_exit(main)


if __name__ == "__main__":
    cli()
