"""MLIR 22's math dialect on xDSL 0.75: xDSL's ops plus those it lacks
(erfc, the float classifications isfinite/isinf/isnan/isnormal, sincos,
clampf), as mlir-opt 22 reads, prints and verifies them."""

from __future__ import annotations

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import AnyFloat, TensorType, VectorType, i1
from xdsl.dialects.math import FloatingPointLikeUnaryMathOperation
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.arith import check_parsed_type
from xgpu.dialects.derive import derived_dialect
from xgpu.ir.printer import attribute_text

_NONE = FastMathFlagsAttr("none")
_FLOAT_LIKE = "floating-point-like"


def _float_like(type_: Attribute) -> bool:
    element = type_.element_type if isinstance(type_, VectorType | TensorType) else type_
    return isinstance(element, AnyFloat)


def _i1_like(type_: Attribute) -> Attribute:
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(i1, type_.get_shape(), type_.encoding)
    return i1


def _check_float(op: Operation, index: int) -> None:
    type_ = op.operands[index].type
    if not _float_like(type_):
        raise VerifyException(
            f"operand #{index} must be {_FLOAT_LIKE}, but got '{attribute_text(type_)}'"
        )


def _parse_fastmath(parser: Parser) -> FastMathFlagsAttr:
    if parser.parse_optional_keyword("fastmath") is None:
        return _NONE
    return FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))


def _print_fastmath(printer: Printer, fastmath: FastMathFlagsAttr) -> None:
    if fastmath != _NONE:
        printer.print_string(" fastmath")
        fastmath.print_parameter(printer)


@irdl_op_definition
class ErfcOp(FloatingPointLikeUnaryMathOperation):
    name = "math.erfc"

    traits = traits_def(Pure())


class _FloatClassification(IRDLOperation):
    """`math.isnan %x : f32` -> i1 (or i1 in the operand's vector shape)."""

    operand = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    fastmath = prop_def(FastMathFlagsAttr, default_value=_NONE)

    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, fastmath: FastMathFlagsAttr | None = None):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=[_i1_like(operand.type)],
            properties={"fastmath": fastmath or _NONE},
        )

    @classmethod
    def parse(cls, parser: Parser):  # type: ignore[no-untyped-def]
        operand = parser.parse_unresolved_operand()
        fastmath = _parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        check_parsed_type(parser, cls.name, "operand", _FLOAT_LIKE, type_)
        return cls.create(
            operands=[parser.resolve_operand(operand, type_)],
            result_types=[_i1_like(type_)],
            properties={"fastmath": fastmath},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        _print_fastmath(printer, self.fastmath)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)

    def verify_(self) -> None:
        _check_float(self, 0)
        result = self.result.type
        element = result.element_type if isinstance(result, VectorType | TensorType) else result
        if element != i1:
            raise VerifyException(
                f"result #0 must be bool-like, but got '{attribute_text(result)}'"
            )
        if result != _i1_like(self.operand.type):
            raise VerifyException(
                "failed to verify that result type has i1 element type and same shape as operands"
            )


@irdl_op_definition
class IsFiniteOp(_FloatClassification):
    name = "math.isfinite"


@irdl_op_definition
class IsInfOp(_FloatClassification):
    name = "math.isinf"


@irdl_op_definition
class IsNaNOp(_FloatClassification):
    name = "math.isnan"


@irdl_op_definition
class IsNormalOp(_FloatClassification):
    name = "math.isnormal"


@irdl_op_definition
class SincosOp(IRDLOperation):
    """`%sin, %cos = math.sincos %x (fastmath<...>)? : f32`."""

    name = "math.sincos"

    operand = operand_def(AnyAttr())
    sin = result_def(AnyAttr())
    cos = result_def(AnyAttr())
    fastmath = prop_def(FastMathFlagsAttr, default_value=_NONE)

    traits = traits_def(Pure())

    def __init__(self, operand: SSAValue | Operation, fastmath: FastMathFlagsAttr | None = None):
        operand = SSAValue.get(operand)
        super().__init__(
            operands=[operand],
            result_types=[operand.type, operand.type],
            properties={"fastmath": fastmath or _NONE},
        )
        self.results[0].name_hint = self.results[0].name_hint or "sin"
        self.results[1].name_hint = self.results[1].name_hint or "cos"

    @classmethod
    def parse(cls, parser: Parser) -> SincosOp:
        operand = parser.parse_unresolved_operand()
        fastmath = _parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls(parser.resolve_operand(operand, type_), fastmath)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        _print_fastmath(printer, self.fastmath)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)

    def verify_(self) -> None:
        _check_float(self, 0)
        if not self.operand.type == self.sin.type == self.cos.type:
            raise VerifyException("failed to verify that all of {operand, sin, cos} have same type")


@irdl_op_definition
class ClampFOp(IRDLOperation):
    """`math.clampf %x to [%lo, %hi] (fastmath<...>)? : f32`."""

    name = "math.clampf"

    value = operand_def(AnyAttr())
    min = operand_def(AnyAttr())
    max = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    fastmath = prop_def(FastMathFlagsAttr, default_value=_NONE)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ClampFOp:
        value = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        parser.parse_punctuation("[")
        low = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        high = parser.parse_unresolved_operand()
        parser.parse_punctuation("]")
        fastmath = _parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        return cls.create(
            operands=parser.resolve_operands([value, low, high], [type_] * 3, parser.pos),
            result_types=[type_],
            properties={"fastmath": fastmath},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" to [")
        printer.print_operand(self.min)
        printer.print_string(", ")
        printer.print_operand(self.max)
        printer.print_string("]")
        _print_fastmath(printer, self.fastmath)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)

    def verify_(self) -> None:
        for index in range(3):
            _check_float(self, index)
        if not self.value.type == self.min.type == self.max.type == self.result.type:
            raise VerifyException("requires the same type for all operands and results")


OPS: list[type[Operation]] = [
    ErfcOp,
    IsFiniteOp,
    IsInfOp,
    IsNaNOp,
    IsNormalOp,
    SincosOp,
    ClampFOp,
]


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect

    return derived_dialect(xdsl_dialect("math"), "math", ops=OPS)
