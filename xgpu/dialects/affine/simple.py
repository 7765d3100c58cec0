"""affine.apply, affine.min, affine.max, affine.load, affine.store,
affine.vector_load, affine.vector_store and affine.yield with MLIR 22's
syntax (`affine.apply #map(%i)[%n]`, `affine.load %m[%i + 1] : memref<...>`)
and verifier messages."""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, VectorType
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.affine.syntax import (
    expect,
    parse_dim_and_symbol_list,
    parse_subscripts,
    print_dim_and_symbol_list,
    print_map_of_ssa_ids,
    resolve_indices,
)
from xgpu.dialects.affine.validity import check_access_operands
from xgpu.ir.printer import attribute_text


def _parse_map_application(parser: Parser, name: str):
    """`#map(%d...)[%s...] attr-dict` of affine.apply/min/max."""
    attr_pos = parser.pos
    amap = parser.parse_attribute()
    if not isinstance(amap, AffineMapAttr):
        parser.raise_error("invalid kind of attribute specified", attr_pos)
    pos = parser.pos
    dims, syms = parse_dim_and_symbol_list(parser)
    if len(dims) != amap.data.num_dims or len(syms) != amap.data.num_symbols:
        parser.raise_error(f"custom op '{name}' dimension or symbol index mismatch", pos)
    operands = resolve_indices(parser, [*dims, *syms])
    attrs = parser.parse_optional_attr_dict()
    return amap, operands, attrs


def _print_map_application(op: IRDLOperation, printer: Printer, amap: AffineMapAttr):
    printer.print_string(" ")
    printer.print_attribute(amap)
    print_dim_and_symbol_list(printer, op.operands, amap.data.num_dims)
    printer.print_op_attributes(op.attributes)


def _verify_operand_count(op: IRDLOperation, amap: AffineMapAttr) -> None:
    if len(op.operands) != amap.data.num_dims + amap.data.num_symbols:
        raise VerifyException("operand count and affine map dimension and symbol count must match")


@irdl_op_definition
class ApplyOp(affine.ApplyOp):
    name = "affine.apply"

    # xDSL's fields, declared again (a subclass of an IRDL op redefines them).
    mapOperands = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        _verify_operand_count(self, self.map)
        if len(self.map.data.results) != 1:
            raise VerifyException("mapping must produce one value")

    @classmethod
    def parse(cls, parser: Parser) -> ApplyOp:
        amap, operands, attrs = _parse_map_application(parser, cls.name)
        op = cls(operands, amap)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        _print_map_application(self, printer, self.map)


class _MinMax:
    """affine.min and affine.max: `#map(%d...)[%s...]`, one index result."""

    def verify_(self) -> None:
        _verify_operand_count(self, self.map)  # type: ignore[attr-defined]
        if not self.map.data.results:  # type: ignore[attr-defined]
            raise VerifyException("affine map expect at least one result")

    @classmethod
    def parse(cls, parser: Parser):
        amap, operands, attrs = _parse_map_application(parser, cls.name)  # type: ignore[attr-defined]
        return cls.create(  # type: ignore[attr-defined]
            operands=operands,
            result_types=[IndexType()],
            properties={"map": amap},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        _print_map_application(self, printer, self.map)  # type: ignore[attr-defined]


@irdl_op_definition
class MinOp(_MinMax, affine.MinOp):
    name = "affine.min"

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)
    traits = traits_def(Pure())


@irdl_op_definition
class MaxOp(_MinMax, IRDLOperation):
    name = "affine.max"

    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())
    map = prop_def(AffineMapAttr)

    traits = traits_def(Pure())


def _parse_access(parser: Parser):
    """`%m[subscripts] attr-dict : memref-type` (after an affine.store's value)."""
    memref = parser.parse_unresolved_operand()
    expect(parser, "[")
    amap, indices = parse_subscripts(parser)
    attrs = parser.parse_optional_attr_dict()
    type_pos = parser.pos  # MLIR reports a wrong type at the colon
    expect(parser, ":")
    memref_type = parser.parse_type()
    if not isinstance(memref_type, MemRefType):
        parser.raise_error(
            "invalid kind of type specified: expected builtin.memref, but found "
            f"'{attribute_text(memref_type)}'",
            type_pos,
        )
    return (
        parser.resolve_operand(memref, memref_type),
        amap,
        resolve_indices(parser, indices),
        attrs,
        memref_type,
    )


def _print_access(printer: Printer, op: IRDLOperation, memref, amap: AffineMapAttr, indices):
    printer.print_ssa_value(memref)
    with printer.in_square_brackets():
        print_map_of_ssa_ids(printer, amap.data, list(indices))
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(memref.type)


def _verify_access(op: IRDLOperation, memref, amap: AffineMapAttr, indices) -> None:
    memref_type = memref.type
    if isinstance(memref_type, MemRefType):
        if len(amap.data.results) != memref_type.get_num_dims():
            raise VerifyException("affine map num results must equal memref rank")
    if len(indices) != amap.data.num_dims + amap.data.num_symbols:
        raise VerifyException("expects as many subscripts as affine map inputs")
    if (message := check_access_operands(op, amap.data.num_dims, indices)) is not None:
        raise VerifyException(message)


@irdl_op_definition
class LoadOp(affine.LoadOp):
    name = "affine.load"

    T: ClassVar = VarConstraint("T", AnyAttr())
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    result = result_def(T)
    map = prop_def(AffineMapAttr)

    def verify_(self) -> None:
        _verify_access(self, self.memref, self.map, self.indices)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        memref, amap, indices, attrs, memref_type = _parse_access(parser)
        element: Attribute = (
            memref_type.get_element_type() if isinstance(memref_type, MemRefType) else memref_type
        )
        op = cls.create(
            operands=[memref, *indices],
            result_types=[element],
            properties={"map": amap},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self, self.memref, self.map, self.indices)


@irdl_op_definition
class StoreOp(affine.StoreOp):
    name = "affine.store"

    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)

    def verify_(self) -> None:
        _verify_access(self, self.memref, self.map, self.indices)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        expect(parser, ",")
        memref, amap, indices, attrs, memref_type = _parse_access(parser)
        element = (
            memref_type.get_element_type() if isinstance(memref_type, MemRefType) else memref_type
        )
        return cls.create(
            operands=[parser.resolve_operand(value, element), memref, *indices],
            properties={"map": amap},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self, self.memref, self.map, self.indices)


@irdl_op_definition
class VectorLoadOp(affine.VectorLoadOp):
    name = "affine.vector_load"

    T: ClassVar = VarConstraint("T", AnyAttr())
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    result = result_def(VectorType.constr(T))
    map = prop_def(AffineMapAttr)

    def verify_(self) -> None:
        _verify_access(self, self.memref, self.map, self.indices)

    @classmethod
    def parse(cls, parser: Parser) -> VectorLoadOp:
        memref, amap, indices, attrs, _ = _parse_access(parser)
        expect(parser, ",")
        type_pos = parser.pos
        vector_type = parser.parse_type()
        if not isinstance(vector_type, VectorType):
            parser.raise_error(
                "invalid kind of type specified: expected builtin.vector, but found "
                f"'{attribute_text(vector_type)}'",
                type_pos,
            )
        return cls.create(
            operands=[memref, *indices],
            result_types=[vector_type],
            properties={"map": amap},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self, self.memref, self.map, self.indices)
        printer.print_string(", ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class VectorStoreOp(affine.VectorStoreOp):
    name = "affine.vector_store"

    T: ClassVar = VarConstraint("T", AnyAttr())
    value = operand_def(VectorType.constr(T))
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    map = prop_def(AffineMapAttr)

    def verify_(self) -> None:
        _verify_access(self, self.memref, self.map, self.indices)

    @classmethod
    def parse(cls, parser: Parser) -> VectorStoreOp:
        value = parser.parse_unresolved_operand()
        expect(parser, ",")
        memref, amap, indices, attrs, _ = _parse_access(parser)
        expect(parser, ",")
        type_pos = parser.pos
        vector_type = parser.parse_type()
        if not isinstance(vector_type, VectorType):
            parser.raise_error(
                "invalid kind of type specified: expected builtin.vector, but found "
                f"'{attribute_text(vector_type)}'",
                type_pos,
            )
        return cls.create(
            operands=[parser.resolve_operand(value, vector_type), memref, *indices],
            properties={"map": amap},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self, self.memref, self.map, self.indices)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)


SIMPLE_OPS = [ApplyOp, MinOp, MaxOp, LoadOp, StoreOp, VectorLoadOp, VectorStoreOp]
