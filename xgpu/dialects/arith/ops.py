"""xgpu's arith comparisons, selects and extended arithmetic (on vectors and
tensors as MLIR 22 has them), and remf (which xDSL 0.75 lacks); the casts are
in `casts`."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import (
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
)
from xdsl.dialects.builtin import (
    IntegerAttr,
    TensorType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
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

from xgpu.dialects.arith.types import (
    FLOAT_LIKE,
    INTEGER_LIKE,
    NO_FASTMATH,
    accepts,
    check_parsed_type,
    element_of,
    quoted,
    shape_of,
    shaped_like,
)
from xgpu.dialects.gpu.utils import MLIRResultNames

# ------------------------------------------------------------ comparisons


class _Comparison:
    """The result of a comparison: i1, or i1 in the operands' vector/tensor shape."""

    @staticmethod
    def _check_operands(op: IRDLOperation, kind: str) -> None:
        for index, value in enumerate(op.operands):
            if not accepts(kind, value.type):
                raise VerifyException(
                    f"operand #{index} must be {kind}, but got {quoted(value.type)}"
                )
        if op.operands[0].type != op.operands[1].type:
            raise VerifyException("failed to verify that all of {lhs, rhs} have same type")

    @staticmethod
    def _check_result(op: IRDLOperation) -> None:
        if op.results[0].type != shaped_like(op.operands[0].type, i1):
            raise VerifyException(
                "failed to verify that result type has i1 element type and same shape as operands"
            )


def _parse_comparison(
    cls: type[IRDLOperation], parser: Parser, predicates: list[str], fastmath: bool
) -> IRDLOperation:
    pos = parser.pos
    mnemonic = parser.parse_identifier()
    if mnemonic not in predicates:
        parser.raise_error(f"{mnemonic} is not a valid predicate", pos)
    parser.parse_punctuation(",")
    lhs = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    rhs = parser.parse_unresolved_operand()
    props: dict[str, Attribute] = {"predicate": IntegerAttr(predicates.index(mnemonic), 64)}
    if fastmath:
        props["fastmath"] = NO_FASTMATH
        if parser.parse_optional_keyword("fastmath") is not None:
            props["fastmath"] = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    check_parsed_type(parser, cls.name, "lhs", FLOAT_LIKE if fastmath else INTEGER_LIKE, type_)
    operands = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
    return cls.create(
        operands=operands,
        result_types=[shaped_like(type_, i1)],
        properties=props,
        attributes=attrs,
    )


def _print_comparison(op: IRDLOperation, printer: Printer, predicates: list[str]) -> None:
    predicate = op.properties["predicate"]
    assert isinstance(predicate, IntegerAttr)
    printer.print_string(f" {predicates[predicate.value.data]}, ")
    printer.print_operand(op.operands[0])
    printer.print_string(", ")
    printer.print_operand(op.operands[1])
    fastmath = op.properties.get("fastmath")
    if fastmath is not None and fastmath != NO_FASTMATH:
        printer.print_string(" fastmath")
        fastmath.print_parameter(printer)  # type: ignore[attr-defined]
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.operands[0].type)


@irdl_op_definition
class CmpiOp(xarith.CmpiOp):
    name = "arith.cmpi"

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result = result_def(AnyAttr())

    def __init__(
        self, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str
    ):
        operand1 = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = xarith.CMPI_COMPARISON_OPERATIONS.index(arg)
        IRDLOperation.__init__(
            self,
            operands=[operand1, operand2],
            result_types=[shaped_like(operand1.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        return _parse_comparison(cls, parser, xarith.CMPI_COMPARISON_OPERATIONS, False)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_comparison(self, printer, xarith.CMPI_COMPARISON_OPERATIONS)

    def verify_(self) -> None:
        _Comparison._check_operands(self, INTEGER_LIKE)
        _Comparison._check_result(self)


@irdl_op_definition
class CmpfOp(xarith.CmpfOp):
    name = "arith.cmpf"

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    fastmath = prop_def(FastMathFlagsAttr, default_value=NO_FASTMATH)
    result = result_def(AnyAttr())

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: FastMathFlagsAttr = NO_FASTMATH,
    ):
        operand1 = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = xarith.CMPF_COMPARISON_OPERATIONS.index(arg)
        IRDLOperation.__init__(
            self,
            operands=[operand1, operand2],
            result_types=[shaped_like(operand1.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        return _parse_comparison(cls, parser, xarith.CMPF_COMPARISON_OPERATIONS, True)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_comparison(self, printer, xarith.CMPF_COMPARISON_OPERATIONS)

    def verify_(self) -> None:
        _Comparison._check_operands(self, FLOAT_LIKE)
        _Comparison._check_result(self)


@irdl_op_definition
class SelectOp(xarith.SelectOp):
    """`arith.select %c, %a, %b : i1?, type`: the condition an i1, or an i1 vector
    of the values' shape (its type then written first)."""

    name = "arith.select"

    cond = operand_def(AnyAttr())
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result = result_def(AnyAttr())

    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        pos = parser.pos
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        if parser.parse_optional_punctuation(","):
            types.append(parser.parse_type())
        cond_type, value_type = (i1, types[0]) if len(types) == 1 else types
        operands = parser.resolve_operands(names, [cond_type, value_type, value_type], pos)
        return cls.create(operands=operands, result_types=[value_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, VectorType | TensorType):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        cond = self.cond.type
        if element_of(cond) != i1:
            raise VerifyException(f"operand #0 must be bool-like, but got {quoted(cond)}")
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException(
                "failed to verify that all of {true_value, false_value, result} have same type"
            )
        if shape_of(cond) is not None and shape_of(cond) != shape_of(self.result.type):
            raise VerifyException(
                "failed to verify that condition is signless i1 or has matching shape"
            )


# ---------------------------------------------------- extended arithmetic

_T = VarConstraint("T", xarith.signlessIntegerLike)


@irdl_op_definition
class AddUIExtendedOp(MLIRResultNames, xarith.AddUIExtendedOp):
    """MLIR names the results `%sum, %overflow`."""

    name = "arith.addui_extended"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("sum", "overflow")

    lhs = operand_def(_T)
    rhs = operand_def(_T)
    sum = result_def(_T)
    overflow = result_def(xarith.boolLike)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"
    parse = Operation.parse
    print = Operation.print


@irdl_op_definition
class MulSIExtendedOp(MLIRResultNames, xarith.MulSIExtendedOp):
    """MLIR names the results `%low, %high`."""

    name = "arith.mulsi_extended"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("low", "high")

    lhs = operand_def(_T)
    rhs = operand_def(_T)
    low = result_def(_T)
    high = result_def(_T)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"
    parse = Operation.parse
    print = Operation.print


@irdl_op_definition
class MulUIExtendedOp(MLIRResultNames, xarith.MulUIExtendedOp):
    """MLIR names the results `%low, %high`."""

    name = "arith.mului_extended"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("low", "high")

    lhs = operand_def(_T)
    rhs = operand_def(_T)
    low = result_def(_T)
    high = result_def(_T)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"
    parse = Operation.parse
    print = Operation.print


# ------------------------------------------------------------------ remf


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    name = "arith.remf"

    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result = result_def(AnyAttr())

    traits = traits_def(Pure())
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> RemFOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        fastmath = NO_FASTMATH
        if parser.parse_optional_keyword("fastmath") is not None:
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        return cls.create(
            operands=parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos),
            result_types=[type_],
            properties={"fastmath": fastmath},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        if self.fastmath != NO_FASTMATH:
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        for index, value in enumerate(self.operands):
            if not accepts(FLOAT_LIKE, value.type):
                raise VerifyException(
                    f"operand #{index} must be {FLOAT_LIKE}, but got {quoted(value.type)}"
                )
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException("failed to verify that all of {lhs, rhs, result} have same type")


OPS: list[type[Operation]] = [
    CmpiOp,
    CmpfOp,
    SelectOp,
    RemFOp,
    AddUIExtendedOp,
    MulSIExtendedOp,
    MulUIExtendedOp,
]
