"""Floats as MLIR prints them when six significant digits do not give the
value back: LLVM's `APFloat::toString` with its defaults (as many digits as
the type's precision needs, trailing zeros dropped, `E` exponents without
padding: `4.2949673E+9`, `0.100000001`), or the bits in hexadecimal when that
text has no `.` (`0x4B800000`)."""

from __future__ import annotations

from fractions import Fraction

# Bits of precision (the significand, hidden bit included) of each float type.
PRECISION = {"f16": 11, "bf16": 8, "f32": 24, "tf32": 11, "f64": 53, "f80": 64, "f128": 113}
_MAX_PADDING = 3


def _trim_to_precision(n: int, exp: int, precision: int) -> tuple[int, int]:
    """APFloat drops whole decimal digits it cannot need before rounding."""
    bits = n.bit_length()
    required = (precision * 196 + 58) // 59
    if bits <= required:
        return n, exp
    removable = (bits - required) * 59 // 196
    if not removable:
        return n, exp
    return n // 10**removable, exp + removable


def _round_digits(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """Round the decimal digits (most significant first) to `precision`
    significant ones, half up, without trailing zeros."""
    if len(digits) <= precision:
        return digits, exp
    dropped = len(digits) - precision
    kept = digits[:precision]
    if digits[precision] < "5":
        stripped = kept.rstrip("0")
        return stripped, exp + dropped + (len(kept) - len(stripped))
    number = int(kept) + 1
    text = str(number)
    if len(text) > len(kept):  # carried through: 999 -> 1000
        return "1", exp + dropped + len(kept)
    stripped = text.rstrip("0")
    return stripped, exp + dropped + (len(text) - len(stripped))


def _digits(value: float, precision: int) -> tuple[str, int]:
    """APFloat's decimal digits of |value| (most significant first), at most
    `precision` of them, and the power of ten of the last."""
    ratio = Fraction(abs(value))
    n, d = ratio.numerator, ratio.denominator
    exp2 = -(d.bit_length() - 1)  # d is a power of two
    while n and n % 2 == 0:
        n //= 2
        exp2 += 1
    if exp2 >= 0:
        n <<= exp2
        exp = 0
    else:
        n *= 5**-exp2
        exp = exp2
    n, exp = _trim_to_precision(n, exp, precision)
    digits = str(n)
    stripped = digits.rstrip("0")
    exp += len(digits) - len(stripped)
    return _round_digits(stripped, exp, precision)


def exponent_text(value: float) -> str:
    """`APFloat::toString(value, 6, 0, false)`: `d.dddddde+XX` (finite, nonzero)."""
    sign = "-" if value < 0 else ""
    digits, exp = _digits(value, 6)
    exp += len(digits) - 1
    mantissa = digits[0] + "." + digits[1:].ljust(6, "0")
    return f"{sign}{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp):02d}"


def apfloat_text(value: float, type_name: str) -> str:
    """`APFloat::toString(value)` with LLVM's default arguments (finite value)."""
    if value == 0:
        return "-0" if str(value).startswith("-") else "0"
    sign = "-" if value < 0 else ""
    bits = PRECISION.get(type_name, 53)
    precision = 2 + bits * 59 // 196
    digits, exp = _digits(value, precision)
    count = len(digits)
    if exp >= 0:
        scientific = exp > _MAX_PADDING or count + exp > precision
    else:
        msd = exp + count - 1
        scientific = msd < 0 and -msd > _MAX_PADDING
    if scientific:
        exp += count - 1
        mantissa = digits[0] + "." + (digits[1:] or "0")
        return f"{sign}{mantissa}E{'+' if exp >= 0 else '-'}{abs(exp)}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + count
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"
