"""vector ops over parts of vectors: extract_strided_slice,
insert_strided_slice, multi_reduction, outerproduct (contract: ops_contract);
as MLIR 22
reads, prints and verifies them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.vector.common import (
    element_type,
    int_values,
    parse_i64_list,
    print_attr_dict,
    print_i64_list,
    q,
    split_props,
)

_ADD = CombiningKindAttr(CombiningKindFlag.ADD)
_INT_KINDS = {"minui", "minsi", "maxui", "maxsi", "and", "or", "xor"}
_FLOAT_KINDS = {"minnumf", "maxnumf", "minimumf", "maximumf"}


def supports_kind(kind: CombiningKindAttr, elt: Attribute) -> bool:
    """MLIR's `isSupportedCombiningKind`."""
    name = kind.data.value
    if name in ("add", "mul"):
        return True
    if name in _INT_KINDS:
        return isinstance(elt, IntegerType | IndexType)
    return name in _FLOAT_KINDS and isinstance(elt, AnyFloat)


# ------------------------------------------------------------ strided slices

_I64_ARRAY = ArrayAttr.constr(IntegerAttr.constr(type=i64))


def _smaller_than_shape(values: list[int], shape: Sequence[int], name: str) -> None:
    if len(values) > len(shape):
        raise VerifyException(f"expected {name} attribute of rank no greater than vector rank")


def _confined_to_shape(
    values: list[int], shape: Sequence[int], name: str, half_open: bool = True, low: int = 0
) -> None:
    for index, (value, dim) in enumerate(zip(values, shape)):
        high = dim if half_open else dim + 1
        if value < low or value >= high:
            raise VerifyException(
                f"expected {name} dimension {index} to be confined to [{low}, {high})"
            )


def _confined_to_range(values: list[int], low: int, high: int, name: str) -> None:
    for value in values:
        if value < low or value >= high + 1:
            raise VerifyException(f"expected {name} to be confined to [{low}, {high + 1})")


def _sum_confined_to_shape(
    a: list[int], b: list[int], shape: Sequence[int], names: tuple[str, str]
) -> None:
    for index, (x, y, dim) in enumerate(zip(a, b, shape)):
        if x + y < 0 or x + y >= dim + 1:
            raise VerifyException(
                f"expected sum({names[0]}, {names[1]}) dimension {index} to be confined to "
                f"[1, {dim + 1})"
            )


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    name = "vector.extract_strided_slice"

    vector = operand_def(VectorType)
    offsets = prop_def(_I64_ARRAY)
    sizes = prop_def(_I64_ARRAY)
    strides = prop_def(_I64_ARRAY)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$vector attr-dict `:` type($vector) `to` type(results)"

    def verify_(self) -> None:
        src = self.vector.type
        assert isinstance(src, VectorType)
        if element_type(self.result.type) != src.element_type:
            raise VerifyException("failed to verify that operand and result have same element type")
        offsets, sizes, strides = (int_values(a) for a in (self.offsets, self.sizes, self.strides))
        if not len(offsets) == len(sizes) == len(strides):
            raise VerifyException("expected offsets, sizes and strides attributes of same size")
        shape = src.get_shape()
        for values, name in ((offsets, "offsets"), (sizes, "sizes"), (strides, "strides")):
            _smaller_than_shape(values, shape, name)
        _confined_to_shape(offsets, shape, "offsets")
        _confined_to_shape(sizes, shape, "sizes", half_open=False, low=1)
        _confined_to_range(strides, 1, 1, "strides")
        _sum_confined_to_shape(offsets, sizes, shape, ("offsets", "sizes"))
        expected = VectorType(
            src.element_type,
            [*sizes, *shape[len(sizes) :]],
            src.scalable_dims,
        )
        if self.result.type != expected:
            raise VerifyException(f"expected result type to be {q(expected)}")


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    name = "vector.insert_strided_slice"

    valueToStore = operand_def(VectorType)
    dest = operand_def(VectorType)
    offsets = prop_def(_I64_ARRAY)
    strides = prop_def(_I64_ARRAY)
    res = result_def(VectorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> InsertStridedSliceOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_keyword("into")
        dst_t = parser.parse_type()
        props, attrs = split_props(attrs, ("offsets", "strides"))
        return cls.create(
            operands=[parser.resolve_operand(source, src_t), parser.resolve_operand(dest, dst_t)],
            result_types=[dst_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self, extra=self.properties)
        printer.print_string(" : ")
        printer.print_attribute(self.valueToStore.type)
        printer.print_string(" into ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        src, dst = self.valueToStore.type, self.dest.type
        assert isinstance(src, VectorType) and isinstance(dst, VectorType)
        if src.element_type != element_type(self.res.type):
            raise VerifyException(
                "failed to verify that operand #0 and result have same element type"
            )
        if dst != self.res.type:
            raise VerifyException("failed to verify that all of {dest, res} have same type")
        offsets, strides = int_values(self.offsets), int_values(self.strides)
        if len(offsets) != dst.get_num_dims():
            raise VerifyException("expected offsets of same size as destination vector rank")
        if len(strides) != src.get_num_dims():
            raise VerifyException("expected strides of same size as source vector rank")
        if src.get_num_dims() > dst.get_num_dims():
            raise VerifyException("expected source rank to be no greater than destination rank")
        dst_shape = dst.get_shape()
        padded = [0] * (len(dst_shape) - src.get_num_dims()) + list(src.get_shape())
        _confined_to_shape(offsets, dst_shape, "offsets")
        _confined_to_range(strides, 1, 1, "strides")
        _sum_confined_to_shape(offsets, padded, dst_shape, ("offsets", "source vector shape"))


# ---------------------------------------------------------------- reductions


@irdl_op_definition
class MultiDimReductionOp(IRDLOperation):
    """`vector.multi_reduction <add>, %src, %acc [1] : vector<4x8xf32> to vector<4xf32>`."""

    name = "vector.multi_reduction"

    source = operand_def(VectorType)
    acc = operand_def(AnyAttr())
    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase.constr(i64))
    dest = result_def(AnyAttr())

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> MultiDimReductionOp:
        kind = CombiningKindAttr(CombiningKindAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        dims = parse_i64_list(parser)
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("to")
        dest_type = parser.parse_type()
        return cls.create(
            operands=[
                parser.resolve_operand(source, src_type),
                parser.resolve_operand(acc, dest_type),
            ],
            result_types=[dest_type],
            properties={"kind": kind, "reduction_dims": dims},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        printer.print_string(", ")
        printer.print_operand(self.source)
        printer.print_string(", ")
        printer.print_operand(self.acc)
        print_attr_dict(printer, self)
        printer.print_string(" ")
        print_i64_list(printer, self.reduction_dims.get_values())
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        src = self.source.type
        assert isinstance(src, VectorType)
        if self.acc.type != self.dest.type:
            raise VerifyException("failed to verify that all of {dest, acc} have same type")
        if element_type(self.dest.type) != src.element_type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        dims = {int(d) for d in self.reduction_dims.get_values()}
        kept = [
            (size, scalable)
            for index, (size, scalable) in enumerate(zip(src.get_shape(), src.get_scalable_dims()))
            if index not in dims
        ]
        inferred: Attribute = src.element_type
        if kept:
            scalable = ArrayAttr(BoolAttr.from_bool(bool(k[1])) for k in kept)
            inferred = VectorType(src.element_type, [k[0] for k in kept], scalable)
        if self.dest.type != inferred:
            raise VerifyException(
                f"destination type {q(self.dest.type)} is incompatible with source type {q(src)}"
            )


# ------------------------------------------------------------- outerproduct


@irdl_op_definition
class OuterProductOp(IRDLOperation):
    """`vector.outerproduct %a, %b(, %acc)? {kind}? : vector<4xf32>, vector<8xf32>`."""

    name = "vector.outerproduct"

    lhs = operand_def(VectorType)
    rhs = operand_def(AnyAttr())
    acc = opt_operand_def(VectorType)
    kind = prop_def(CombiningKindAttr, default_value=_ADD)
    result = result_def(VectorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        acc: SSAValue | Operation | None = None,
        kind: CombiningKindAttr | None = None,
    ):
        lhs_t = SSAValue.get(lhs).type
        rhs_t = SSAValue.get(rhs).type
        assert isinstance(lhs_t, VectorType)
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[_outer_type(lhs_t, rhs_t)],
            properties={"kind": kind or _ADD},
        )

    @classmethod
    def parse(cls, parser: Parser) -> OuterProductOp:
        name_pos = parser.pos
        names = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        if len(names) < 2:
            parser.raise_error("expected at least 2 operands", name_pos)
        if not isinstance(lhs_t, VectorType):
            parser.raise_error("expected vector type for operand #1", name_pos)
        res_t = _outer_type(lhs_t, rhs_t)
        types = [lhs_t, rhs_t, res_t]
        operands = [parser.resolve_operand(n, types[min(i, 2)]) for i, n in enumerate(names)]
        kind = attrs.pop("kind", _ADD)
        return cls.create(
            operands=operands,
            result_types=[res_t],
            properties={"kind": kind},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        # MLIR 22 prints the kind only with an accumulator (and then always).
        extra = {} if self.acc is None else {"kind": self.kind}
        print_attr_dict(printer, self, extra=extra)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)

    def verify_(self) -> None:
        lhs, rhs, res = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, VectorType) and isinstance(res, VectorType)
        if lhs.element_type != res.element_type:
            raise VerifyException(
                "failed to verify that lhs operand and result have same element type"
            )
        if element_type(rhs) != res.element_type:
            raise VerifyException(
                "failed to verify that rhs operand and result have same element type"
            )
        if lhs.get_num_dims() != 1:
            raise VerifyException("expected 1-d vector for operand #1")
        if isinstance(rhs, VectorType):
            if rhs.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector for operand #2")
            if res.get_num_dims() != 2:
                raise VerifyException("expected 2-d vector result")
            if lhs.get_shape()[0] != res.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if rhs.get_shape()[0] != res.get_shape()[1]:
                raise VerifyException("expected #2 operand dim to match result dim #2")
        else:
            if res.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector result")
            if lhs.get_shape()[0] != res.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
        if self.acc is not None and self.acc.type != res:
            raise VerifyException("expected operand #3 of same type as result type")
        if not supports_kind(self.kind, res.element_type):
            raise VerifyException("unsupported outerproduct type")


def _outer_type(lhs: VectorType, rhs: Attribute) -> VectorType:
    shape = [lhs.get_shape()[0]] if lhs.get_shape() else [1]
    scalable = [bool(lhs.get_scalable_dims()[0])] if lhs.get_shape() else [False]
    if isinstance(rhs, VectorType) and rhs.get_shape():
        shape.append(rhs.get_shape()[0])
        scalable.append(bool(rhs.get_scalable_dims()[0]))
    dims = ArrayAttr(BoolAttr.from_bool(s) for s in scalable) if any(scalable) else None
    return VectorType(lhs.element_type, shape, dims)


OPS: list[type[Operation]] = [
    ExtractStridedSliceOp,
    InsertStridedSliceOp,
    MultiDimReductionOp,
    OuterProductOp,
]
