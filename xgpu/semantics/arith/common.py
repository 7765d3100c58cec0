"""What the arith semantics share (`xgpu.semantics.arith`): the comparison
predicates, the C building blocks (wrap-around, signed and unsigned readings,
helper names) and the operand checks."""

from __future__ import annotations

from xgpu.semantics.core import Signature
from xgpu.semantics.types import Scalar, SemanticsError

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
)


# --------------------------------------------------------------------------- #
# C building blocks                                                           #
# --------------------------------------------------------------------------- #


def wrap_c(t: Scalar, expr: str) -> str:
    """`expr` (computed in a wider or unsigned type) converted to `t` with
    wrap-around (i1: its low bit)."""
    if t.is_bool:
        return f"(uchar)(({expr}) & 1u)"
    return f"({t.c})({expr})"


def signed_c(t: Scalar, x: str) -> str:
    """The signed reading of an integer operand (i1 becomes 0 or -1)."""
    return f"(-(int){x})" if t.is_bool else x


def unsigned_c(t: Scalar, x: str) -> str:
    return x if t.is_bool else f"({t.cu}){x}"


def _helper_name(op: str, t: Scalar) -> str:
    return f"xg_{op}_{t.c}"


def _check_int(sig: Signature) -> Scalar:
    for t in (*sig.operands, *sig.results):
        if not t.is_int:
            raise SemanticsError(f"'{sig.name}' expects integer or index operands, got {t}")
    return sig.operand(0)


def _check_float(sig: Signature, results: bool = True) -> Scalar:
    for t in (*sig.operands, *(sig.results if results else ())):
        if not t.is_float:
            raise SemanticsError(f"'{sig.name}' expects float operands, got {t}")
    return sig.operand(0)
