"""vector.contract as MLIR 22 reads, prints and verifies it: the trait
dictionary (indexing maps, iterator types as strings, kind), then the
operands, the other attributes and the types."""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    IntegerType,
    Signedness,
    StringAttr,
    VectorType,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
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

from xgpu.dialects.vector.attrs import IteratorType, IteratorTypeAttr
from xgpu.dialects.vector.common import (
    element_type,
    print_attr_dict,
    q,
)
from xgpu.dialects.vector.ops_slices import supports_kind

_ADD = CombiningKindAttr(CombiningKindFlag.ADD)


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


OPS: list[type[Operation]] = [ContractionOp]
