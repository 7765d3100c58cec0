"""xgpu's MLIR parser: xDSL's parser with mlir-opt 22's diagnostics.

`LocatingParser` records where each op, argument and terminator was parsed (so
verifier errors point at them), reads MLIR's location grammar, semi-affine maps
and huge splats, checks MLIR's parse-time limits, and reports errors at MLIR's
positions in MLIR's words (`parse_error_diagnostic`). xgpu-opt, xgpu-run and
`xgpu.parse` all parse with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    UnknownLoc,
    UnregisteredOp,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from xgpu import diagnostics
from xgpu.diagnostics import Diagnostic, LineIndex, Location
from xgpu.ir.affine_parser import AffineTextParser
from xgpu.ir.arg_locations import (
    argument_name_before,
    locate_implicit_terminators,
    located_argument,
)
from xgpu.ir.builtin_limits import BuiltinLimitsParser
from xgpu.ir.enum_properties import enum_property_error
from xgpu.ir.lexer import FastMLIRLexer
from xgpu.ir.line_forms import match_line
from xgpu.ir.loaded import is_instance
from xgpu.ir.locations import LocationParser
from xgpu.ir.nesting import MAX_NESTING, nesting_error, walk_ops
from xgpu.ir.speedups import gc_paused
from xgpu.ir.splats import SplatParser

_ASYNC_INTERFACE = "xgpu.dialects.gpu.async_interface"


class LocatedParseError(DiagnosticException):
    """A parse error found after parsing, at an op's recorded location."""

    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


# Messages that MLIR's generic parser reports (not prefixed) although xDSL
# raises them from an op's own parse code.
_GENERIC_PARSER_MESSAGES = frozenset(
    {"expected ','", "integer constant out of range for attribute", "expected ')' in argument list"}
)
_UNTERMINATED_STRING = "expected '\"' in string literal"
_STRING_LITERAL = re.compile(r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"')
# xDSL 0.75's string-literal regex nests `+` in `*`: an unterminated string on
# a long line backtracks exponentially (the parser hangs for minutes on 40
# characters). This one matches exactly the same strings, in linear time; it
# replaces xDSL's for every lexer (the first token is lexed in the parser's
# constructor, before an instance could be fixed).
MLIRLexer._unescaped_characters_regex = _STRING_LITERAL
_OWNED = "_xgpu_owned"
_DEFAULT_DIALECT = "_xgpu_default_dialect"
_OP_NAME = re.compile(r"[A-Za-z_][\w$.]*")


@contextmanager
def _generic_parse():
    """Mark the parse errors raised inside as not the custom op's own."""
    try:
        yield
    except ParseError as err:
        setattr(err, _OWNED, True)
        raise


def _lower_first(message: str) -> str:
    """xDSL capitalizes some messages (`Expected ':'`); MLIR does not."""
    if message.startswith("Expected "):
        return "e" + message[1:]
    return message


def _default_segment_sizes(op: Operation) -> None:
    """MLIR reads a missing `operandSegmentSizes` as all zeros: an op without
    operands written in generic form without it is valid, and gets the zeros."""
    if (
        isinstance(op, IRDLOperation)
        and not op.operands
        and "operandSegmentSizes" not in op.properties
        and "operandSegmentSizes" not in op.attributes
        and any(isinstance(o, AttrSizedOperandSegments) for o in op.get_irdl_definition().options)
    ):
        zeros = [0] * len(op.get_irdl_definition().operands)
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, zeros)


# Type texts whose parse does not depend on anything but the text: no nested
# `<`, no affine maps, no strings, no attribute dictionaries.
_SIMPLE_TYPE = re.compile(
    r"(?:memref|tensor|vector)<[^<>{}\"()-]*>(?![\w.])|![a-z_][\w.]*(?![\w.<])|"
    r"(?:index|[isu]?i[0-9]+|f16|bf16|f32|f64)(?![\w.<])"
)

_ARGUMENT_END = (MLIRTokenKind.COMMA, MLIRTokenKind.R_PAREN)
_SIMPLE_SYMBOL_REF = re.compile(r"@[a-zA-Z_][\w$.]*(?:::@[a-zA-Z_][\w$.]*)*(?![\w$.:])")
_L_BRACE = MLIRTokenKind.L_BRACE
_PERCENT = MLIRTokenKind.PERCENT_IDENT
# A result list of one value: the name (the whole `%...` token) then `=`.
_SINGLE_RESULT = re.compile(r"(%[^\s=:,]+)[ \t]*=")
_new_location = object.__new__


def _int_attr(value: int) -> Attribute:
    attr = _INT_ATTRS.get(value)
    if attr is None:
        attr = _INT_ATTRS[value] = IntAttr(value)
    return attr


_INT_ATTRS: dict[int, IntAttr] = {}


class LocatingParser(LocationParser, SplatParser, AffineTextParser, BuiltinLimitsParser):
    """A parser that records where each op was written (its name token), as a
    `loc("file":line:col)` location on the op, like MLIR's parser does."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(FastMLIRLexer(Input(text, name)))
        self._text_cache: dict[str, Attribute] = {}
        self._caching = False
        self._file = name
        self._line_offset = line_offset
        self._index = LineIndex(text)
        self._name_positions: list[tuple[int, int]] = []
        # Where the last `loc(...)` ended, and the last top-level op parsed.
        self._location_end = -1
        self._attribute_span = (-1, -1)
        self._top_op: Operation | None = None
        self._file_attr: Attribute | None = None
        self._region_depth = 0
        # Whether a value was used before its definition (`resolve_operand`
        # then made a forward reference).
        self._forward_references = False
        # The `<{...}>` of each generic op being parsed, as written.
        self._written_properties: list[dict[str, Attribute] | None] = []

    @property
    def text_cache(self) -> dict[str, Attribute]:
        """The simple types and symbol references read so far, by their text
        (attributes are immutable: the same object serves each occurrence)."""
        return self._text_cache

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        with gc_paused():
            return self._parse_module(allow_implicit_module)

    def _parse_module(self, allow_implicit_module: bool) -> ModuleOp:
        # mlir-opt accepts an input (or split chunk) with no op: an empty module.
        if allow_implicit_module and self._current_token.kind == MLIRTokenKind.EOF:
            module = ModuleOp([])
        else:
            module = super().parse_module(allow_implicit_module)
        if module is not self._top_op and isinstance(module.location, UnknownLoc):
            # MLIR's implicit module is at the start of its buffer: 0:0 for a
            # file, just after the `// -----` for a later split chunk.
            line, col = (self._line_offset + 1, 9) if self._line_offset else (0, 0)
            module.location = diagnostics.make_location_attr(self._file, line, col)
        # xDSL can leave a forward reference unresolved when its definition was
        # in a region that closed before; MLIR rejects such a use.
        for op in walk_ops(module) if self._forward_references else ():
            for operand in op.operands:
                if isinstance(operand, ForwardDeclaredValue):
                    loc = diagnostics.location_of(op)
                    raise LocatedParseError(
                        Diagnostic("error", "use of undeclared SSA value name", loc, op=op)
                    )
        return module

    def resolve_operand(self, operand, type):  # type: ignore[no-untyped-def]
        if operand.operand_name not in self.ssa_values:
            self._forward_references = True
        return super().resolve_operand(operand, type)

    def parse_optional_location(self):
        location = super().parse_optional_location()
        if location is not None:
            self._location_end = self._current_token.span.start
            return location
        if self._current_token.kind in _ARGUMENT_END:
            return self._block_argument_location()
        return None

    def _block_argument_location(self) -> Attribute | None:
        """Where the argument `%name: type` just read is, for a block label's
        argument without `loc(...)` (xDSL asks for the location right after
        the type, before the `,` or `)`), as MLIR locates it."""
        start, end = self._attribute_span
        if end != self._current_token.span.start:
            return None
        at = argument_name_before(self.lexer.input.content, start)
        if at is None:
            return None
        line, col = self._index.line_col(at)
        return diagnostics.make_location_attr(self._file, line + self._line_offset, col)

    def parse_optional_argument(self, expect_type: bool = True):
        # As in MLIR, an argument is where its name is, unless written otherwise.
        arg = super().parse_optional_argument(expect_type)
        if arg is None:
            return None
        line, col = self._index.line_col(arg.name.start)
        location = diagnostics.make_location_attr(self._file, line + self._line_offset, col)
        return located_argument(arg, location)

    def _op_location(self, line: int, col: int) -> Attribute:
        """`loc("file":line:col)`, as `diagnostics.make_location_attr` makes it,
        built without checking its parameters again (a string and two
        integers, made right here): every op of the input gets one."""
        filename = self._file_attr
        if filename is None:
            filename = self._file_attr = diagnostics.make_location_attr(self._file, 1, 1).filename
        loc = _new_location(FileLineColLoc)
        object.__setattr__(loc, "filename", filename)
        object.__setattr__(loc, "line", _int_attr(line))
        object.__setattr__(loc, "column", _int_attr(col))
        return loc

    def _parse_op_result_list(self):
        token = self._current_token
        match = None
        if token.kind is _PERCENT:
            match = _SINGLE_RESULT.match(self.lexer.input.content, token.span.start)
        if match is not None and match.end(1) == token.span.end:
            # `%name =`, by far the most common: xDSL's general code would read
            # the same, a one-value result list.
            self._resume_from(match.end())
            results = [(token.span, 1)]
        else:
            results = super()._parse_op_result_list()
        self._name_positions.append((self._current_token.span.start, len(results)))
        return results

    # MLIR prefixes the errors that a custom op's own parser reports with
    # `custom op 'NAME' `, but not those of the attributes, types and regions
    # it parses through the generic parser. Errors raised inside these entry
    # points are marked so that the op does not prefix them.
    def parse_optional_type(self):
        if (cached := self._cached_type()) is not None:
            return cached
        with _generic_parse():
            return super().parse_optional_type()

    def parse_type(self):
        if (cached := self._cached_type()) is not None:
            return cached
        with _generic_parse():
            return super().parse_type()

    def _cached_type(self) -> Attribute | None:
        """The type written at the current token when the same text was parsed
        before (types such as `memref<?xf32>` repeat on every line of a host
        program and cost more to build than to look up)."""
        kind = self._current_token.kind
        if kind is not MLIRTokenKind.BARE_IDENT and kind is not MLIRTokenKind.EXCLAMATION_IDENT:
            return None
        return self._cached(_SIMPLE_TYPE, super().parse_type)

    def _cached_symbol_ref(self) -> Attribute | None:
        """`@m::@f` written before (every launch of a kernel names it)."""
        if self._current_token.kind is not MLIRTokenKind.AT_IDENT:
            return None
        return self._cached(_SIMPLE_SYMBOL_REF, super().parse_attribute)

    def _cached(self, pattern: re.Pattern[str], parse: Callable[[], Attribute]) -> Attribute | None:
        """Parse the text `pattern` matches at the current token once per parser."""
        match = pattern.match(self.lexer.input.content, self._current_token.span.start)
        if match is None:
            return None
        text = match.group()
        cached = self._text_cache.get(text)
        if cached is not None:
            self._resume_from(match.end())
            return cached
        if self._caching:
            return None
        self._caching = True
        try:
            with _generic_parse():
                parsed = parse()
        finally:
            self._caching = False
        if self._current_token.span.start >= match.end():
            self._text_cache[text] = parsed
        return parsed

    def parse_optional_attribute(self):
        if (cached := self._cached_symbol_ref()) is not None:
            return cached
        with _generic_parse():
            return super().parse_optional_attribute()

    def parse_attribute(self):
        if (cached := self._cached_symbol_ref()) is not None:
            return cached
        start = self._current_token.span.start
        with _generic_parse():
            attr = super().parse_attribute()
        self._attribute_span = (start, self._current_token.span.start)
        return attr

    def parse_optional_region(self, *args, **kwargs):
        with _generic_parse():
            if self._region_depth >= MAX_NESTING and self._current_token.kind is _L_BRACE:
                self.raise_error(nesting_error())
            self._region_depth += 1
            try:
                return super().parse_optional_region(*args, **kwargs)
            finally:
                self._region_depth -= 1

    def parse_region(self, arguments=None):
        region = self.parse_optional_region(arguments)
        if region is None:
            # MLIR's generic parser reports it (not the custom op's parser).
            with _generic_parse():
                self.raise_error("expected '{' to begin a region")
        return region

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # mlir-opt 22 registers MLIR's `test` dialect, which allows unknown ops:
        # a generic `"test.anything"(...)` op needs no --allow-unregistered-dialect.
        if name.startswith("test.") and self.ctx.get_optional_op(name) is None:
            before = self.lexer.input.content[: self._current_token.span.start]
            if before.rstrip().endswith('"'):
                return UnregisteredOp.with_name(name)
        return super()._get_op_by_name(name)

    def _parse_generic_operation(self, op_type: type[Operation]) -> Operation:
        self._written_properties.append(None)
        try:
            op = super()._parse_generic_operation(op_type)
        finally:
            written = self._written_properties.pop()
        # MLIR converts `<{...}>` into the op's properties while parsing and
        # rejects an enum value out of range there.
        if written and (message := enum_property_error(op.name, written)):
            at = self._name_positions[-1][0] if self._name_positions else self.pos
            self.raise_error(message, at, at + 1)
        return op

    def parse_optional_properties_dict(self) -> dict[str, Attribute]:
        properties = super().parse_optional_properties_dict()
        if self._written_properties and self._written_properties[-1] is None:
            self._written_properties[-1] = dict(properties)
        return properties

    def parse_operation(self) -> Operation:
        depth = len(self._name_positions)
        try:
            if (line := match_line(self)) is not None:
                op = self._parse_line(*line)
            else:
                op = super().parse_operation()
        except ParseError as err:
            if len(self._name_positions) > depth:
                self._attribute_error_to_op(err, self._name_positions[depth][0])
            del self._name_positions[depth:]
            raise
        if len(self._name_positions) > depth:
            pos, bound = self._name_positions[depth]
            del self._name_positions[depth:]
            if (
                bound == 0
                and is_instance(op, _ASYNC_INTERFACE, "AsyncOpInterface")
                and op.async_token is not None  # type: ignore[attr-defined]
            ):
                self._unnamed_async(op, pos)
            if isinstance(op, UnregisteredOp):
                self._check_dialect_allows(op, pos)
            _default_segment_sizes(op)
            _inherent_from_attr_dict(op)
            if self._region_depth == 0:
                self._top_op = op
            # An op written with `loc(unknown)` keeps it.
            explicit = self._location_end == self._current_token.span.start
            if isinstance(op.location, UnknownLoc) and not explicit:
                line, col = self._index.line_col(pos)
                op.location = self._op_location(line + self._line_offset, col)
            if op.regions:
                locate_implicit_terminators(op)
        return op

    def _parse_line(self, name, span, at, op_type, build) -> Operation:  # type: ignore[no-untyped-def]
        """What xDSL's `parse_operation` does around the op's own parse, for an
        op whose line has a registered form (`line_forms.match_line`): one
        result, not yet defined, named `%name`, and the op name at `at`."""
        self._name_positions.append((at, 1))
        dialects = self._parser_state.dialect_stack
        dialects.append(op_type.dialect_name())
        op = build()
        dialects.pop()
        if (location := self.parse_optional_location()) is not None:
            op.location = location
        self._register_ssa_definition(name, op.results, span)
        return op

    def _attribute_error_to_op(self, err: ParseError, name_pos: int) -> None:
        """Prefix an error that the custom op at `name_pos` reported itself."""
        if getattr(err, _OWNED, False):
            return
        setattr(err, _OWNED, True)
        text = self.lexer.input.content
        name = _OP_NAME.match(text, name_pos)
        if name is None or err.span.start < name.end():
            return  # a generic op, or an error at the op name (unknown op, ...)
        if _UNREGISTERED.fullmatch(err.msg):
            if "." not in name.group(0) and self._parser_state.dialect_stack:
                setattr(err, _DEFAULT_DIALECT, self._parser_state.dialect_stack[-1])
            return
        if (
            mlir_parse_message(err.msg, "") != err.msg
            or err.msg.startswith("custom op '")
            or _lower_first(err.msg) in _GENERIC_PARSER_MESSAGES
        ):
            return  # messages that MLIR words without the prefix, or already has it
        err.msg = f"custom op '{name.group(0)}' {_lower_first(err.msg)}"

    def diagnostic_here(self, message: str) -> Diagnostic:
        """A diagnostic at the parser's current position."""
        line, col = self._index.line_col(self._current_token.span.start)
        return Diagnostic("error", message, Location(self._file, line + self._line_offset, col))

    def _check_dialect_allows(self, op: UnregisteredOp, pos: int) -> None:
        """--allow-unregistered-dialect allows ops of unknown dialects, not unknown
        ops of a registered dialect (such as `gpu.nope`)."""
        name = op.op_name.data
        dialect = name.split(".", 1)[0]
        # xDSL registers a `test` dialect; MLIR tests use unregistered `test.*` ops.
        if dialect != "test" and dialect in self.ctx.registered_dialect_names:
            self.raise_error(unregistered_op_message(name, True, True), pos, pos + 1)

    def _unnamed_async(self, op: Operation, name_pos: int) -> None:
        """MLIR requires a name for the token of an op marked `async`."""
        text = self.lexer.input.content
        at = text.find("async", name_pos)
        at = at if at >= 0 else name_pos
        self.raise_error(f"custom op '{op.name}' needs to be named when marked 'async'", at, at + 5)


# Patterns as text: compiled (and cached by `re`) at the first parse error only.
_XDSL_PARSE_MESSAGES: list[tuple[str, Callable[[re.Match[str], str], str]]] = [
    (r"attribute expected", lambda m, tok: "expected attribute value"),
    (
        r"Operation has 0 results, but was given \d+ to bind\.?",
        lambda m, tok: "cannot name an operation with no results",
    ),
    (
        r"Operation has (\d+) results, but was given (\d+) to bind\.?",
        lambda m, tok: f"operation defines {m[1]} results but was provided {m[2]} to bind",
    ),
    (
        r"End of file reached before closing string literal\.",
        lambda m, tok: _UNTERMINATED_STRING,
    ),
    (
        r"SSA value (%\S+) is already defined",
        lambda m, tok: f"redefinition of SSA value '{m[1]}'",
    ),
    (
        (
            r"operand is used with type (.+), but has been previously used or defined "
            r"with type (.+)"
        ),
        lambda m, tok: (
            f"use of value '{tok}' expects different type than prior uses: '{m[1]}' vs '{m[2]}'"
        ),
    ),
]

_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")
_UNKNOWN_ATTR = re.compile(r"'(\S+)' is not registered")


def unregistered_op_message(name: str, generic: bool, dialect_known: bool) -> str:
    """mlir-opt's four messages for an op it does not know."""
    dialect = name.split(".", 1)[0]
    if generic and dialect_known:
        return (
            f"unregistered operation '{name}' found in dialect ('{dialect}') "
            "that does not allow unknown operations"
        )
    if generic:
        return (
            "operation being parsed with an unregistered dialect. If this is intended, "
            "please use -allow-unregistered-dialect with the MLIR tool used"
        )
    if dialect_known:
        return f"custom op '{name}' is unknown"
    return f"Dialect `{dialect}' not found for custom op '{name}' "


def _inherent_from_attr_dict(op: Operation) -> None:
    """MLIR reads an inherent attribute written in the attribute dictionary as
    the property; an op whose format cannot do it names those properties in
    `INHERENT_IN_ATTR_DICT`."""
    names = getattr(type(op), "INHERENT_IN_ATTR_DICT", ())
    moved = False
    for name in names:
        if name in op.attributes:
            op.properties[name] = op.attributes.pop(name)
            moved = True
    if moved:
        op.properties = dict(sorted(op.properties.items()))


def mlir_parse_message(message: str, token: str) -> str:
    """MLIR's wording for the parse errors xDSL words differently."""
    for pattern, mlir in _XDSL_PARSE_MESSAGES:
        if (m := re.fullmatch(pattern, message)) is not None:
            return mlir(m, token)
    return message


def parse_error_diagnostic(
    err: ParseError, line_offset: int = 0, ctx: Context | None = None
) -> Diagnostic:
    span = err.span
    line, col = LineIndex(span.input.content).line_col(span.start)
    token = str(span.text)
    if (m := _UNREGISTERED.fullmatch(err.msg)) is not None:
        name = m[1]
        # A name without a dialect is looked up in the enclosing op's dialect.
        known = "." not in name or (
            ctx is not None and name.split(".", 1)[0] in ctx.registered_dialect_names
        )
        # xDSL reports it after the name: a generic op's name is a string literal;
        # mlir-opt reports a custom op at its name.
        before = span.input.content[: span.start].rstrip()
        generic = before.endswith('"')
        # mlir-opt reports a generic op at the string literal of its name.
        at = before.rfind('"', 0, len(before) - 1) if generic else before.rfind(name)
        if at >= 0:
            line, col = LineIndex(span.input.content).line_col(at)
        message = unregistered_op_message(name, generic, known)
        if not generic and "." not in name and (default := getattr(err, _DEFAULT_DIALECT, None)):
            message += f" (tried '{default}.{name}' as well)"
    elif (m := _UNKNOWN_ATTR.fullmatch(err.msg)) is not None and ctx is not None:
        dialect, _, short = m[1].partition(".")
        before = span.input.content[: span.start]
        # `#gpu.name`, `!gpu.name` or the opaque `#gpu<name ...>`, `!gpu<name ...>`
        at = max(before.rfind(f"{sigil}{dialect}{sep}{short}") for sigil in "#!" for sep in ".<")
        message = err.msg
        if at >= 0 and dialect in ctx.registered_dialect_names:
            # mlir-opt points at the name after the dialect prefix.
            line, col = LineIndex(span.input.content).line_col(at + len(dialect) + 2)
            if before[at] == "#":
                message = f"unknown attribute `{short}` in dialect `{dialect}`"
            else:
                message = f"unknown {dialect} type: {short}"
    else:
        message = mlir_parse_message(err.msg, token)
        if message == _UNTERMINATED_STRING:
            # mlir-opt reports it where the line ends.
            content = span.input.content
            end = content.find("\n", span.start)
            line, col = LineIndex(content).line_col(len(content) if end < 0 else end)
    return Diagnostic("error", message, Location(span.input.name, line + line_offset, col))
