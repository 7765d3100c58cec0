"""arith's casts as MLIR 22 reads, prints and verifies them: of scalars,
vectors and tensors; `roundingmode`/`fastmath` on truncf, `fastmath` on extf,
`overflow` on trunci; index_castui."""

from __future__ import annotations

from xdsl.dialects import arith as xarith
from xdsl.dialects.arith import (
    FastMathFlagsAttr,
    IntegerOverflowAttr,
)
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    TensorType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
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

from xgpu.dialects.arith.types import (
    FLOAT_LIKE,
    INDEX_LIKE,
    INT_LIKE,
    NO_OVERFLOW,
    accepts,
    bit_width,
    element_of,
    quoted,
    shape_of,
)

# ------------------------------------------------------------------ casts


def verify_cast(op: Operation, kinds: tuple[str, str], compatible) -> None:  # type: ignore[no-untyped-def]
    source, result = op.operands[0].type, op.results[0].type
    if not accepts(kinds[0], source):
        raise VerifyException(f"operand #0 must be {kinds[0]}, but got {quoted(source)}")
    if not accepts(kinds[1], result):
        raise VerifyException(f"result #0 must be {kinds[1]}, but got {quoted(result)}")
    if shape_of(source) != shape_of(result) or _container(source) != _container(result):
        raise VerifyException("requires the same shape for all operands and results")
    if not compatible(element_of(source), element_of(result)):
        raise VerifyException(
            f"operand type {quoted(source)} and result type {quoted(result)} are cast incompatible"
        )


def _container(type_: Attribute) -> type | None:
    return type(type_) if isinstance(type_, VectorType | TensorType | MemRefType) else None


def _wider(a: Attribute, b: Attribute) -> bool:
    return bit_width(b) > bit_width(a)


def _narrower(a: Attribute, b: Attribute) -> bool:
    return bit_width(b) < bit_width(a)


def _any(a: Attribute, b: Attribute) -> bool:
    return True


def _one_index(a: Attribute, b: Attribute) -> bool:
    return isinstance(a, IndexType) != isinstance(b, IndexType)


_CAST_FORMAT = "$input attr-dict `:` type($input) `to` type($result)"


def _cast(base: type[IRDLOperation], op_name: str, kinds: tuple[str, str], compatible):  # type: ignore[no-untyped-def]
    """xgpu's class for the cast `op_name` (a subclass of xDSL's `base`, if any):
    vectors and tensors of its element types, MLIR's checks and messages."""

    def verify_(self: IRDLOperation) -> None:
        verify_cast(self, kinds, compatible)

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


ExtSIOp = _cast(xarith.ExtSIOp, "arith.extsi", (INT_LIKE, INT_LIKE), _wider)
ExtUIOp = _cast(xarith.ExtUIOp, "arith.extui", (INT_LIKE, INT_LIKE), _wider)
SIToFPOp = _cast(xarith.SIToFPOp, "arith.sitofp", (INT_LIKE, FLOAT_LIKE), _any)
UIToFPOp = _cast(xarith.UIToFPOp, "arith.uitofp", (INT_LIKE, FLOAT_LIKE), _any)
FPToSIOp = _cast(xarith.FPToSIOp, "arith.fptosi", (FLOAT_LIKE, INT_LIKE), _any)
FPToUIOp = _cast(xarith.FPToUIOp, "arith.fptoui", (FLOAT_LIKE, INT_LIKE), _any)
IndexCastOp = _cast(xarith.IndexCastOp, "arith.index_cast", (INDEX_LIKE, INDEX_LIKE), _one_index)
IndexCastUIOp = _cast(IRDLOperation, "arith.index_castui", (INDEX_LIKE, INDEX_LIKE), _one_index)


@irdl_op_definition
class TruncIOp(xarith.TruncIOp):
    """`arith.trunci %x (overflow<...>)? : i32 to i16`."""

    name = "arith.trunci"

    input = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    overflow_flags = prop_def(
        IntegerOverflowAttr, default_value=NO_OVERFLOW, prop_name="overflowFlags"
    )

    assembly_format = (
        "$input (`overflow` `` $overflowFlags^)? attr-dict `:` type($input) `to` type($result)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        verify_cast(self, (INT_LIKE, INT_LIKE), _narrower)


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
        verify_cast(self, (FLOAT_LIKE, FLOAT_LIKE), _wider)


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
        verify_cast(self, (FLOAT_LIKE, FLOAT_LIKE), _narrower)


CAST_OPS: list[type[IRDLOperation]] = [
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
