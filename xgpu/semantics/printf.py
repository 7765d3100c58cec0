"""`gpu.printf` formats: parsed, checked against the arguments, printed.

One description for every backend: the OpenCL emitter prints the C format and
argument casts of a `Printf` (`c_format`, `c_args`), the simulator calls its
`format` on the argument values. The C format is generated from the parsed
conversions, never copied from the IR, so the device's printf only ever sees
conversions that this module formats the same way.

    from xgpu.semantics.printf import compile_printf, PrintfError

    pf = compile_printf(op.format_text, [v.type for v in op.args])  # PrintfError
    pf.c_format()             # b"x=%ld y=%f\\n": the format the C printf gets
    pf.c_args(["v0", "v1"])   # ["(long)(v0)", "xg_printf_f(v1)"]
    pf.c_helpers()            # [(name, C source)] of the helpers c_args calls
    pf.format((3, 2.5))       # b"x=3 y=2.500000\\n"

The rules (MLIR's printf lowering passes integers, index and floats):

- Each conversion takes exactly one argument; the counts must match.
- `d i u o x X c` take an integer or index argument, `f F e E g G a A` a
  float; `%%` prints `%` (and takes nothing else: no flags, width, ...).
- Flags `-+ #0`, a decimal width and precision of at most `MAX_FIELD`; no
  `*`, no positional arguments.
- Length modifiers `hh h l ll z j t` are accepted on integer conversions and
  replaced by the argument's own width (MLIR's tests write `%lld` and `%d` for
  index): `d i` print the value as a signed number of its width, `u o x X` as
  an unsigned one (`%x` of the i8 value -1 is `ff`), `i1` prints 0 or 1.
  `l` is accepted (and means nothing) on float conversions.
- `%c` prints the low byte of its argument, with `-` and a width only; a 0
  byte prints as nothing (the field is still padded), which is what PoCL does.
- A float prints its own value: f16 and f32 arguments are passed as
  `float`, f64 ones as `double` (PoCL 3.0's printf formats doubles in single
  precision, a limitation of that device: there an f64 value prints rounded
  to f32; the simulator and other devices print it exactly). NaN prints as
  `nan` (`NAN`), without a sign. Otherwise the output is C's (glibc's): exact
  decimal expansions, round-half-even, `%a` with trailing zeros removed.
- Flags that mean nothing for a conversion are dropped (as glibc ignores
  them): `0` with `-`, ` ` with `+`, `0` for an integer conversion with a
  precision, `#` for `d i u c`, `+` and ` ` for unsigned conversions,
  everything but `-` (and the precision) for `%c`.
- Rejected, as `PrintfError`: `%s %p %n`, `L`, OpenCL's vector specifiers,
  any other conversion, a NUL byte in the format, a format that ends inside a
  conversion.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xgpu.semantics.types import Scalar, SemanticsError, scalar

MAX_FIELD = 128
"""The largest width, and precision of a float conversion."""
MAX_INT_PRECISION = 64
"""The largest precision of an integer conversion (PoCL 3.0 formats integers
in a 64-byte stack buffer and overflows it beyond that; a 64-bit integer has
at most 22 digits)."""

INT_CONVERSIONS = "diouxXc"
FLOAT_CONVERSIONS = "fFeEgGaA"
_FLAGS = "-+ #0"
_INT_LENGTHS = ("hh", "h", "ll", "l", "z", "j", "t")
_SUPPORTED = "d i u o x X c f F e E g G a A, and %%"


class PrintfError(Exception):
    """The format cannot be printed with these arguments (a message for the op)."""


@dataclass(frozen=True)
class Conversion:
    """One `%...` conversion: `flags` normalized (canonical order, meaningless
    flags dropped), `width`/`precision` None where not given, `text` as written
    (for messages)."""

    flags: str
    width: int | None
    precision: int | None
    conv: str
    text: str

    @property
    def is_int(self) -> bool:
        return self.conv in INT_CONVERSIONS


Piece = bytes | Conversion


def format_bytes(text: str | bytes) -> bytes:
    """The bytes of a format string (`format_text` keeps invalid UTF-8 as
    surrogate escapes)."""
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass")


def show(data: bytes) -> str:
    """`data` for a message: printable ASCII as is, other bytes as MLIR's `\\XX`."""
    out = []
    for b in data:
        if 32 <= b < 127 and b not in (0x22, 0x5C):
            out.append(chr(b))
        else:
            out.append(f"\\{b:02X}")
    return "".join(out)


def parse(text: str | bytes) -> tuple[Piece, ...]:
    """The literal bytes and conversions of a format (`PrintfError` if invalid)."""
    data = format_bytes(text)
    if 0 in data:
        raise PrintfError("the format contains a NUL byte")
    pieces: list[Piece] = []
    literal = bytearray()
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b != 0x25:  # '%'
            literal.append(b)
            i += 1
            continue
        start = i
        i += 1
        if i < n and data[i] == 0x25:
            literal.append(0x25)
            i += 1
            continue
        flags = ""
        while i < n and chr(data[i]) in _FLAGS:
            flags += chr(data[i])
            i += 1
        width, i = _number(data, i, start, "width")
        precision = None
        if i < n and data[i] == 0x2E:  # '.'
            precision, i = _number(data, i + 1, start, "precision")
            precision = precision or 0
        length = ""
        for m in ("hh", "ll", "h", "l", "z", "j", "t", "L", "q"):
            if data.startswith(m.encode(), i):
                length = m
                i += len(m)
                break
        if i >= n:
            raise PrintfError(f"the format ends inside the conversion '{show(data[start:])}'")
        conv = chr(data[i])
        i += 1
        spec = show(data[start:i])
        if conv == "%":
            raise PrintfError(f"'{spec}': '%%' takes no flags, width, precision or length")
        if conv in "spn":
            raise PrintfError(
                f"conversion '{spec}' is not supported: gpu.printf prints integers and "
                f"floats (conversions {_SUPPORTED})"
            )
        if conv not in INT_CONVERSIONS + FLOAT_CONVERSIONS:
            raise PrintfError(f"invalid conversion '{spec}' (supported: {_SUPPORTED})")
        if length:
            ok = (conv in INT_CONVERSIONS and conv != "c" and length in _INT_LENGTHS) or (
                conv in FLOAT_CONVERSIONS and length == "l"
            )
            if not ok:
                raise PrintfError(f"length modifier '{length}' is not supported in '{spec}'")
        if literal:
            pieces.append(bytes(literal))
            literal.clear()
        if conv == "c":
            precision = None  # means nothing for %c
        elif precision is not None and precision > MAX_INT_PRECISION and conv in INT_CONVERSIONS:
            raise PrintfError(
                f"the precision in '{spec}' is larger than {MAX_INT_PRECISION}, the "
                "largest for an integer conversion"
            )
        pieces.append(
            Conversion(_normal_flags(flags, conv, precision), width, precision, conv, spec)
        )
    if literal:
        pieces.append(bytes(literal))
    return tuple(pieces)


def _number(data: bytes, i: int, start: int, what: str) -> tuple[int | None, int]:
    if i < len(data) and data[i] == 0x2A:  # '*'
        end = i + 1
        while end < len(data) and data[end] != 0x25:
            end += 1
            if chr(data[end - 1]).isalpha() and chr(data[end - 1]) not in "hlLqjzt":
                break
        spec = show(data[start:end])
        raise PrintfError(f"'*' in '{spec}': the {what} must be a number in the format")
    j = i
    while j < len(data) and 0x30 <= data[j] <= 0x39:
        j += 1
    if j == i:
        return None, i
    digits = data[i:j].lstrip(b"0") or b"0"
    if len(digits) > 3 or int(digits) > MAX_FIELD:
        spec = show(data[start : j + 1])
        raise PrintfError(f"the {what} in '{spec}' is larger than {MAX_FIELD}")
    return int(digits), j


def _normal_flags(flags: str, conv: str, precision: int | None) -> str:
    kept = set(flags)
    if "-" in kept:
        kept.discard("0")
    if "+" in kept:
        kept.discard(" ")
    if conv in INT_CONVERSIONS and precision is not None:
        kept.discard("0")
    if conv in "diuc":
        kept.discard("#")
    if conv in "ouxX":
        kept -= {"+", " "}
    if conv == "c":
        kept &= {"-"}
    return "".join(f for f in _FLAGS if f in kept)


@dataclass(frozen=True)
class Printf:
    """A checked format: its pieces and the scalar type of each argument."""

    pieces: tuple[Piece, ...]
    types: tuple[Scalar, ...]

    @property
    def conversions(self) -> list[Conversion]:
        return [p for p in self.pieces if isinstance(p, Conversion)]

    # -------------------------------------------------------------- OpenCL C
    def c_format(self) -> bytes:
        """The format for OpenCL C's printf: literal `%` doubled, each
        conversion canonical (`l` for 64-bit integers, OpenCL having no `ll`)."""
        out = bytearray()
        convs = iter(self.types)
        for p in self.pieces:
            if isinstance(p, bytes):
                out += p.replace(b"%", b"%%")
                continue
            t = next(convs)
            spec = "%" + p.flags
            if p.width is not None:
                spec += str(p.width)
            if p.precision is not None and p.conv != "c":
                spec += f".{p.precision}"
            if p.conv in "diouxX" and t.width == 64:
                spec += "l"
            out += (spec + p.conv).encode()
        return bytes(out)

    def c_args(self, exprs: Sequence[str]) -> list[str]:
        """The C arguments, cast to the types `c_format` says: `int`/`long` for
        signed conversions, `uint`/`ulong` of the value's own width for
        unsigned ones, the low byte for `%c`, and a helper of `C_FLOAT_HELPERS`
        for floats (`float` for f16/f32, `double` for f64)."""
        out = []
        for p, t, e in zip(self.conversions, self.types, exprs):
            if p.conv == "c":
                out.append(f"(int)(uchar)({e})")
            elif p.conv in "di":
                out.append(f"({'long' if t.width == 64 else 'int'})({e})")
            elif p.is_int:
                if t.width == 64:
                    out.append(f"(ulong)({e})")
                elif t.width in (8, 16):
                    out.append(f"(uint)({t.cu})({e})")
                else:
                    out.append(f"(uint)({e})")
            else:
                out.append(f"{C_FLOAT_HELPERS[_float_param(t)][0]}({e})")
        return out

    def c_helpers(self) -> list[tuple[str, str]]:
        """(name, C source) of the helpers that `c_args` calls."""
        params = {_float_param(t) for t in self.types if t.is_float}
        return [C_FLOAT_HELPERS[k] for k in ("float", "double") if k in params]

    # ---------------------------------------------------------------- values
    def format(self, values: Sequence[Any]) -> bytes:
        """The bytes printf writes for `values` (one per argument)."""
        out = bytearray()
        it = iter(zip(self.types, values))
        for p in self.pieces:
            if isinstance(p, bytes):
                out += p
                continue
            t, v = next(it)
            if p.is_int:
                out += _format_int(p, t, int(v))
            else:
                out += _format_float(p, float(v)).encode()
        return bytes(out)


C_FLOAT_HELPERS = {
    "float": (
        "xg_printf_f",
        "static inline float xg_printf_f(float x) {\n  return isnan(x) ? NAN : x;\n}",
    ),
    "double": (
        "xg_printf_d",
        "static inline double xg_printf_d(double x) {\n  return isnan(x) ? (double)NAN : x;\n}",
    ),
}
"""The helpers `c_args` wraps float arguments in, by C parameter type: the
value itself, NaN without its sign."""


def _float_param(t: Scalar) -> str:
    return "double" if t.width == 64 else "float"


def compile_printf(text: str | bytes, types: Sequence[Any]) -> Printf:
    """Parse `text` and check it against the argument types (xDSL types or
    `Scalar`s). Raises `PrintfError`."""
    pieces = parse(text)
    scalars = []
    for k, t in enumerate(types):
        try:
            scalars.append(scalar(t))
        except SemanticsError as err:
            raise PrintfError(f"argument #{k}: {err}") from None
    convs = [p for p in pieces if isinstance(p, Conversion)]
    if len(convs) != len(scalars):
        raise PrintfError(
            f"the format has {_count(len(convs), 'conversion')} for "
            f"{_count(len(scalars), 'argument')}"
        )
    for k, (p, s) in enumerate(zip(convs, scalars)):
        if p.is_int != s.is_int:
            want = "an integer or index" if p.is_int else "a floating-point"
            raise PrintfError(
                f"conversion '{p.text}' takes {want} argument, but argument #{k} has type '{s}'"
            )
    return Printf(pieces, tuple(scalars))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# --------------------------------------------------------------------------- #
# C's formatting


def _pad(p: Conversion, prefix: str, digits: str, numeric: bool) -> str:
    """`prefix` (sign, 0x) and `digits` padded to the width: zeros after the
    prefix for the `0` flag (numbers only), else spaces."""
    width = p.width or 0
    fill = width - len(prefix) - len(digits)
    if fill <= 0:
        return prefix + digits
    if "-" in p.flags:
        return prefix + digits + " " * fill
    if "0" in p.flags and numeric:
        return prefix + "0" * fill + digits
    return " " * fill + prefix + digits


def _format_int(p: Conversion, t: Scalar, value: int) -> bytes:
    if p.conv == "c":
        byte = value & 0xFF
        field = bytes([byte]) if byte else b""
        fill = (p.width or 0) - len(field)
        if fill <= 0:
            return field
        return field + b" " * fill if "-" in p.flags else b" " * fill + field
    if p.conv in "di":
        v = t.unsigned(value) if t.is_bool else t.signed(value)
        sign = "-" if v < 0 else "+" if "+" in p.flags else " " if " " in p.flags else ""
        digits = str(abs(v))
        prefix = sign
    else:
        v = t.unsigned(value)
        digits = format(v, {"u": "d", "o": "o", "x": "x", "X": "X"}[p.conv])
        prefix = ""
    if p.precision is not None:
        digits = "" if p.precision == 0 and v == 0 else digits.rjust(p.precision, "0")
    if "#" in p.flags:
        if p.conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif p.conv in "xX" and v != 0:
            prefix = "0" + p.conv
    return _pad(p, prefix, digits, True).encode()


def _format_float(p: Conversion, value: float) -> str:
    v = value  # the argument's own value (host and kernel values are normalized)
    conv = p.conv.lower()
    negative = math.copysign(1.0, v) < 0 and not math.isnan(v)
    sign = "-" if negative else "+" if "+" in p.flags else " " if " " in p.flags else ""
    a = abs(v)
    if not math.isfinite(a):
        body = "nan" if math.isnan(a) else "inf"
        text = _pad(p, sign, body, False)
        return text.upper() if p.conv.isupper() else text
    alt = "#" if "#" in p.flags else ""
    prefix = sign
    if conv == "a":
        prefix += "0x"
        body = _hex_float(a, p.precision, bool(alt))
    else:
        prec = 6 if p.precision is None else p.precision
        if conv == "g" and prec == 0:
            prec = 1
        body = format(a, f"{alt}.{prec}{conv}")
    text = _pad(p, prefix, body, True)
    return text.upper() if p.conv.isupper() else text


def _hex_float(a: float, precision: int | None, alt: bool) -> str:
    """`%a` of a non-negative double (without the `0x`): glibc's digits, a
    leading 1 (0 for zero) and the 13 nibbles of the mantissa, rounded half to
    even to `precision` nibbles (a carry makes the leading digit 2)."""
    bits = struct.unpack("<Q", struct.pack("<d", a))[0]
    mant = bits & ((1 << 52) - 1)
    biased = bits >> 52
    if a == 0:
        lead, exp = 0, 0
    elif biased == 0:  # subnormal double
        lead, exp = 0, -1022
    else:
        lead, exp = 1, biased - 1023
    nibbles = f"{mant:013x}"
    if precision is None:
        nibbles = nibbles.rstrip("0")
    elif precision < 13:
        keep = precision
        value = (lead << 52) | mant
        drop = 4 * (13 - keep)
        head, rest = value >> drop, value & ((1 << drop) - 1)
        half = 1 << (drop - 1)
        if rest > half or (rest == half and head & 1):
            head += 1
        lead = head >> (4 * keep)
        frac = head & ((1 << (4 * keep)) - 1)
        nibbles = f"{frac:0{keep}x}" if keep else ""
    else:
        nibbles = nibbles.ljust(precision, "0")
    point = "." if nibbles or alt else ""
    return f"{lead:x}{point}{nibbles}p{exp:+d}"
