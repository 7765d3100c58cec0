"""vector ops over parts of vectors: extract_strided_slice,
insert_strided_slice, multi_reduction, outerproduct, contract; as MLIR 22
reads, prints and verifies them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
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

from xgpu.dialects.vector.attrs import IteratorType, IteratorTypeAttr
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


# ------------------------------------------------------------------ contract

_TRAIT_NAMES = ("indexing_maps", "iterator_types", "kind")


@irdl_op_definition
class ContractionOp(IRDLOperation):
    """`vector.contract {indexing_maps = [...], iterator_types = ["parallel", ...],
    kind = #vector.kind<add>} %lhs, %rhs, %acc attr-dict : lhs, rhs into acc`."""

    name = "vector.contract"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(AnyAttr())
    indexing_maps = prop_def(ArrayAttr)
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    kind = prop_def(CombiningKindAttr, default_value=_ADD)
    result = result_def(AnyAttr())

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        pos = parser.pos
        trait = parser.parse_attribute()
        if not isinstance(trait, DictionaryAttr):
            parser.raise_error("expected attribute value", pos)
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        if parser.parse_optional_punctuation(","):
            parser.raise_error("expected zero or exactly 2 vector mask operands", pos)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        parser.parse_keyword("into")
        res_t = parser.parse_type()
        props = dict(trait.data)
        iterators = props.get("iterator_types")
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error("expected iterator_types array attribute", pos)
        converted: list[Attribute] = []
        for item in iterators.data:
            if isinstance(item, StringAttr):
                if item.data not in ("parallel", "reduction"):
                    parser.raise_error(f"unexpected iterator_type ({item.data})", pos)
                converted.append(IteratorTypeAttr(IteratorType(item.data)))
            else:
                converted.append(item)
        props["iterator_types"] = ArrayAttr(converted)
        if "kind" in attrs:
            props["kind"] = attrs.pop("kind")
        props.setdefault("kind", _ADD)
        for name in list(props):
            if name not in _TRAIT_NAMES:
                attrs[name] = props.pop(name)
        return cls.create(
            operands=[
                parser.resolve_operand(lhs, lhs_t),
                parser.resolve_operand(rhs, rhs_t),
                parser.resolve_operand(acc, res_t),
            ],
            result_types=[res_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        names = [
            StringAttr(a.data.value) if isinstance(a, IteratorTypeAttr) else a
            for a in self.iterator_types.data
        ]
        trait = {
            "indexing_maps": self.indexing_maps,
            "iterator_types": ArrayAttr(names),
            "kind": self.kind,
        }
        printer.print_string(" ")
        printer.print_attr_dict(trait)
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(", ")
        printer.print_attribute(self.rhs.type)
        printer.print_string(" into ")
        printer.print_attribute(self.result.type)

    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data if isinstance(m, AffineMapAttr)]

    def verify_(self) -> None:
        lhs, rhs = self.lhs.type, self.rhs.type
        assert isinstance(lhs, VectorType) and isinstance(rhs, VectorType)
        acc, res = self.acc.type, self.result.type
        if lhs.element_type != rhs.element_type:
            raise VerifyException("failed to verify that lhs and rhs have same element type")
        if element_type(acc) != element_type(res):
            raise VerifyException(
                "failed to verify that third operand acc and result have same element type"
            )
        if acc != res:
            raise VerifyException("failed to verify that all of {acc, result} have same type")
        elt = lhs.element_type
        if isinstance(elt, IntegerType) and elt.signedness.data != Signedness.SIGNLESS:
            raise VerifyException("only supports signless integer types")
        maps = self.maps()
        if len(self.indexing_maps.data) != 3 or len(maps) != 3:
            raise VerifyException("expected an indexing map for each vector operand")
        iterators = [
            a.data if isinstance(a, IteratorTypeAttr) else None for a in self.iterator_types.data
        ]
        for index, amap in enumerate(maps):
            if amap.num_symbols:
                raise VerifyException(f"expected indexing map {index} to have no symbols")
            type_ = self.operands[index].type
            rank = type_.get_num_dims() if isinstance(type_, VectorType) else 0
            if amap.num_dims != len(iterators):
                raise VerifyException(
                    f"expected indexing map {index} to have {len(iterators)} number of inputs"
                )
            if len(amap.results) != rank:
                raise VerifyException(
                    f"expected indexing map {index} to have {rank} number of outputs"
                )
            if not _projected_permutation(amap):
                raise VerifyException(
                    f"expected indexing map {index} to be a projected permutation of its inputs"
                )
        contracting = _dim_map(maps, iterators, IteratorType.REDUCTION)
        batch = _dim_map(maps, iterators, IteratorType.PARALLEL)
        if not contracting:
            raise VerifyException("expected at least one contracting dimension pair")
        if not _valid_dim_map(lhs, rhs, contracting):
            raise VerifyException("invalid contracting dimension map")
        if not _valid_dim_map(lhs, rhs, batch):
            raise VerifyException("invalid batch dimension map")
        _verify_output_shape(lhs, rhs, acc, res, maps, contracting, batch)
        if not supports_kind(self.kind, element_type(res)):
            raise VerifyException("unsupported contraction type")


def _projected_permutation(amap: AffineMap) -> bool:
    seen: set[int] = set()
    for expr in amap.results:
        if not isinstance(expr, AffineDimExpr) or expr.position in seen:
            return False
        seen.add(expr.position)
    return True


def _position(amap: AffineMap, dim: int) -> int:
    for index, expr in enumerate(amap.results):
        if isinstance(expr, AffineDimExpr) and expr.position == dim:
            return index
    return -1


def _dim_map(
    maps: list[AffineMap], iterators: list[IteratorType | None], kind: IteratorType
) -> list[tuple[int, int]]:
    pairs = []
    for dim, iterator in enumerate(iterators):
        if iterator != kind:
            continue
        a, b = _position(maps[0], dim), _position(maps[1], dim)
        if a >= 0 and b >= 0:
            pairs.append((a, b))
    return pairs


def _valid_dim_map(lhs: VectorType, rhs: VectorType, pairs: list[tuple[int, int]]) -> bool:
    for a, b in pairs:
        if not (0 <= a < lhs.get_num_dims() and 0 <= b < rhs.get_num_dims()):
            return False
        if lhs.get_shape()[a] != rhs.get_shape()[b]:
            return False
    return True


def _verify_output_shape(
    lhs: VectorType,
    rhs: VectorType,
    acc: Attribute,
    res: Attribute,
    maps: list[AffineMap],
    contracting: list[tuple[int, int]],
    batch: list[tuple[int, int]],
) -> None:
    lhs_contracting = {a for a, _ in contracting}
    rhs_contracting = {b for _, b in contracting}
    rhs_batch = {b for _, b in batch}
    free = [d for i, d in enumerate(lhs.get_shape()) if i not in lhs_contracting]
    free += [
        d for i, d in enumerate(rhs.get_shape()) if i not in rhs_contracting and i not in rhs_batch
    ]
    bad = VerifyException("invalid accumulator/result vector shape")
    if not free:
        if isinstance(res, VectorType) or isinstance(acc, VectorType):
            raise bad
        return
    if not isinstance(res, VectorType) or not isinstance(acc, VectorType):
        raise bad
    extents: dict[int, int] = {}
    for amap, type_ in ((maps[0], lhs), (maps[1], rhs)):
        for index, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr):
                extents.setdefault(expr.position, type_.get_shape()[index])
    expected = []
    for expr in maps[2].results:
        if not isinstance(expr, AffineDimExpr) or expr.position not in extents:
            raise VerifyException(
                "expected all dimensions to get an extent as either a LHS or RHS dim"
            )
        expected.append(extents[expr.position])
    expected_type = VectorType(res.element_type, expected)
    if res != expected_type:
        raise VerifyException(
            f"invalid accumulator/result vector shape, expected: {q(expected_type)}"
        )


OPS: list[type[Operation]] = [
    ExtractStridedSliceOp,
    InsertStridedSliceOp,
    MultiDimReductionOp,
    OuterProductOp,
    ContractionOp,
]
