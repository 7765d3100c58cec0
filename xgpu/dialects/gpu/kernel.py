"""Kernel-side ops: ids and dims (thread_id, block_id, ..., cluster ids), lane_id,
subgroup_id, num_subgroups, subgroup_size, barrier, printf, dynamic_shared_memory."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BytesAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, MemoryWriteEffect, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.attributes import (
    AddressSpace,
    AddressSpaceAttr,
    Dimension,
    DimensionAttr,
)
from xgpu.dialects.gpu.utils import MLIRResultNames


def _upper_bound_attr(upper_bound: int | IntegerAttr | None) -> IntegerAttr | None:
    if upper_bound is None or isinstance(upper_bound, IntegerAttr):
        return upper_bound
    return IntegerAttr(upper_bound, IndexType())


# --------------------------------------------------------------------------- #
# Ids and dimensions along x/y/z                                              #
# --------------------------------------------------------------------------- #


@irdl_custom_directive
class DimensionDirective(CustomDirective):
    """`$dimension` of the index ops, as MLIR's format prints and parses it.

    MLIR prints the enum with its own leading space after the one separating it
    from the op name (`gpu.thread_id  x`), and its parser also accepts the full
    attribute (`gpu.thread_id #gpu<dim x>`)."""

    dimension: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        if parser._current_token.text.startswith("#"):  # pyright: ignore[reportPrivateUsage]
            pos = parser.pos
            attr = parser.parse_attribute()
            if not isinstance(attr, DimensionAttr):
                parser.raise_error(
                    f"invalid kind of attribute specified: expected #gpu<dim>, got {attr}", pos
                )
        else:
            attr = DimensionAttr(DimensionAttr.parse_parameter(parser))
        self.dimension.set(state, attr)
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.dimension.get(op)
        assert isinstance(attr, DimensionAttr)
        state.print_whitespace(printer)
        printer.print_string(f" {attr.data.value}")
        state.last_was_punctuation = False
        state.should_emit_space = True


_INDEX_MIN, _INDEX_END = -(1 << 63), 1 << 63


@irdl_custom_directive
class UpperBound(CustomDirective):
    """`(upper_bound N)?`: an optional index-typed bound, written without type."""

    upper_bound: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        if parser.parse_optional_keyword("upper_bound") is None:
            return False
        pos = parser.pos
        value = parser.parse_optional_integer(allow_boolean=False)
        if value is None:
            if parser.parse_optional_number() is not None:
                parser.raise_error("floating point value not valid for specified type", pos)
            parser.raise_error("expected attribute value", pos)
        if not _INDEX_MIN <= value < _INDEX_END:
            parser.raise_error("integer constant out of range for attribute", pos)
        self.upper_bound.set(state, IntegerAttr(value, IndexType()))
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.upper_bound.get(op)
        if attr is None:
            return
        assert isinstance(attr, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(f"upper_bound {attr.value.data}")
        state.last_was_punctuation = False
        state.should_emit_space = True

    def is_present(self, op: IRDLOperation) -> bool:
        return self.upper_bound.get(op) is not None

    def can_parse_empty(self) -> bool:
        return True


class _ResultTypeOfKind(CustomDirective, ABC):
    """`type($result)` where MLIR's parser reads one kind of type only, so another
    kind is a parse error ("invalid kind of type specified") as in MLIR."""

    result_type: TypeDirective
    kind: ClassVar[type[Attribute]]
    kind_name: ClassVar[str]

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        pos = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, self.kind):
            parser.raise_error(
                f"invalid kind of type specified: expected {self.kind_name}, but found '{type_}'",
                pos,
            )
        self.result_type.set(state, [type_])
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.result_type.get(op), printer.print_attribute)
        state.last_was_punctuation = False
        state.should_emit_space = True


@irdl_custom_directive
class IndexResultType(_ResultTypeOfKind):
    """`type($result)` of an `index` result."""

    result_type: TypeDirective  # (annotations are not inherited by the decorator)

    kind = IndexType
    kind_name = "builtin.index"


@irdl_custom_directive
class MemRefResultType(_ResultTypeOfKind):
    """`type($result)` of a memref result."""

    result_type: TypeDirective  # (annotations are not inherited by the decorator)

    kind = MemRefType
    kind_name = "builtin.memref"


class GPUIndexOp(MLIRResultNames, IRDLOperation, ABC):
    """Base of the ops that read one x/y/z component of a hardware id or size.

    Syntax: `gpu.<op> x (upper_bound N)?`; MLIR prints it with two spaces after
    the op name. `upper_bound` (an index attribute) bounds the result from
    above for range analyses."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    custom_directives = (DimensionDirective, UpperBound)
    assembly_format = (
        "custom<DimensionDirective>($dimension) custom<UpperBound>($upper_bound) attr-dict"
    )

    def mlir_result_names(self) -> Sequence[str | None]:
        """MLIR names the result after the op and its dimension: `%thread_id_x`."""
        dimension = self.properties.get("dimension")
        if not isinstance(dimension, DimensionAttr):
            return ()
        return [f"{self.name.removeprefix('gpu.')}_{dimension.data.value}"]

    def __init__(
        self,
        dimension: Dimension | DimensionAttr | str,
        upper_bound: int | IntegerAttr | None = None,
    ):
        if not isinstance(dimension, DimensionAttr):
            dimension = DimensionAttr(Dimension(dimension))
        super().__init__(
            properties={
                "dimension": dimension,
                "upper_bound": _upper_bound_attr(upper_bound),
            },
            result_types=[IndexType()],
        )


@irdl_op_definition
class ThreadIdOp(GPUIndexOp):
    """`gpu.thread_id`: the thread's index within its block."""

    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(GPUIndexOp):
    """`gpu.block_id`: the block's index within the grid."""

    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(GPUIndexOp):
    """`gpu.block_dim`: the number of threads per block."""

    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(GPUIndexOp):
    """`gpu.grid_dim`: the number of blocks in the grid."""

    name = "gpu.grid_dim"


@irdl_op_definition
class GlobalIdOp(GPUIndexOp):
    """`gpu.global_id`: the thread's index within the whole grid."""

    name = "gpu.global_id"


@irdl_op_definition
class ClusterIdOp(GPUIndexOp):
    """`gpu.cluster_id`: the cluster's index within the grid."""

    name = "gpu.cluster_id"


@irdl_op_definition
class ClusterDimOp(GPUIndexOp):
    """`gpu.cluster_dim`: the number of clusters in the grid."""

    name = "gpu.cluster_dim"


@irdl_op_definition
class ClusterDimBlocksOp(GPUIndexOp):
    """`gpu.cluster_dim_blocks`: the number of blocks per cluster."""

    name = "gpu.cluster_dim_blocks"


@irdl_op_definition
class ClusterBlockIdOp(GPUIndexOp):
    """`gpu.cluster_block_id`: the block's index within its cluster."""

    name = "gpu.cluster_block_id"


# --------------------------------------------------------------------------- #
# Lane and subgroup ids                                                       #
# --------------------------------------------------------------------------- #


class _BoundedIndexOp(IRDLOperation, ABC):
    """Base of the ops with no operand, an optional `upper_bound` and one
    `index` result (lane_id and the subgroup queries)."""

    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    def __init__(self, upper_bound: int | IntegerAttr | None = None):
        super().__init__(
            properties={"upper_bound": _upper_bound_attr(upper_bound)},
            result_types=[IndexType()],
        )


@irdl_op_definition
class LaneIdOp(_BoundedIndexOp):
    """`gpu.lane_id (upper_bound N)?`: the lane within the subgroup."""

    name = "gpu.lane_id"

    custom_directives = (UpperBound,)
    assembly_format = "custom<UpperBound>($upper_bound) attr-dict"


class _SubgroupQueryOp(_BoundedIndexOp, ABC):
    """Base of subgroup_id, num_subgroups and subgroup_size, which spell out the
    (always `index`) result type: `gpu.<op> (upper_bound N)? : index`."""

    custom_directives = (UpperBound, IndexResultType)
    assembly_format = (
        "custom<UpperBound>($upper_bound) attr-dict `:` custom<IndexResultType>(type($result))"
    )


@irdl_op_definition
class SubgroupIdOp(_SubgroupQueryOp):
    """`gpu.subgroup_id`: the subgroup's index within the workgroup."""

    name = "gpu.subgroup_id"


@irdl_op_definition
class NumSubgroupsOp(_SubgroupQueryOp):
    """`gpu.num_subgroups`: the number of subgroups in the workgroup."""

    name = "gpu.num_subgroups"


@irdl_op_definition
class SubgroupSizeOp(_SubgroupQueryOp):
    """`gpu.subgroup_size`: the number of lanes per subgroup."""

    name = "gpu.subgroup_size"


# --------------------------------------------------------------------------- #
# Synchronisation, printing, dynamic shared memory                            #
# --------------------------------------------------------------------------- #


class _BarrierCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_kernel import barrier_patterns

        return barrier_patterns()


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: wait for every work item of the workgroup.

    MLIR 22's barrier has no operands or properties (no `memfence`), and it
    declares no memory-effect interface, so its effects are unknown (it may
    read or write any memory); xDSL reads an op without effect traits the same
    way."""

    name = "gpu.barrier"

    traits = traits_def(_BarrierCanonicalization())

    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_custom_directive
class FormatString(CustomDirective):
    """`$format` of gpu.printf: a string literal, with MLIR's parse errors."""

    format: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        pos = parser.pos
        attr = parser.parse_optional_attribute()
        if attr is None:
            parser.raise_error("expected attribute value", pos)
        if isinstance(attr, IntegerAttr):
            parser.raise_error("integer literal not valid for specified type", pos)
        if isinstance(attr, FloatAttr):
            parser.raise_error("floating point value not valid for specified type", pos)
        if not isinstance(attr, StringAttr | BytesAttr):
            parser.raise_error(
                f"invalid kind of attribute specified: expected a string, got {attr}", pos
            )
        self.format.set(state, attr)
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        attr = self.format.get(op)
        assert attr is not None
        state.print_whitespace(printer)
        printer.print_attribute(attr)
        state.last_was_punctuation = False
        state.should_emit_space = True


def _is_printf_scalar(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """`gpu.printf "fmt" (, %args : types)?`: device-side printf."""

    name = "gpu.printf"

    # MLIR's StrAttr. xDSL parses a literal that mixes escapes with non-ASCII
    # text (or holds invalid UTF-8) as a BytesAttr, which prints back the same.
    format = prop_def(base(StringAttr) | base(BytesAttr))
    # Any type is accepted here; `verify_` enforces MLIR's integer/index/float
    # constraint with MLIR's message.
    args = var_operand_def()

    traits = traits_def(MemoryWriteEffect())

    custom_directives = (FormatString,)
    assembly_format = "custom<FormatString>($format) attr-dict (`,` $args^ `:` type($args))?"

    def __init__(
        self, format: str | StringAttr | BytesAttr, args: Sequence[SSAValue | Operation] = ()
    ):
        if isinstance(format, str):
            format = StringAttr(format)
        super().__init__(operands=[args], properties={"format": format})

    @property
    def format_text(self) -> str:
        """The format string (invalid UTF-8 bytes are kept as surrogate escapes)."""
        if isinstance(self.format, StringAttr):
            return self.format.data
        return self.format.data.decode("utf-8", errors="surrogateescape")

    def verify_(self) -> None:
        for index, arg in enumerate(self.args):
            if not _is_printf_scalar(arg.type):
                raise VerifyException(
                    f"operand #{index} must be variadic of integer or index or "
                    f"floating-point, but got '{arg.type}'"
                )


def _has_symbol_table_ancestor(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent.has_trait(SymbolTable):
            return True
        parent = parent.parent_op()
    return False


@irdl_op_definition
class DynamicSharedMemoryOp(IRDLOperation):
    """`gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>`:
    the base of the workgroup memory whose size is given at launch."""

    name = "gpu.dynamic_shared_memory"

    # Any type here: `verify_` checks MLIR's "1D memref of i8" with MLIR's message.
    result_memref = result_def()

    traits = traits_def(Pure())

    custom_directives = (MemRefResultType,)
    assembly_format = "attr-dict `:` custom<MemRefResultType>(type($result_memref))"

    def __init__(self, result_type: MemRefType | None = None):
        if result_type is None:
            result_type = MemRefType(
                IntegerType(8),
                [DYNAMIC_INDEX],
                memory_space=AddressSpaceAttr(AddressSpace.WORKGROUP),
            )
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        memref = self.result_memref.type
        if (
            not isinstance(memref, MemRefType)
            or memref.get_num_dims() != 1
            or memref.element_type != IntegerType(8)
        ):
            raise VerifyException(
                f"result #0 must be 1D memref of 8-bit signless integer values, but got '{memref}'"
            )
        if not _has_symbol_table_ancestor(self):
            raise VerifyException("must be inside an op with symbol table")
        if memref.memory_space != AddressSpaceAttr(AddressSpace.WORKGROUP):
            raise VerifyException("address space must be address_space<workgroup>")
        if memref.has_static_shape():
            raise VerifyException(
                "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>"
            )


OPS: list[type] = [
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    ClusterDimBlocksOp,
    ClusterBlockIdOp,
    LaneIdOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    SubgroupSizeOp,
    BarrierOp,
    PrintfOp,
    DynamicSharedMemoryOp,
]
ATTRS: list[type] = []
