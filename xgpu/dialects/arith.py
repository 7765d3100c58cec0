"""MLIR 22's arith dialect on xDSL 0.75: xDSL's ops, with xgpu's classes where
xDSL reads, prints or verifies an op differently (comparisons and selects on
vectors, casts of vectors, `roundingmode`/`fastmath` on truncf/extf,
`overflow` on trunci) and the ops xDSL lacks (remf, index_castui)."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import (
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
    IntegerOverflowAttr,
)
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    VectorType,
    i1,
    i32,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.derive import derived_dialect
from xgpu.dialects.gpu.utils import MLIRResultNames
from xgpu.ir.printer import attribute_text

_NONE = FastMathFlagsAttr("none")
_NO_OVERFLOW = IntegerOverflowAttr("none")


def _q(attr: Attribute) -> str:
    return f"'{attribute_text(attr)}'"


def _element(type_: Attribute) -> Attribute:
    return type_.element_type if isinstance(type_, VectorType | TensorType) else type_


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, VectorType | TensorType) else None


def _like(type_: Attribute, element_type: Attribute) -> Attribute:
    """`element_type` in the container shape of `type_` (i1 for i32, vector<4xi1>
    for vector<4xi32>)."""
    if isinstance(type_, VectorType):
        return VectorType(element_type, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(element_type, type_.get_shape(), type_.encoding)
    return element_type


def _is_signless_int(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.signedness.data == Signedness.SIGNLESS


def _is_signless_or_index(type_: Attribute) -> bool:
    return isinstance(type_, IndexType) or _is_signless_int(type_)


def check_parsed_type(
    parser: Parser, op_name: str, operand: str, kind: str, type_: Attribute
) -> None:
    """MLIR's parse-time check of an operand type that the custom syntax infers
    (`custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got 'f32'`),
    reported at the op name as mlir-opt does."""
    if _accepts(kind, type_):
        return
    text = parser.lexer.input.content
    at = text.rfind(op_name, 0, parser.pos)
    parser.raise_error(
        f"custom op '{op_name}' '{operand}' must be {kind}, but got {_q(type_)}",
        at if at >= 0 else parser.pos,
        (at + len(op_name)) if at >= 0 else None,
    )


def _print_overflow_flags(self: IntegerOverflowAttr, printer: Printer) -> None:
    """MLIR 22 separates the flags with a comma and a space: `overflow<nsw, nuw>`
    (and `#arith.overflow<nsw, nuw>`); xDSL 0.75 writes `nsw,nuw`. Parsing
    accepts both."""
    with printer.in_angle_brackets():
        flags = [f.value for f in type(self).enum_type if f in self.data]
        printer.print_string(", ".join(flags) if flags else "none")


# xDSL's class is the one its arith ops (addi, subi, muli, shli) hold.
IntegerOverflowAttr.print_parameter = _print_overflow_flags  # type: ignore[method-assign]


# ------------------------------------------------------------ comparisons


class _Comparison:
    """The result of a comparison: i1, or i1 in the operands' vector/tensor shape."""

    @staticmethod
    def _check_operands(op: IRDLOperation, kind: str) -> None:
        for index, value in enumerate(op.operands):
            if not _accepts(kind, value.type):
                raise VerifyException(f"operand #{index} must be {kind}, but got {_q(value.type)}")
        if op.operands[0].type != op.operands[1].type:
            raise VerifyException("failed to verify that all of {lhs, rhs} have same type")

    @staticmethod
    def _check_result(op: IRDLOperation) -> None:
        if op.results[0].type != _like(op.operands[0].type, i1):
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
        props["fastmath"] = _NONE
        if parser.parse_optional_keyword("fastmath") is not None:
            props["fastmath"] = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    check_parsed_type(parser, cls.name, "lhs", _FLOAT_LIKE if fastmath else _INDEX_LIKE_CMP, type_)
    operands = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
    return cls.create(
        operands=operands,
        result_types=[_like(type_, i1)],
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
    if fastmath is not None and fastmath != _NONE:
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
            result_types=[_like(operand1.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        return _parse_comparison(cls, parser, xarith.CMPI_COMPARISON_OPERATIONS, False)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_comparison(self, printer, xarith.CMPI_COMPARISON_OPERATIONS)

    def verify_(self) -> None:
        _Comparison._check_operands(self, _INDEX_LIKE_CMP)
        _Comparison._check_result(self)


@irdl_op_definition
class CmpfOp(xarith.CmpfOp):
    name = "arith.cmpf"

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    fastmath = prop_def(FastMathFlagsAttr, default_value=_NONE)
    result = result_def(AnyAttr())

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: FastMathFlagsAttr = _NONE,
    ):
        operand1 = SSAValue.get(operand1)
        if isinstance(arg, str):
            arg = xarith.CMPF_COMPARISON_OPERATIONS.index(arg)
        IRDLOperation.__init__(
            self,
            operands=[operand1, operand2],
            result_types=[_like(operand1.type, i1)],
            properties={"predicate": IntegerAttr(arg, 64), "fastmath": fastmath},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        return _parse_comparison(cls, parser, xarith.CMPF_COMPARISON_OPERATIONS, True)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        _print_comparison(self, printer, xarith.CMPF_COMPARISON_OPERATIONS)

    def verify_(self) -> None:
        _Comparison._check_operands(self, _FLOAT_LIKE)
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
        if _element(cond) != i1:
            raise VerifyException(f"operand #0 must be bool-like, but got {_q(cond)}")
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException(
                "failed to verify that all of {true_value, false_value, result} have same type"
            )
        if _shape(cond) is not None and _shape(cond) != _shape(self.result.type):
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
        fastmath = _NONE
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
        if self.fastmath != _NONE:
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        for index, value in enumerate(self.operands):
            if not _accepts(_FLOAT_LIKE, value.type):
                raise VerifyException(
                    f"operand #{index} must be {_FLOAT_LIKE}, but got {_q(value.type)}"
                )
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException("failed to verify that all of {lhs, rhs, result} have same type")


# ------------------------------------------------------------------ casts

_FLOAT_LIKE = "floating-point-like"
_INT_LIKE = "signless-fixed-width-integer-like"
_INDEX_LIKE = "signless-integer-like or memref of signless-integer"
_INDEX_LIKE_CMP = "signless-integer-like"


def _accepts(kind: str, type_: Attribute) -> bool:
    if kind == _INDEX_LIKE and isinstance(type_, MemRefType):
        return _is_signless_int(type_.element_type)
    if isinstance(type_, MemRefType):
        return False
    element = _element(type_)
    if kind == _FLOAT_LIKE:
        return isinstance(element, AnyFloat)
    if kind == _INT_LIKE:
        return _is_signless_int(element)
    if kind == _INDEX_LIKE_CMP and isinstance(type_, MemRefType):
        return False
    return _is_signless_or_index(element)


def _width(type_: Attribute) -> int:
    element = _element(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    assert isinstance(element, AnyFloat)
    return element.bitwidth


def _verify_cast(op: Operation, kinds: tuple[str, str], compatible) -> None:  # type: ignore[no-untyped-def]
    source, result = op.operands[0].type, op.results[0].type
    if not _accepts(kinds[0], source):
        raise VerifyException(f"operand #0 must be {kinds[0]}, but got {_q(source)}")
    if not _accepts(kinds[1], result):
        raise VerifyException(f"result #0 must be {kinds[1]}, but got {_q(result)}")
    if _shape(source) != _shape(result) or _container(source) != _container(result):
        raise VerifyException("requires the same shape for all operands and results")
    if not compatible(_element(source), _element(result)):
        raise VerifyException(
            f"operand type {_q(source)} and result type {_q(result)} are cast incompatible"
        )


def _container(type_: Attribute) -> type | None:
    return type(type_) if isinstance(type_, VectorType | TensorType | MemRefType) else None


def _wider(a: Attribute, b: Attribute) -> bool:
    return _width(b) > _width(a)


def _narrower(a: Attribute, b: Attribute) -> bool:
    return _width(b) < _width(a)


def _any(a: Attribute, b: Attribute) -> bool:
    return True


def _one_index(a: Attribute, b: Attribute) -> bool:
    return isinstance(a, IndexType) != isinstance(b, IndexType)


_CAST_FORMAT = "$input attr-dict `:` type($input) `to` type($result)"


def _cast(base: type[IRDLOperation], op_name: str, kinds: tuple[str, str], compatible):  # type: ignore[no-untyped-def]
    """xgpu's class for the cast `op_name` (a subclass of xDSL's `base`, if any):
    vectors and tensors of its element types, MLIR's checks and messages."""

    def verify_(self: IRDLOperation) -> None:
        _verify_cast(self, kinds, compatible)

    namespace = {
        "name": op_name,
        "input": operand_def(AnyAttr()),
        "result": result_def(AnyAttr()),
        "traits": traits_def(Pure()),
        "assembly_format": _CAST_FORMAT,
        "parse": Operation.parse,
        "print": Operation.print,
        "verify_": verify_,
        "__module__": __name__,
    }
    cls_name = base.__name__ if base is not IRDLOperation else _camel(op_name)
    return irdl_op_definition(type(cls_name, (base,), namespace))


def _camel(op_name: str) -> str:
    return "".join(p.capitalize() for p in op_name.split(".")[1].split("_")) + "Op"


ExtSIOp = _cast(xarith.ExtSIOp, "arith.extsi", (_INT_LIKE, _INT_LIKE), _wider)
ExtUIOp = _cast(xarith.ExtUIOp, "arith.extui", (_INT_LIKE, _INT_LIKE), _wider)
SIToFPOp = _cast(xarith.SIToFPOp, "arith.sitofp", (_INT_LIKE, _FLOAT_LIKE), _any)
UIToFPOp = _cast(xarith.UIToFPOp, "arith.uitofp", (_INT_LIKE, _FLOAT_LIKE), _any)
FPToSIOp = _cast(xarith.FPToSIOp, "arith.fptosi", (_FLOAT_LIKE, _INT_LIKE), _any)
FPToUIOp = _cast(xarith.FPToUIOp, "arith.fptoui", (_FLOAT_LIKE, _INT_LIKE), _any)
IndexCastOp = _cast(xarith.IndexCastOp, "arith.index_cast", (_INDEX_LIKE, _INDEX_LIKE), _one_index)
IndexCastUIOp = _cast(IRDLOperation, "arith.index_castui", (_INDEX_LIKE, _INDEX_LIKE), _one_index)


@irdl_op_definition
class TruncIOp(xarith.TruncIOp):
    """`arith.trunci %x (overflow<...>)? : i32 to i16`."""

    name = "arith.trunci"

    input = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    overflow_flags = prop_def(
        IntegerOverflowAttr, default_value=_NO_OVERFLOW, prop_name="overflowFlags"
    )

    assembly_format = (
        "$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) `to` type($result)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_cast(self, (_INT_LIKE, _INT_LIKE), _narrower)


@irdl_op_definition
class ExtFOp(xarith.ExtFOp):
    """`arith.extf %x (fastmath<...>)? : f16 to f32`."""

    name = "arith.extf"

    input = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    fastmath = opt_prop_def(FastMathFlagsAttr)

    assembly_format = (
        "$input (`fastmath` `` $fastmath^)? attr-dict `:` type($input) `to` type($result)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_cast(self, (_FLOAT_LIKE, _FLOAT_LIKE), _wider)


ROUNDING_MODES = ["to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away"]


@irdl_op_definition
class TruncFOp(xarith.TruncFOp):
    """`arith.truncf %x (roundingmode)? (fastmath<...>)? : f32 to f16`; the rounding
    mode is a 32-bit integer property (MLIR's I32EnumAttr)."""

    name = "arith.truncf"

    input = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    roundingmode = opt_prop_def(IntegerAttr)
    fastmath = opt_prop_def(FastMathFlagsAttr)

    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> TruncFOp:
        source = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        for index, mode in enumerate(ROUNDING_MODES):
            if parser.parse_optional_keyword(mode) is not None:
                props["roundingmode"] = IntegerAttr(index, i32)
                break
        if parser.parse_optional_keyword("fastmath") is not None:
            props["fastmath"] = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_keyword("to")
        res_t = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(source, src_t)],
            result_types=[res_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        mode = self.roundingmode
        if mode is not None and 0 <= mode.value.data < len(ROUNDING_MODES):
            printer.print_string(f" {ROUNDING_MODES[mode.value.data]}")
        if self.fastmath is not None:
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        mode = self.roundingmode
        if mode is not None and not (
            mode.type == i32 and 0 <= mode.value.data < len(ROUNDING_MODES)
        ):
            raise VerifyException(
                "attribute 'roundingmode' failed to satisfy constraint: Floating point "
                "rounding mode"
            )
        _verify_cast(self, (_FLOAT_LIKE, _FLOAT_LIKE), _narrower)


OPS: list[type[Operation]] = [
    CmpiOp,
    CmpfOp,
    SelectOp,
    RemFOp,
    AddUIExtendedOp,
    MulSIExtendedOp,
    MulUIExtendedOp,
    ExtSIOp,
    ExtUIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    IndexCastUIOp,
    TruncIOp,
    ExtFOp,
    TruncFOp,
]


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect

    return derived_dialect(xdsl_dialect("arith"), "arith", ops=OPS)
