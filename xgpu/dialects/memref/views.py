"""View and cast ops of MLIR 22's memref dialect: cast, memory_space_cast,
subview, reinterpret_cast, expand_shape, collapse_shape, reshape, view,
transpose, extract_strided_metadata, extract_aligned_pointer_as_index and
assume_alignment.

    %c = memref.cast %m : memref<?xf32> to memref<*xf32>
    %s = memref.subview %m[0, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, ...>
    %t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<...>
    %p = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    UnrankedMemRefType,
    i8,
    i32,
    i64,
)
from xdsl.dialects.utils.reshape_ops_utils import ContiguousArrayOfIntArray
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.memref.common import MemRefOp, is_memref, print_attr_dict, quoted
from xgpu.ir.affine_text import affine_map_text


def _compatible_dims(a: int, b: int) -> bool:
    return a == b or a < 0 or b < 0


def cast_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's `memref::CastOp::areCastCompatible` for one input and one output."""
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return False
    if not (is_memref(a) and is_memref(b)):
        return False
    assert isinstance(a, MemRefType | UnrankedMemRefType)
    assert isinstance(b, MemRefType | UnrankedMemRefType)
    if a.element_type != b.element_type or a.memory_space != b.memory_space:
        return False
    if not (isinstance(a, MemRefType) and isinstance(b, MemRefType)):
        return True
    shape_a, shape_b = a.get_shape(), b.get_shape()
    if len(shape_a) != len(shape_b):
        return False
    if a.layout != b.layout:
        try:
            strides_a, strides_b = a.get_strides(), b.get_strides()
            offset_a, offset_b = a.get_offset(), b.get_offset()
        except Exception:
            return False
        if strides_a is None or strides_b is None:
            return False

        def same(x: int | None, y: int | None) -> bool:
            return x is None or y is None or x == y

        if not same(offset_a, offset_b):
            return False
        if not all(same(x, y) for x, y in zip(strides_a, strides_b)):
            return False
    return all(_compatible_dims(x, y) for x, y in zip(shape_a, shape_b))


def space_cast_compatible(a: Attribute, b: Attribute) -> bool:
    """MLIR's `memref::MemorySpaceCastOp::areCastCompatible`."""
    if isinstance(a, MemRefType) and isinstance(b, MemRefType):
        return (
            a.get_shape() == b.get_shape()
            and a.element_type == b.element_type
            and a.layout == b.layout
        )
    if isinstance(a, UnrankedMemRefType) and isinstance(b, UnrankedMemRefType):
        return a.element_type == b.element_type
    return False


def _check_memref_operand(value_type: Attribute, what: str = "operand #0") -> None:
    if not is_memref(value_type):
        raise VerifyException(
            f"{what} must be ranked or unranked memref of any type values, but got "
            f"{quoted(value_type)}"
        )


def verify_offsets_sizes_strides(op: IRDLOperation, ranks: tuple[int, int, int]) -> None:
    """MLIR's OffsetSizeAndStrideOpInterface checks of subview and
    reinterpret_cast (reported without the op prefix, as MLIR does): the
    lists agree in length, have `ranks` entries (offsets, sizes, strides), and
    one operand per dynamic entry."""
    lists = (
        ("offset", op.static_offsets.get_values(), op.offsets),
        ("size", op.static_sizes.get_values(), op.sizes),
        ("stride", op.static_strides.get_values(), op.strides),
    )
    offsets, sizes, strides = (len(static) for _, static, _ in lists)
    single_offset = ranks[0] == 1 and offsets == 1
    if not single_offset and offsets != sizes:
        raise _unprefixed(
            f"expected mixed offsets rank to match mixed sizes rank ({offsets} vs {sizes}) "
            "so the rank of the result type is well-formed."
        )
    if sizes != strides:
        raise _unprefixed(
            f"expected mixed sizes rank to match mixed strides rank ({sizes} vs {strides}) "
            "so the rank of the result type is well-formed."
        )
    for (what, static, _), rank in zip(lists, ranks):
        if len(static) != rank:
            raise _unprefixed(f"expected {rank} {what} values, got {len(static)}")
    for what, static, dynamic in lists:
        expected = sum(1 for v in static if v == DYNAMIC_INDEX)
        if expected != len(dynamic):
            raise _unprefixed(
                f"expected the number of '{what}s' to match the number of dynamic entries in "
                f"'static_{what}s' ({len(dynamic)} vs {expected})"
            )


def _unprefixed(message: str) -> OpDiagnostic:
    return OpDiagnostic(message, prefix=False)


def _static_text(value: int) -> str:
    return "dynamic" if value == DYNAMIC_INDEX else str(value)


_CAST_FORMAT = "$source attr-dict `:` type($source) `to` type($dest)"


@irdl_op_definition
class CastOp(MemRefOp, xmemref.CastOp):
    """`memref.cast %m attr-dict : type to type`."""

    name = "memref.cast"
    source = operand_def(AnyAttr())
    dest = result_def(AnyAttr())
    assembly_format = _CAST_FORMAT

    def verify_(self) -> None:
        _check_memref_operand(self.source.type)
        _check_memref_operand(self.dest.type, "result #0")
        if not cast_compatible(self.source.type, self.dest.type):
            raise VerifyException(
                f"operand type {quoted(self.source.type)} and result type "
                f"{quoted(self.dest.type)} are cast incompatible"
            )


@irdl_op_definition
class MemorySpaceCastOp(MemRefOp, xmemref.MemorySpaceCastOp):
    """`memref.memory_space_cast %m attr-dict : type to type`."""

    name = "memref.memory_space_cast"
    source = operand_def(AnyAttr())
    dest = result_def(AnyAttr())
    assembly_format = _CAST_FORMAT

    def verify_(self) -> None:
        _check_memref_operand(self.source.type)
        _check_memref_operand(self.dest.type, "result #0")
        if not space_cast_compatible(self.source.type, self.dest.type):
            raise VerifyException(
                f"operand type {quoted(self.source.type)} and result type "
                f"{quoted(self.dest.type)} are cast incompatible"
            )


@irdl_op_definition
class SubviewOp(MemRefOp, xmemref.SubviewOp):
    name = "memref.subview"
    source = operand_def(MemRefType)

    def verify_(self) -> None:
        source = self.source.type
        assert isinstance(source, MemRefType)
        rank = len(source.get_shape())
        verify_offsets_sizes_strides(self, (rank, rank, rank))

    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)


@irdl_op_definition
class ReinterpretCastOp(MemRefOp, xmemref.ReinterpretCastOp):
    """`memref.reinterpret_cast %m to offset: [..], sizes: [..], strides: [..]
    attr-dict : type to type` (the source may be unranked)."""

    name = "memref.reinterpret_cast"
    source = operand_def(AnyAttr())
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)

    def verify_(self) -> None:
        _check_memref_operand(self.source.type)
        src, dst = self.source.type, self.result.type
        assert isinstance(src, MemRefType | UnrankedMemRefType)
        if not isinstance(dst, MemRefType):
            raise VerifyException(
                f"result #0 must be memref of any type values, but got {quoted(dst)}"
            )
        if src.memory_space != dst.memory_space:
            raise _unprefixed(
                f"different memory spaces specified for source type {quoted(src)} and result "
                f"memref type {quoted(dst)}"
            )
        if src.element_type != dst.element_type:
            raise _unprefixed(
                f"different element types specified for source type {quoted(src)} and result "
                f"memref type {quoted(dst)}"
            )
        rank = len(dst.get_shape())
        verify_offsets_sizes_strides(self, (1, rank, rank))
        for dim, (actual, expected) in enumerate(
            zip(dst.get_shape(), self.static_sizes.get_values())
        ):
            if actual != DYNAMIC_INDEX and actual != expected:
                raise _unprefixed(
                    f"expected result type with size = {_static_text(expected)} instead of "
                    f"{actual} in dim = {dim}"
                )
        try:
            strides, offset = dst.get_strides(), dst.get_offset()
        except Exception:
            strides, offset = None, None
        if strides is None:
            raise _unprefixed(
                f"expected result type to have strided layout but found {quoted(dst)}"
            )
        expected_offset = self.static_offsets.get_values()[0]
        if offset is not None and offset != expected_offset:
            raise _unprefixed(
                f"expected result type with offset = {_static_text(expected_offset)} instead "
                f"of {offset}"
            )
        for dim, (actual, expected) in enumerate(zip(strides, self.static_strides.get_values())):
            if actual is not None and actual != expected:
                raise _unprefixed(
                    f"expected result type with stride = {_static_text(expected)} instead of "
                    f"{actual} in dim = {dim}"
                )


@irdl_op_definition
class ExpandShapeOp(MemRefOp, xmemref.ExpandShapeOp):
    name = "memref.expand_shape"
    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    reassociation = prop_def(ContiguousArrayOfIntArray())


@irdl_op_definition
class CollapseShapeOp(MemRefOp, xmemref.CollapseShapeOp):
    name = "memref.collapse_shape"
    src = operand_def(MemRefType)
    result = result_def(MemRefType)
    reassociation = prop_def(ContiguousArrayOfIntArray())


@irdl_op_definition
class ReshapeOp(MemRefOp):
    """`memref.reshape %m(%shape) attr-dict : (type, shape type) -> type`."""

    name = "memref.reshape"

    source = operand_def(AnyAttr())
    shape = operand_def(MemRefType)
    result = result_def(AnyAttr())

    traits = traits_def(Pure())
    assembly_format = "$source `(` $shape `)` attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        _check_memref_operand(self.source.type)
        _check_memref_operand(self.result.type, "result #0")
        src, dst = self.source.type, self.result.type
        assert isinstance(src, MemRefType | UnrankedMemRefType)
        assert isinstance(dst, MemRefType | UnrankedMemRefType)
        if src.element_type != dst.element_type:
            raise VerifyException(
                "element types of source and destination memref types should be the same"
            )
        if src.memory_space != dst.memory_space:
            raise VerifyException(
                "memory spaces of source and destination memref types should be the same"
            )


@irdl_op_definition
class ViewOp(MemRefOp, xmemref.ViewOp):
    name = "memref.view"
    source = operand_def(MemRefType[i8])
    byte_shift = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    result = result_def(MemRefType)


@irdl_op_definition
class TransposeOp(MemRefOp):
    """`memref.transpose %m (d0, d1) -> (d1, d0) attr-dict : type to type`."""

    name = "memref.transpose"

    source = operand_def(MemRefType)
    permutation = prop_def(AffineMapAttr)
    result = result_def(MemRefType)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        amap = self.permutation.data
        results = [getattr(e, "position", None) for e in amap.results]
        is_permutation = (
            amap.num_symbols == 0
            and len(results) == amap.num_dims
            and sorted(r for r in results if r is not None) == list(range(amap.num_dims))
            and None not in results
        )
        if not is_permutation:
            raise VerifyException("expected a permutation map")
        source = self.source.type
        assert isinstance(source, MemRefType)
        if amap.num_dims != len(source.get_shape()):
            raise VerifyException("expected a permutation map of same rank as the input")

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        amap = parser.parse_affine_map()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={"permutation": AffineMapAttr(amap)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.source)
        printer.print_string(f" {affine_map_text(self.permutation.data)}")
        print_attr_dict(printer, self, ("permutation",))
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class ExtractStridedMetaDataOp(MemRefOp, xmemref.ExtractStridedMetaDataOp):
    name = "memref.extract_strided_metadata"
    source = operand_def(MemRefType)
    base_buffer = result_def(MemRefType)
    offset = result_def(IndexType)
    sizes = var_result_def(IndexType)
    strides = var_result_def(IndexType)


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(MemRefOp, xmemref.ExtractAlignedPointerAsIndexOp):
    """`memref.extract_aligned_pointer_as_index %m : type -> index attr-dict`."""

    name = "memref.extract_aligned_pointer_as_index"
    source = operand_def(AnyAttr())
    aligned_pointer = result_def(IndexType)
    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"

    def verify_(self) -> None:
        _check_memref_operand(self.source.type)


@irdl_op_definition
class AssumeAlignmentOp(MemRefOp, xmemref.AssumeAlignmentOp):
    """`memref.assume_alignment %m, N attr-dict : type`."""

    name = "memref.assume_alignment"
    T: ClassVar = VarConstraint("T", base(MemRefType))
    memref = operand_def(T)
    alignment = prop_def(IntegerAttr[I32])
    result = result_def(T)

    def verify_(self) -> None:
        value = self.alignment
        if not (isinstance(value, IntegerAttr) and value.type == i32 and value.value.data > 0):
            raise VerifyException(
                "attribute 'alignment' failed to satisfy constraint: 32-bit signless integer "
                "attribute whose value is positive"
            )


VIEW_OPS: list[type[IRDLOperation]] = [
    CastOp,
    MemorySpaceCastOp,
    SubviewOp,
    ReinterpretCastOp,
    ExpandShapeOp,
    CollapseShapeOp,
    ReshapeOp,
    ViewOp,
    TransposeOp,
    ExtractStridedMetaDataOp,
    ExtractAlignedPointerAsIndexOp,
    AssumeAlignmentOp,
]
