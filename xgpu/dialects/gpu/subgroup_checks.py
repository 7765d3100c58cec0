"""The type checks of the subgroup and reduction ops (`subgroup`), with
MLIR's messages: integer-or-float operands, same operand and result types,
powers of two, the element types each reduction kind accepts."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.attributes import AllReduceOperation

_INT_OR_FLOAT = "Integer or Float"
_INT_OR_FLOAT_OR_VEC = (
    "Integer or Float or fixed-length vector of Integer or Float values of ranks 1"
)


def _is_int_or_float(t: Attribute) -> bool:
    """MLIR's `AnyIntegerOrFloat` as the gpu ops use it: signless integer or float."""
    if isinstance(t, IntegerType):
        return t.signedness.data == Signedness.SIGNLESS
    return isinstance(t, AnyFloat)


def _is_int_or_float_or_vec(t: Attribute) -> bool:
    """Signless integer, float, or a fixed-length 1-D vector of them."""
    if isinstance(t, VectorType):
        return (
            t.get_num_dims() == 1
            and t.get_num_scalable_dims() == 0
            and _is_int_or_float(t.element_type)
        )
    return _is_int_or_float(t)


def _check_value_and_result(value: SSAValue, result: SSAValue, names: str) -> None:
    """Shuffle/rotate: constrained operand #0 and result #0 of the same type."""
    for kind, v in (("operand", value), ("result", result)):
        if not _is_int_or_float_or_vec(v.type):
            raise VerifyException(f"{kind} #0 must be {_INT_OR_FLOAT_OR_VEC}, but got '{v.type}'")
    if value.type != result.type:
        raise VerifyException(f"failed to verify that all of {names} have same type")


def _check_same_operand_and_result(
    value: SSAValue, result: SSAValue, ok: Callable[[Attribute], bool], what: str
) -> None:
    """Reductions: constrained operand and result, SameOperandsAndResultType."""
    for kind, v in (("operand", value), ("result", result)):
        if not ok(v.type):
            raise VerifyException(f"{kind} #0 must be {what}, but got '{v.type}'")
    if value.type != result.type:
        raise VerifyException("requires the same type for all operands and results")


def _is_power_of_two(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0


_FLOAT_ONLY = frozenset(
    {
        AllReduceOperation.MINNUMF,
        AllReduceOperation.MAXNUMF,
        AllReduceOperation.MINIMUMF,
        AllReduceOperation.MAXIMUMF,
    }
)
_INT_ONLY = frozenset(
    {
        AllReduceOperation.MINSI,
        AllReduceOperation.MINUI,
        AllReduceOperation.MAXSI,
        AllReduceOperation.MAXUI,
        AllReduceOperation.AND,
        AllReduceOperation.OR,
        AllReduceOperation.XOR,
    }
)


def _check_reduction_kind(kind: AllReduceOperation, elem: Attribute, shown: Attribute):
    """Float-only reductions need a float, bitwise/integer ones an integer."""
    if (kind in _FLOAT_ONLY and not isinstance(elem, AnyFloat)) or (
        kind in _INT_ONLY and not isinstance(elem, IntegerType)
    ):
        raise OpDiagnostic(
            f"`{kind.value}` reduction operation is not compatible with type '{shown}'",
            prefix=False,
        )
