"""Reshapes of MLIR 22's memref dialect: expand_shape, collapse_shape and
reshape, with MLIR's checks of the reassociation groups.

    %e = memref.expand_shape %m [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
    %c = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    %r = memref.reshape %m(%shape) : (memref<?xf32>, memref<1xi32>) -> memref<?xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    UnrankedMemRefType,
    i64,
)
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
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.memref.common import MemRefOp, check_memref_operand, quoted


def _groups(op: IRDLOperation) -> list[list[int]] | None:
    """The reassociation groups, or None if the attribute is not an array of
    arrays of integers."""
    attr = op.reassociation
    if not isinstance(attr, ArrayAttr):
        return None
    groups: list[list[int]] = []
    for group in attr.data:
        if not isinstance(group, ArrayAttr) or not all(
            isinstance(i, IntegerAttr) for i in group.data
        ):
            return None
        groups.append([i.value.data for i in group.data])
    return groups


def _verify_reassociation_attr(op: IRDLOperation) -> list[list[int]]:
    groups = _groups(op)
    if groups is None:
        raise VerifyException(
            "attribute 'reassociation' failed to satisfy constraint: Array of 64-bit integer "
            "array attributes"
        )
    return groups


def verify_collapsed_shape(
    collapsed: Sequence[int], expanded: Sequence[int], groups: list[list[int]]
) -> None:
    """MLIR's checks that `groups` collapse the `expanded` shape into the
    `collapsed` one (several dynamic dimensions per group allowed)."""
    if len(collapsed) != len(groups):
        raise VerifyException(
            f"invalid number of reassociation groups: found {len(groups)}, expected "
            f"{len(collapsed)}"
        )
    next_dim = 0
    for collapsed_dim, group in enumerate(groups):
        dynamic = False
        for dim in group:
            if dim != next_dim:
                raise VerifyException("reassociation indices must be contiguous")
            next_dim += 1
            if dim >= len(expanded):
                raise VerifyException(f"reassociation index {dim} is out of bounds")
            dynamic = dynamic or expanded[dim] == DYNAMIC_INDEX
        if (collapsed[collapsed_dim] == DYNAMIC_INDEX) != dynamic:
            raise VerifyException(
                f"collapsed dim ({collapsed_dim}) must be dynamic if and only if reassociation "
                "group is dynamic"
            )
        if not dynamic:
            size = 1
            for dim in group:
                size *= expanded[dim]
            if size != collapsed[collapsed_dim]:
                raise VerifyException(
                    f"collapsed dim size ({collapsed[collapsed_dim]}) must equal reassociation "
                    f"group size ({size})"
                )
    if not collapsed:
        if any(d != 1 for d in expanded):
            raise VerifyException("rank 0 memrefs can only be extended/collapsed with/from ones")
    elif next_dim != len(expanded):
        raise VerifyException(
            f"expanded rank ({len(expanded)}) inconsistent with number of reassociation "
            f"indices ({next_dim})"
        )


def _identity(type_: MemRefType) -> bool:
    return isinstance(type_.layout, NoneAttr)


@irdl_op_definition
class ExpandShapeOp(MemRefOp, xmemref.ExpandShapeOp):
    """`memref.expand_shape %m [[...]] output_shape [...] attr-dict : type into type`."""

    name = "memref.expand_shape"
    src = operand_def(MemRefType)
    output_shape = var_operand_def(IndexType)
    static_output_shape = prop_def(DenseArrayBase.constr(i64))
    result = result_def(MemRefType)
    reassociation = prop_def(AnyAttr())

    def verify_(self) -> None:
        groups = _verify_reassociation_attr(self)
        src, dst = self.src.type, self.result.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        src_shape, dst_shape = src.get_shape(), dst.get_shape()
        if len(src_shape) > len(dst_shape):
            raise VerifyException(
                f"expected rank expansion, but found source rank {len(src_shape)} > result "
                f"rank {len(dst_shape)}"
            )
        verify_collapsed_shape(src_shape, dst_shape, groups)
        if _identity(src):
            expected = MemRefType(src.element_type, dst_shape, NoneAttr(), src.memory_space)
            if expected != dst:
                raise VerifyException(
                    f"expected expanded type to be {quoted(expected)} but found {quoted(dst)}"
                )
        static = self.static_output_shape.get_values()
        if len(static) != len(dst_shape):
            raise VerifyException(
                "expected number of static shape bounds to be equal to the output rank "
                f"({len(dst_shape)}) but found {len(static)} inputs instead"
            )
        dynamic = sum(1 for v in static if v == DYNAMIC_INDEX)
        if dynamic != len(self.output_shape):
            raise VerifyException(
                "mismatch in dynamic dims in output_shape and static_output_shape: "
                f"static_output_shape has {dynamic} dynamic dims while output_shape has "
                f"{len(self.output_shape)} values"
            )
        for pos, (given, actual) in enumerate(zip(static, dst_shape)):
            if given != DYNAMIC_INDEX and given != actual:
                raise VerifyException(f"invalid output shape provided at pos {pos}")


@irdl_op_definition
class CollapseShapeOp(MemRefOp, xmemref.CollapseShapeOp):
    """`memref.collapse_shape %m [[...]] attr-dict : type into type`."""

    name = "memref.collapse_shape"
    src = operand_def(MemRefType)
    result = result_def(MemRefType)
    reassociation = prop_def(AnyAttr())

    def verify_(self) -> None:
        groups = _verify_reassociation_attr(self)
        src, dst = self.src.type, self.result.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        src_shape, dst_shape = src.get_shape(), dst.get_shape()
        if len(src_shape) < len(dst_shape):
            raise VerifyException(
                f"expected rank reduction, but found source rank {len(src_shape)} < result "
                f"rank {len(dst_shape)}"
            )
        verify_collapsed_shape(dst_shape, src_shape, groups)
        if _identity(src):
            shape = []
            for group in groups:
                sizes = [src_shape[d] for d in group]
                if DYNAMIC_INDEX in sizes:
                    shape.append(DYNAMIC_INDEX)
                else:
                    product = 1
                    for size in sizes:
                        product *= size
                    shape.append(product)
            expected = MemRefType(src.element_type, shape, NoneAttr(), src.memory_space)
            if expected != dst:
                raise VerifyException(
                    f"expected collapsed type to be {quoted(expected)} but found {quoted(dst)}"
                )


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
        check_memref_operand(self.source.type)
        check_memref_operand(self.result.type, "result #0")
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


RESHAPE_OPS: list[type[IRDLOperation]] = [ExpandShapeOp, CollapseShapeOp, ReshapeOp]
