"""MLIR 22's index dialect (xDSL 0.75 has none): integer arithmetic on
`index` values (`index.add` ... `index.xor`), `index.casts`/`index.castu`,
`index.cmp`, `index.sizeof`, `index.constant` and `index.bool.constant`,
with MLIR's syntax, generic form, traits (every op is Pure) and verifier
messages (the ODS checks in MLIR's words before xDSL's own, see
`_ods_checks`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, IntegerType, i1
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative, ConstantLike, HasFolder, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xgpu.dialects import derive, xdsl_dialect
from xgpu.dialects.gpu.utils import MLIRResultNames, parse_enum_keyword
from xgpu.dialects.ods_errors import property_conversion_error
from xgpu.ir.upstream_verifiers import quoted, register

_INDEX = IndexType()


class IndexCmpPredicate(StrEnum):
    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"


_PREDICATE_ENUM = "::mlir::index::IndexCmpPredicate"


@irdl_attr_definition
class IndexCmpPredicateAttr(EnumAttribute[IndexCmpPredicate], SpacedOpaqueSyntaxAttribute):
    """`#index<cmp_predicate slt>`."""

    name = "index.cmp_predicate"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IndexCmpPredicate:
        return parse_enum_keyword(parser, IndexCmpPredicate, _PREDICATE_ENUM)


# ---------------------------------------------------------------------------
# MLIR's ODS checks
# ---------------------------------------------------------------------------


def _is_index(t: Attribute) -> bool:
    return isinstance(t, IndexType)


def _is_int_or_index(t: Attribute) -> bool:
    return isinstance(t, (IndexType, IntegerType))


def _is_i1(t: Attribute) -> bool:
    return t == i1


_Check = tuple[Callable[[Attribute], bool], str]
_INDEX_C: _Check = (_is_index, "index")
_INT_OR_INDEX_C: _Check = (_is_int_or_index, "integer or index")
_I1_C: _Check = (_is_i1, "1-bit signless integer")


def _ods_checks(
    operands: Sequence[_Check], results: Sequence[_Check]
) -> Callable[[Operation], None]:
    def check(op: Operation) -> None:
        for what, values, checks in (
            ("operand", op.operands, operands),
            ("result", op.results, results),
        ):
            for index, (value, (accepts, description)) in enumerate(zip(values, checks)):
                if not accepts(value.type):
                    raise VerifyException(
                        f"{what} #{index} must be {description}, but got {quoted(value.type)}"
                    )

    return check


# ---------------------------------------------------------------------------
# Binary ops
# ---------------------------------------------------------------------------


class IndexBinaryOp(IRDLOperation):
    """`%c = index.<op> %a, %b`: two index operands, one index result."""

    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(IndexType)

    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs, rhs):
        super().__init__(operands=[lhs, rhs], result_types=[_INDEX])


def _binary(name: str, cls_name: str, commutative: bool) -> type[IndexBinaryOp]:
    traits = traits_def(Pure(), Commutative()) if commutative else traits_def(Pure())
    cls = type(
        cls_name, (IndexBinaryOp,), {"name": name, "traits": traits, "__doc__": f"`{name}`."}
    )
    return irdl_op_definition(cls)


AddOp = _binary("index.add", "AddOp", True)
SubOp = _binary("index.sub", "SubOp", False)
MulOp = _binary("index.mul", "MulOp", True)
DivSOp = _binary("index.divs", "DivSOp", False)
DivUOp = _binary("index.divu", "DivUOp", False)
CeilDivSOp = _binary("index.ceildivs", "CeilDivSOp", False)
CeilDivUOp = _binary("index.ceildivu", "CeilDivUOp", False)
FloorDivSOp = _binary("index.floordivs", "FloorDivSOp", False)
RemSOp = _binary("index.rems", "RemSOp", False)
RemUOp = _binary("index.remu", "RemUOp", False)
MaxSOp = _binary("index.maxs", "MaxSOp", True)
MaxUOp = _binary("index.maxu", "MaxUOp", True)
MinSOp = _binary("index.mins", "MinSOp", True)
MinUOp = _binary("index.minu", "MinUOp", True)
ShlOp = _binary("index.shl", "ShlOp", False)
ShrSOp = _binary("index.shrs", "ShrSOp", False)
ShrUOp = _binary("index.shru", "ShrUOp", False)
AndOp = _binary("index.and", "AndOp", True)
OrOp = _binary("index.or", "OrOp", True)
XOrOp = _binary("index.xor", "XOrOp", True)

BINARY_OPS: list[type[IndexBinaryOp]] = [
    AddOp, SubOp, MulOp, DivSOp, DivUOp, CeilDivSOp, CeilDivUOp, FloorDivSOp,
    RemSOp, RemUOp, MaxSOp, MaxUOp, MinSOp, MinUOp, ShlOp, ShrSOp, ShrUOp,
    AndOp, OrOp, XOrOp,
]  # fmt: skip


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------


class _IndexCastOp(IRDLOperation):
    # Any type: `_ods_checks` rejects the others in MLIR's words.
    input = operand_def()
    output = result_def()

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def verify_(self) -> None:
        # CastOpInterface: exactly one side is `index`.
        a, b = self.input.type, self.output.type
        if isinstance(a, IndexType) == isinstance(b, IndexType):
            raise VerifyException(
                f"operand type {quoted(a)} and result type {quoted(b)} are cast incompatible"
            )


@irdl_op_definition
class CastSOp(_IndexCastOp):
    """`index.casts %a : index to i32` (sign-extending)."""

    name = "index.casts"


@irdl_op_definition
class CastUOp(_IndexCastOp):
    """`index.castu %a : index to i32` (zero-extending)."""

    name = "index.castu"


# ---------------------------------------------------------------------------
# cmp, sizeof, constants
# ---------------------------------------------------------------------------


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`%0 = index.cmp slt(%a, %b)`."""

    name = "index.cmp"

    pred = prop_def()
    lhs = operand_def(IndexType)
    rhs = operand_def(IndexType)
    result = result_def(i1)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> CmpOp:
        pred = parse_enum_keyword(parser, IndexCmpPredicate, _PREDICATE_ENUM)
        parser.parse_punctuation("(")
        lhs = parser.resolve_operand(parser.parse_unresolved_operand(), _INDEX)
        parser.parse_punctuation(",")
        rhs = parser.resolve_operand(parser.parse_unresolved_operand(), _INDEX)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[lhs, rhs],
            result_types=[i1],
            properties={"pred": IndexCmpPredicateAttr(pred)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        pred = self.pred
        printer.print_string(" ")
        if isinstance(pred, IndexCmpPredicateAttr):
            printer.print_string(pred.data.value)
        else:
            printer.print_attribute(pred)
        printer.print_string("(")
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    """`%0 = index.sizeof`: the width of `index` in bits."""

    name = "index.sizeof"

    result = result_def(IndexType)

    traits = traits_def(Pure())

    assembly_format = "attr-dict"


class _ConstantFolder(HasFolder):
    """A constant folds to its value (so the canonicalizer uniques and hoists it)."""

    @classmethod
    def fold(cls, op: Operation) -> Sequence[Attribute] | None:
        value = op.properties.get("value")
        return [value] if isinstance(value, IntegerAttr) else None


class _ConstantBase(MLIRResultNames, IRDLOperation):
    """`attr-dict $value`: the attribute dictionary comes before the value."""

    RESULT_TYPE: ClassVar[Attribute]

    @classmethod
    def _parse_value(cls, parser: Parser) -> Attribute:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> _ConstantBase:
        attrs = parser.parse_optional_attr_dict()
        value = cls._parse_value(parser)
        return cls.create(
            result_types=[cls.RESULT_TYPE], properties={"value": value}, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        if printer.print_op_attributes(self.attributes):
            pass
        printer.print_string(" ")
        self._print_value(printer)

    def _print_value(self, printer: Printer) -> None:
        raise NotImplementedError


@irdl_op_definition
class ConstantOp(_ConstantBase):
    """`%idx42 = index.constant 42`."""

    name = "index.constant"

    value = prop_def()
    result = result_def(IndexType)

    traits = traits_def(Pure(), ConstantLike(), _ConstantFolder())

    RESULT_TYPE: ClassVar[Attribute] = _INDEX

    def mlir_result_names(self) -> Sequence[str | None]:
        value = self.properties.get("value")
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            return [f"idx{value.value.data}"]
        return [None]

    @classmethod
    def _parse_value(cls, parser: Parser) -> Attribute:
        # MLIR parses any attribute here, an integer being of type `index`
        # (the verifier rejects the others).
        start = parser.pos
        for word in ("true", "false"):
            if parser.parse_optional_keyword(word) is not None:
                return BoolAttr.from_bool(word == "true")
        negative = parser.parse_optional_punctuation("-") is not None
        digits = parser.pos
        value = parser.parse_optional_integer(allow_boolean=False, allow_negative=False)
        if value is None:
            if parser.parse_optional_number() is not None:
                parser.raise_error("floating point value not valid for specified type", start)
            parser.raise_error("expected attribute value")
        value = -value if negative else value
        if not -(2**63) <= value < 2**63:
            parser.raise_error("integer constant out of range for attribute", digits)
        return IntegerAttr(value, _INDEX)

    def _print_value(self, printer: Printer) -> None:
        value = self.value
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            printer.print_string(str(value.value.data))
        else:
            printer.print_attribute(value)


@irdl_op_definition
class BoolConstantOp(_ConstantBase):
    """`%true = index.bool.constant true`."""

    name = "index.bool.constant"

    value = prop_def()
    result = result_def(i1)

    traits = traits_def(Pure(), ConstantLike(), _ConstantFolder())

    RESULT_TYPE: ClassVar[Attribute] = i1

    def mlir_result_names(self) -> Sequence[str | None]:
        value = self.properties.get("value")
        if isinstance(value, IntegerAttr) and value.type == i1:
            return ["true" if value.value.data else "false"]
        return [None]

    @classmethod
    def _parse_value(cls, parser: Parser) -> Attribute:
        start = parser.pos
        value = parser.parse_optional_integer(allow_boolean=True, allow_negative=True)
        if value is None:
            parser.raise_error("expected attribute value")
        if value not in (0, 1, -1):
            parser.raise_error("integer constant out of range for attribute", start)
        return BoolAttr.from_bool(bool(value))

    def _print_value(self, printer: Printer) -> None:
        value = self.value
        if isinstance(value, IntegerAttr) and value.type == i1:
            printer.print_string("true" if value.value.data else "false")
        else:
            printer.print_attribute(value)


def materialize_index_constant(value: Attribute, type_: Attribute) -> Operation | None:
    """MLIR's `IndexDialect::materializeConstant`: an `i1` value as
    `index.bool.constant`, an `index` value as `index.constant`."""
    if isinstance(value, IntegerAttr) and value.type == i1:
        if type_ != i1:
            return None
        return BoolConstantOp.create(result_types=[i1], properties={"value": value})
    if isinstance(value, IntegerAttr):
        if not isinstance(value.type, IndexType) or not isinstance(type_, IndexType):
            return None
        return ConstantOp.create(result_types=[_INDEX], properties={"value": value})
    return None


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------

for _op in BINARY_OPS:
    register(_op.name, before=_ods_checks([_INDEX_C, _INDEX_C], [_INDEX_C]))
for _name in ("index.casts", "index.castu"):
    register(_name, before=_ods_checks([_INT_OR_INDEX_C], [_INT_OR_INDEX_C]))
register("index.sizeof", before=_ods_checks([], [_INDEX_C]))


def _property_conversion(op: Operation, name: str, accepts: Callable[[Attribute], bool]) -> None:
    property_conversion_error(op, name, accepts)


def _constant_checks(op: Operation) -> None:
    _property_conversion(op, "value", lambda v: isinstance(v, IntegerAttr))
    value = op.properties.get("value")
    if value is not None and not (
        isinstance(value, IntegerAttr) and isinstance(value.type, IndexType)
    ):
        raise VerifyException("attribute 'value' failed to satisfy constraint: index attribute")
    _ods_checks([], [_INDEX_C])(op)


def _bool_constant_checks(op: Operation) -> None:
    _property_conversion(op, "value", lambda v: isinstance(v, IntegerAttr) and v.type == i1)
    _ods_checks([], [_I1_C])(op)


def _cmp_checks(op: Operation) -> None:
    _property_conversion(op, "pred", lambda v: isinstance(v, IndexCmpPredicateAttr))
    _ods_checks([_INDEX_C, _INDEX_C], [_I1_C])(op)


register("index.cmp", before=_cmp_checks)
register("index.constant", before=_constant_checks)
register("index.bool.constant", before=_bool_constant_checks)


OPS: list[type[Operation]] = [
    *BINARY_OPS,
    CastSOp,
    CastUOp,
    CmpOp,
    SizeOfOp,
    ConstantOp,
    BoolConstantOp,
]
ATTRS: list[type[Attribute]] = [IndexCmpPredicateAttr]


def dialect() -> Dialect:
    return derive.derived_dialect(xdsl_dialect("index"), "index", ops=OPS, attrs=ATTRS)
