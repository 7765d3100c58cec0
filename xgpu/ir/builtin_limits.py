"""The limits MLIR 22's parser puts on builtin types and attributes, which
xDSL 0.75 does not check: a shape dimension fits int64 (`invalid dimension`),
vector sizes are positive, integer types have at most 16777215 bits, an
`index` constant fits 64 bits, strides and offsets fit int64, affine
constants fit int64. Each is MLIR's message at MLIR's position.
"""

from __future__ import annotations

import math
import re

from xdsl.dialects.builtin import Float80Type, FloatAttr, IndexType, IntegerAttr, VectorType
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

_INT64_MAX = 2**63 - 1
_MAX_INT_WIDTH = 16777215  # MLIR's IntegerType::kMaxWidth
_INTEGER_TYPE = re.compile(r"[su]?i([0-9]+)")
_SIGN = re.compile(r"-\s*")
_ZERO_WIDTH_ARRAY = re.compile(r"<\s*([su]?i0)(?![\w.$])")


class BuiltinLimitsParser(Parser):
    """xDSL's Parser with MLIR's range checks on builtin types and attributes."""

    def _limit_error(self, message: str, at: int) -> ParseError:
        err = ParseError(Span(at, at + 1, self.lexer.input), message)
        err._xgpu_owned = True  # type: ignore[attr-defined]  # never `custom op` prefixed
        return err

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        token = self._current_token
        if token.kind is MLIRTokenKind.INTEGER_LIT and token.text[:2] not in ("0x", "0X"):
            if int(token.text) > _INT64_MAX:
                raise self._limit_error("invalid dimension", token.span.start)
        return super().parse_shape_dimension(allow_dynamic)

    def _parse_vector_attrs(self):  # type: ignore[no-untyped-def]
        # MLIR reports a bad size at the `vector` keyword.
        content = self.lexer.input.content
        start = content.rfind("vector", 0, self._current_token.span.start)
        vector = super()._parse_vector_attrs()
        assert isinstance(vector, VectorType)
        sizes = vector.get_shape()
        if any(size <= 0 for size in sizes):
            listed = ", ".join(str(size) for size in sizes)
            raise self._limit_error(
                f"vector types must have positive constant sizes but got {listed}", max(start, 0)
            )
        return vector

    def _parse_optional_integer_or_float_type(self):  # type: ignore[no-untyped-def]
        token = self._current_token
        if token.kind is MLIRTokenKind.BARE_IDENT:
            match = _INTEGER_TYPE.fullmatch(token.text)
            if match is not None and int(match.group(1)) > _MAX_INT_WIDTH:
                raise self._limit_error(
                    f"integer bitwidth is limited to {_MAX_INT_WIDTH} bits", token.span.start
                )
        return super()._parse_optional_integer_or_float_type()

    def parse_optional_builtin_int_or_float_attr(self):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start
        if self._current_token.kind is MLIRTokenKind.MINUS:
            # MLIR reports the number after the sign.
            sign = _SIGN.match(self.lexer.input.content, start)
            start = sign.end() if sign is not None else start
        literal = self._current_token
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
        except NotImplementedError:
            # xDSL cannot unpack the hex bits of an f80 or f128 literal.
            self._resume_from(literal.span.start)
            return self._wide_hex_float()
        except VerifyException as err:
            # An integer that does not fit its type (xDSL words it otherwise).
            if "out of range" not in str(err):
                raise
            raise self._limit_error("integer constant out of range for attribute", start) from None
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            # MLIR stores an index constant in 64 bits, signed or unsigned.
            if not -(2**63) <= attr.value.data < 2**64:
                raise self._limit_error("integer constant out of range for attribute", start)
        return attr

    def _parse_typed_integer(self, type, *args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return super()._parse_typed_integer(type, *args, **kwargs)
        except ParseError as err:
            if "out of range" not in err.msg:
                raise
            # MLIR reports it after the number.
            at = self._current_token.span.start
            raise self._limit_error("integer constant out of range", at) from None

    def _wide_hex_float(self) -> FloatAttr:
        token = self._consume_token(MLIRTokenKind.INTEGER_LIT)
        bits = int(token.text, 16)
        self.parse_punctuation(":")
        type_ = self.parse_type()
        wide = isinstance(type_, Float80Type)
        if bits.bit_length() > (80 if wide else 128):
            raise self._limit_error(
                "hexadecimal float constant out of range for type", token.span.start
            )
        return FloatAttr(_wide_float_value(bits, wide), type_)  # type: ignore[arg-type]

    def _parse_int_or_question(self, context_msg: str = ""):  # type: ignore[no-untyped-def]
        start = self._current_token.span.start
        value = super()._parse_int_or_question(context_msg)
        if value != "?" and not -(2**63) <= value <= _INT64_MAX:
            raise self._limit_error("expected a 64-bit signed integer or '?'", start)
        return value

    def _parse_builtin_densearray_attr(self):  # type: ignore[no-untyped-def]
        # xDSL divides by the element size: `array<i0: ...>` (valid in MLIR)
        # would be a ZeroDivisionError.
        content = self.lexer.input.content
        zero = _ZERO_WIDTH_ARRAY.match(content, self._current_token.span.start)
        if zero is not None:
            raise self._limit_error(
                "dense arrays of 0-bit integers are not supported by xgpu-opt", zero.start(1)
            )
        return super()._parse_builtin_densearray_attr()

    def parse_affine_map(self):  # type: ignore[no-untyped-def]
        return _LimitedAffineParser(self._parser_state).parse_affine_map()

    def parse_affine_set(self):  # type: ignore[no-untyped-def]
        return _LimitedAffineParser(self._parser_state).parse_affine_set()


def _wide_float_value(bits: int, f80: bool) -> float:
    """The value (as a Python float, rounded) of f80 or f128 `bits`."""
    fraction_bits = 63 if f80 else 112
    sign = -1.0 if bits >> (79 if f80 else 127) else 1.0
    exponent = (bits >> (64 if f80 else 112)) & 0x7FFF
    fraction = bits & ((1 << fraction_bits) - 1)
    if exponent == 0x7FFF:
        return sign * math.inf if fraction == 0 else math.nan
    lead = (bits >> 63) & 1 if f80 else int(exponent != 0)
    scale = max(exponent, 1) - 16383 - fraction_bits
    mantissa = (lead << fraction_bits) | fraction
    try:
        return sign * math.ldexp(float(mantissa), scale)
    except OverflowError:
        return sign * math.inf


class _LimitedAffineParser(AffineParser):
    """xDSL's affine parser; an integer literal must fit MLIR's int64."""

    def _parse_primary(self, parse_optional_bare_id):  # type: ignore[no-untyped-def]
        token = self._current_token
        if (
            token.kind is MLIRTokenKind.INTEGER_LIT
            and token.kind.get_int_value(token.span) > _INT64_MAX
        ):
            err = ParseError(token.span, "constant too large for index")
            err._xgpu_owned = True  # type: ignore[attr-defined]
            raise err
        return super()._parse_primary(parse_optional_bare_id)
