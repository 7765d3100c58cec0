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

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
    i8,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
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

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.memref.common import (
    MemRefOp,
    check_memref_operand,
    is_memref,
    print_attr_dict,
    quoted,
)
from xgpu.ir.affine_text import affine_map_text
from xgpu.ir.printer import attribute_text


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


def _verify_subview_type(op: IRDLOperation, source: MemRefType) -> None:
    """MLIR's SubViewOp checks of the result type against the one inferred
    from the source and the static offsets, sizes and strides (which may
    drop unit dimensions)."""
    result = op.result.type
    assert isinstance(result, MemRefType)
    if source.memory_space != result.memory_space:
        raise _unprefixed(
            f"different memory spaces specified for base memref type {quoted(source)} and "
            f"subview memref type {quoted(result)}"
        )
    try:
        src_strides, src_offset = source.get_strides(), source.get_offset()
    except Exception:
        src_strides, src_offset = None, None
    if src_strides is None:
        raise VerifyException(
            f"expected base type to have strided layout, but got {quoted(source)}"
        )
    sizes = list(op.static_sizes.get_values())
    strides: list[int | None] = []
    for src_stride, stride in zip(src_strides, op.static_strides.get_values()):
        known = src_stride is not None and stride != DYNAMIC_INDEX
        strides.append(src_stride * stride if known else None)
    offset = src_offset
    for src_stride, value in zip(src_strides, op.static_offsets.get_values()):
        if offset is None or value == 0:
            continue
        offset = (
            None if value == DYNAMIC_INDEX or src_stride is None else offset + value * src_stride
        )
    expected = MemRefType(
        source.element_type, sizes, StridedLayoutAttr(strides, offset), source.memory_space
    )
    if len(result.get_shape()) > len(sizes):
        raise _unprefixed(
            "expected result rank to be smaller or equal to the source rank, but got "
            + quoted(result)
        )
    kept = _kept_dims(sizes, list(result.get_shape()))

    def mismatch(what: str) -> OpDiagnostic:
        return _unprefixed(
            f"expected result type to be {quoted(expected)} or a rank-reduced version. "
            f"(mismatch of result {what}), but got {quoted(result)}"
        )

    if kept is None:
        raise mismatch("sizes")
    if result.element_type != source.element_type:
        raise _unprefixed(
            f"expected result element type to be {quoted(source.element_type)}, but got "
            + quoted(result)
        )
    try:
        result_strides, result_offset = result.get_strides(), result.get_offset()
    except Exception:
        raise mismatch("layout") from None
    if result_strides is None or result_offset != offset:
        raise mismatch("layout")
    if list(result_strides) != [strides[d] for d in kept]:
        raise mismatch("layout")


def _kept_dims(sizes: list[int], result: list[int]) -> list[int] | None:
    """The dimensions of `sizes` that the result keeps, dropping unit ones
    from the left as MLIR's rank-reduction mask does, or None."""
    kept: list[int] = []
    j = 0
    for i, size in enumerate(sizes):
        if j < len(result) and result[j] == size:
            kept.append(i)
            j += 1
        elif size != 1:
            return None
    return kept if j == len(result) else None


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
        check_memref_operand(self.source.type)
        check_memref_operand(self.dest.type, "result #0")
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
        check_memref_operand(self.source.type)
        check_memref_operand(self.dest.type, "result #0")
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
        _verify_subview_type(self, source)

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
        check_memref_operand(self.source.type)
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
class ViewOp(MemRefOp, xmemref.ViewOp):
    name = "memref.view"
    source = operand_def(MemRefType[i8])
    byte_shift = operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    result = result_def(MemRefType)

    def verify_(self) -> None:
        base, view = self.source.type, self.result.type
        assert isinstance(base, MemRefType) and isinstance(view, MemRefType)
        if not isinstance(base.layout, NoneAttr):
            raise _unprefixed(f"unsupported map for base memref type {quoted(base)}")
        if not isinstance(view.layout, NoneAttr):
            raise _unprefixed(f"unsupported map for result memref type {quoted(view)}")
        if base.memory_space != view.memory_space:
            raise _unprefixed(
                f"different memory spaces specified for base memref type {quoted(base)} and "
                f"view memref type {quoted(view)}"
            )
        expected = sum(1 for d in view.get_shape() if d == DYNAMIC_INDEX)
        if len(self.sizes) != expected:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.sizes)}, expected {expected}"
            )


def transposed_type(
    source: MemRefType, permutation: list[int]
) -> tuple[list[int], list[int | None], int | None, MemRefType] | None:
    """The shape, strides and offset of `source` permuted (MLIR's
    `inferTransposeResultType`), or None if its layout is not strided."""
    try:
        strides, offset = source.get_strides(), source.get_offset()
    except Exception:
        return None
    if strides is None:
        return None
    shape = source.get_shape()
    return (
        [shape[p] for p in permutation],
        [strides[p] for p in permutation],
        offset,
        source,
    )


def _same_strided(result: Attribute, expected: tuple) -> bool:
    shape, strides, offset, source = expected
    if not isinstance(result, MemRefType):
        return False
    if list(result.get_shape()) != shape or result.element_type != source.element_type:
        return False
    if result.memory_space != source.memory_space:
        return False
    try:
        return list(result.get_strides()) == strides and result.get_offset() == offset
    except Exception:
        return False


def _strided_map_text(expected: tuple) -> str:
    """The canonical transposed type as MLIR prints it: its layout as the
    affine map of its strides (`makeStridedLinearLayoutMap`)."""
    shape, strides, offset, source = expected
    symbols = 0
    terms: list[str] = []
    if offset is None:
        terms.append(f"s{symbols}")
        symbols += 1
    for dim, stride in enumerate(strides):
        if stride is None:
            terms.append(f"d{dim} * s{symbols}")
            symbols += 1
        elif stride == 1:
            terms.append(f"d{dim}")
        elif stride != 0:
            terms.append(f"d{dim} * {stride}")
    if offset:
        terms.append(str(offset))
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    syms = f"[{', '.join(f's{i}' for i in range(symbols))}]" if symbols else ""
    amap = f"affine_map<({dims}){syms} -> ({' + '.join(terms) or '0'})>"
    dims_text = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)
    element = attribute_text(source.element_type)
    space = source.memory_space
    space_text = "" if isinstance(space, NoneAttr) else f", {attribute_text(space)}"
    prefix = f"{dims_text}x" if shape else ""
    return f"'memref<{prefix}{element}, {amap}{space_text}>'"


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
        expected = transposed_type(source, [e.position for e in amap.results])
        result = self.result.type
        if expected is not None and not _same_strided(result, expected):
            raise VerifyException(
                f"result type {quoted(result)} is not equivalent to the canonical transposed "
                f"input type {_strided_map_text(expected)}"
            )

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


VIEW_OPS: list[type[IRDLOperation]] = [
    CastOp,
    MemorySpaceCastOp,
    SubviewOp,
    ReinterpretCastOp,
    ViewOp,
    TransposeOp,
]
