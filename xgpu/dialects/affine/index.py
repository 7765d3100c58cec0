"""affine.delinearize_index and affine.linearize_index (xDSL 0.75 has
neither), with MLIR 22's mixed static/dynamic basis `(%n, 4)`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    UnitAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.affine.syntax import expect

DYNAMIC = -(1 << 63)
"""MLIR's ShapedType::kDynamic: a basis element given by an operand."""


def _parse_basis(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
    """`(4, %n, 8)`: static values (DYNAMIC where an operand stands) and operands."""
    static: list[int] = []
    dynamic: list[UnresolvedOperand] = []

    def parse_element() -> None:
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            dynamic.append(operand)
            static.append(DYNAMIC)
            return
        value = parser.parse_optional_integer(allow_boolean=False)
        if value is None:
            parser.raise_error("expected integer value")
        static.append(value)

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_element)
    return static, dynamic


def _print_basis(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    values = iter(dynamic)
    with printer.in_parens():
        for i, value in enumerate(static):
            if i:
                printer.print_string(", ")
            if value == DYNAMIC:
                printer.print_ssa_value(next(values))
            else:
                printer.print_string(str(value))


def _static(attr: DenseArrayBase) -> list[int]:
    return [int(v) for v in attr.get_values()]


def _verify_basis(static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    if sum(v == DYNAMIC for v in static) != len(dynamic):
        raise VerifyException(
            "mismatch between dynamic and static basis (kDynamic marker but no "
            "corresponding dynamic basis entry) -- this can only happen due to an "
            "incorrect fold/rewrite"
        )


def _index_types(parser: Parser) -> list[Attribute]:
    return parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    name = "affine.delinearize_index"

    linear_index = operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    multi_index = var_result_def(IndexType)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        static = _static(self.static_basis)
        if len(self.multi_index) not in (len(static), len(static) + 1):
            raise VerifyException(
                "should return an index for each basis element and up to one extra index"
            )
        _verify_basis(static, self.dynamic_basis)
        if any(v != DYNAMIC and v <= 0 for v in static):
            raise VerifyException("no basis element may be statically non-positive")

    @classmethod
    def parse(cls, parser: Parser) -> DelinearizeIndexOp:
        index = parser.parse_unresolved_operand()
        parser.parse_keyword("into")
        static, dynamic = _parse_basis(parser)
        attrs = parser.parse_optional_attr_dict()
        expect(parser, ":")
        types = _index_types(parser)
        return cls.create(
            operands=[
                parser.resolve_operand(index, IndexType()),
                *(parser.resolve_operand(o, IndexType()) for o in dynamic),
            ],
            result_types=types,
            properties={"static_basis": DenseArrayBase.from_list(i64, static)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.linear_index)
        printer.print_string(" into ")
        _print_basis(printer, _static(self.static_basis), self.dynamic_basis)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.multi_index.types, printer.print_attribute)


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    name = "affine.linearize_index"

    multi_index = var_operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    static_basis = prop_def(DenseArrayBase.constr(i64))
    disjoint = opt_prop_def(Attribute)
    linear_index = result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    @classmethod
    def create(cls, *, properties: Mapping[str, Attribute] = {}, **kwargs):  # type: ignore[override]
        # MLIR's `disjoint` is a UnitProp that prints `disjoint = false` when
        # unset: a generic op written without it gets the false value.
        if "disjoint" not in properties:
            properties = {**properties, "disjoint": IntegerAttr(0, i1)}
        return super().create(properties=properties, **kwargs)

    def is_disjoint(self) -> bool:
        return isinstance(self.disjoint, UnitAttr) or (
            isinstance(self.disjoint, IntegerAttr) and self.disjoint.value.data != 0
        )

    def verify_(self) -> None:
        if self.disjoint is not None and not isinstance(self.disjoint, UnitAttr | IntegerAttr):
            raise VerifyException("property 'disjoint' must be a unit or boolean attribute")
        static = _static(self.static_basis)
        if len(self.multi_index) not in (len(static), len(static) + 1):
            raise VerifyException(
                "should be passed a basis element for each index except possibly the first"
            )
        _verify_basis(static, self.dynamic_basis)

    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        disjoint = parser.parse_optional_keyword("disjoint") is not None
        expect(parser, "[")
        indices = []
        if not parser.parse_optional_punctuation("]"):
            indices = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(","):
                indices.append(parser.parse_unresolved_operand())
            expect(parser, "]")
        parser.parse_keyword("by")
        static, dynamic = _parse_basis(parser)
        attrs = parser.parse_optional_attr_dict()
        expect(parser, ":")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[
                [parser.resolve_operand(o, IndexType()) for o in indices],
                [parser.resolve_operand(o, IndexType()) for o in dynamic],
            ],
            result_types=[result_type],
            properties={
                "static_basis": DenseArrayBase.from_list(i64, static),
                "disjoint": UnitAttr() if disjoint else IntegerAttr(0, i1),
            },
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        if self.is_disjoint():
            printer.print_string(" disjoint")
        printer.print_string(" ")
        with printer.in_square_brackets():
            printer.print_list(self.multi_index, printer.print_ssa_value)
        printer.print_string(" by ")
        _print_basis(printer, _static(self.static_basis), self.dynamic_basis)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.linear_index.type)


INDEX_OPS = [DelinearizeIndexOp, LinearizeIndexOp]
