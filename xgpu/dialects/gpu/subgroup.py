"""Subgroup and reduction ops: shuffle, rotate, all_reduce, subgroup_reduce,
subgroup_broadcast, warp_execute_on_lane_0, yield."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
    UnitAttr,
    UnregisteredOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.interfaces import ConditionallySpeculatableInterface, HasFolderInterface
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
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
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.attributes import (
    AllReduceOperation,
    AllReduceOperationAttr,
    BroadcastType,
    BroadcastTypeAttr,
    ShuffleMode,
    ShuffleModeAttr,
)
from xgpu.dialects.gpu.utils import (
    IsolatedFromAboveWithMLIRMessage,
    MLIRResultNames,
    parse_enum_keyword,
)
from xgpu.ir.region_checks import RegionVerifier

# ---------------------------------------------------------------------------
# Type checks with MLIR's messages
# ---------------------------------------------------------------------------

_INT_OR_FLOAT = "Integer or Float"
_INT_OR_FLOAT_OR_VEC = (
    "Integer or Float or fixed-length vector of Integer or Float values of ranks 1"
)


def _is_int_or_float(t: Attribute) -> bool:
    """MLIR's `AnyIntegerOrFloat` as the gpu ops use it: signless integer or float."""
    if isinstance(t, IntegerType):
        return t.signedness.data == Signedness.SIGNLESS
    return isinstance(t, AnyFloat)


def _is_int_or_float_or_vec(t: Attribute) -> bool:
    """Signless integer, float, or a fixed-length 1-D vector of them."""
    if isinstance(t, VectorType):
        return (
            t.get_num_dims() == 1
            and t.get_num_scalable_dims() == 0
            and _is_int_or_float(t.element_type)
        )
    return _is_int_or_float(t)


def _check_value_and_result(value: SSAValue, result: SSAValue, names: str) -> None:
    """Shuffle/rotate: constrained operand #0 and result #0 of the same type."""
    for kind, v in (("operand", value), ("result", result)):
        if not _is_int_or_float_or_vec(v.type):
            raise VerifyException(f"{kind} #0 must be {_INT_OR_FLOAT_OR_VEC}, but got '{v.type}'")
    if value.type != result.type:
        raise VerifyException(f"failed to verify that all of {names} have same type")


def _check_same_operand_and_result(
    value: SSAValue, result: SSAValue, ok: Callable[[Attribute], bool], what: str
) -> None:
    """Reductions: constrained operand and result, SameOperandsAndResultType."""
    for kind, v in (("operand", value), ("result", result)):
        if not ok(v.type):
            raise VerifyException(f"{kind} #0 must be {what}, but got '{v.type}'")
    if value.type != result.type:
        raise VerifyException("requires the same type for all operands and results")


def _is_power_of_two(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0


_FLOAT_ONLY = frozenset(
    {
        AllReduceOperation.MINNUMF,
        AllReduceOperation.MAXNUMF,
        AllReduceOperation.MINIMUMF,
        AllReduceOperation.MAXIMUMF,
    }
)
_INT_ONLY = frozenset(
    {
        AllReduceOperation.MINSI,
        AllReduceOperation.MINUI,
        AllReduceOperation.MAXSI,
        AllReduceOperation.MAXUI,
        AllReduceOperation.AND,
        AllReduceOperation.OR,
        AllReduceOperation.XOR,
    }
)


def _check_reduction_kind(kind: AllReduceOperation, elem: Attribute, shown: Attribute):
    """Float-only reductions need a float, bitwise/integer ones an integer."""
    if (kind in _FLOAT_ONLY and not isinstance(elem, AnyFloat)) or (
        kind in _INT_ONLY and not isinstance(elem, IntegerType)
    ):
        raise OpDiagnostic(
            f"`{kind.value}` reduction operation is not compatible with type '{shown}'",
            prefix=False,
        )


# ---------------------------------------------------------------------------
# Custom directives
# ---------------------------------------------------------------------------


def _print_enum_keyword(printer: Printer, state: PrintingState, attr: Attribute | None):
    # MLIR's enum attributes print a space before their keyword, on top of the
    # space the format puts before every element (hence `gpu.shuffle  xor`).
    state.print_whitespace(printer)
    if attr is not None:
        assert isinstance(attr, ShuffleModeAttr | BroadcastTypeAttr | AllReduceOperationAttr)
        printer.print_string(" " + attr.data.value)


class _EnumKeyword(CustomDirective):
    """A required enum attribute written as its bare keyword."""

    attr_type: ClassVar[type[ShuffleModeAttr] | type[BroadcastTypeAttr]]
    cpp_enum: ClassVar[str]

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        value = parse_enum_keyword(parser, self.attr_type.enum_type, self.cpp_enum)
        self.value.set(state, self.attr_type(value))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_enum_keyword(printer, state, self.value.get(op))


@irdl_custom_directive
class ShuffleModeKeyword(_EnumKeyword):
    attr_type = ShuffleModeAttr
    cpp_enum = "::mlir::gpu::ShuffleMode"

    value: AttributeVariable


@irdl_custom_directive
class BroadcastTypeKeyword(_EnumKeyword):
    attr_type = BroadcastTypeAttr
    cpp_enum = "::mlir::gpu::BroadcastType"

    value: AttributeVariable


@irdl_custom_directive
class AllReduceOperationKeyword(CustomDirective):
    """MLIR's `custom<AllReduceOperation>($op)`: an optional bare keyword."""

    op: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        word = parser.parse_optional_identifier()
        if word is None:
            return
        if word not in {e.value for e in AllReduceOperation}:
            parser.raise_error("invalid op kind", parser.pos, parser.pos + 1)
        self.op.set(state, AllReduceOperationAttr(AllReduceOperation(word)))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_enum_keyword(printer, state, self.op.get(op))


@irdl_custom_directive
class SharedType(CustomDirective):
    """`type($a)` that also gives `$b` that type, as MLIR infers the result
    type of `AllTypesMatch` ops. Keeps a type mismatch in the generic form a
    verifier error with MLIR's message."""

    first: TypeDirective
    second: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = parser.parse_type()
        self.first.set(state, [t])
        self.second.set(state, [t])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.first.get(op), printer.print_attribute)


def _expect(parser: Parser, punctuation: str) -> None:
    if parser.parse_optional_punctuation(punctuation) is None:  # pyright: ignore
        parser.raise_error(f"expected '{punctuation}'", parser.pos, parser.pos + 1)


def _expect_keyword(parser: Parser, keyword: str) -> None:
    if parser.parse_optional_keyword(keyword) is None:
        parser.raise_error(f"expected '{keyword}'", parser.pos, parser.pos + 1)


@irdl_custom_directive
class ClusterSpec(CustomDirective):
    """`(cluster(size = N (, stride = M)?))?`; a stride of 1 is not printed."""

    size: AttributeVariable
    stride: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser.parse_optional_keyword("cluster") is None:
            return
        _expect(parser, "(")
        _expect_keyword(parser, "size")
        _expect(parser, "=")
        self.size.set(state, IntegerAttr(_parse_i32(parser), i32))
        if parser.parse_optional_punctuation(",") is not None:
            _expect_keyword(parser, "stride")
            _expect(parser, "=")
            self.stride.set(state, IntegerAttr(_parse_i32(parser), i32))
        _expect(parser, ")")

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        size = self.size.get(op)
        if size is None:
            return
        assert isinstance(size, IntegerAttr)
        state.print_whitespace(printer)
        printer.print_string(f"cluster(size = {size.value.data}")
        stride = self.stride.get(op)
        if isinstance(stride, IntegerAttr) and stride.value.data != 1:
            printer.print_string(f", stride = {stride.value.data}")
        printer.print_string(")")


def _parse_i32(parser: Parser) -> int:
    pos = parser.pos
    value = parser.parse_optional_integer(allow_boolean=False)
    if value is None:
        parser.raise_error("expected attribute value", pos, pos + 1)
    if not -(2**31) <= value < 2**32:
        parser.raise_error("integer constant out of range for attribute", pos, parser.pos)
    return value


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`gpu.yield`: terminator of all_reduce and warp_execute_on_lane_0 bodies."""

    name = "gpu.yield"

    values = var_operand_def()

    traits = traits_def(Pure(), ReturnLike(), IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class ShuffleOp(MLIRResultNames, IRDLOperation):
    """`gpu.shuffle`: exchange a value between the lanes of a subgroup."""

    name = "gpu.shuffle"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("shuffleResult", "valid")

    value = operand_def()
    offset = operand_def(I32)
    width = operand_def(I32)
    mode = prop_def(ShuffleModeAttr)

    shuffle_result = result_def()
    valid = result_def(i1)

    traits = traits_def(Pure())

    custom_directives = (ShuffleModeKeyword, SharedType)
    assembly_format = (
        "custom<ShuffleModeKeyword>($mode) $value `,` $offset `,` $width "
        "attr-dict `:` custom<SharedType>(type($value), type($shuffle_result))"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        offset: SSAValue | Operation,
        width: SSAValue | Operation,
        mode: ShuffleMode | ShuffleModeAttr,
    ):
        if not isinstance(mode, ShuffleModeAttr):
            mode = ShuffleModeAttr(mode)
        value = SSAValue.get(value)
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": mode},
        )

    def verify_(self) -> None:
        _check_value_and_result(self.value, self.shuffle_result, "{value, shuffleResult}")


@irdl_op_definition
class RotateOp(MLIRResultNames, IRDLOperation):
    """`gpu.rotate`: rotate a value across the first `width` lanes by `offset`."""

    name = "gpu.rotate"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("rotateResult", "valid")

    value = operand_def()
    offset = prop_def(IntegerAttr[I32])
    width = prop_def(IntegerAttr[I32])

    rotate_result = result_def()
    valid = result_def(i1)

    traits = traits_def(Pure())

    custom_directives = (SharedType,)
    assembly_format = (
        "$value `,` $offset `,` $width attr-dict `:` "
        "custom<SharedType>(type($value), type($rotate_result))"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        offset: int | IntegerAttr,
        width: int | IntegerAttr,
    ):
        if isinstance(offset, int):
            offset = IntegerAttr(offset, i32)
        if isinstance(width, int):
            width = IntegerAttr(width, i32)
        value = SSAValue.get(value)
        super().__init__(
            operands=[value],
            result_types=[value.type, i1],
            properties={"offset": offset, "width": width},
        )

    def verify_(self) -> None:
        offset = self.offset.value.data
        width = self.width.value.data
        if offset < 0:
            raise VerifyException(
                "attribute 'offset' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose minimum value is 0"
            )
        if not _is_power_of_two(width):
            raise VerifyException(
                "attribute 'width' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose value is a power of two > 0"
            )
        _check_value_and_result(self.value, self.rotate_result, "{value, rotateResult}")
        if offset >= width:
            raise VerifyException(f"offset must be in the range [0, {width})")


class _GroupOpCanonicalization(HasCanonicalizationPatternsTrait):
    """all_reduce / subgroup_reduce: `uniform` in a launch's entry block."""

    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_kernel import group_op_patterns

        return group_op_patterns()


@irdl_op_definition
class AllReduceOp(RegionVerifier, IRDLOperation):
    """`gpu.all_reduce`: reduce a value over all work items of a workgroup,
    with a built-in operation (`op`) or a custom two-argument body."""

    name = "gpu.all_reduce"

    value = operand_def()
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    body = region_def()

    result = result_def()

    traits = traits_def(IsolatedFromAboveWithMLIRMessage(), _GroupOpCanonicalization())

    custom_directives = (AllReduceOperationKeyword,)
    assembly_format = (
        "custom<AllReduceOperationKeyword>($op) $value (`uniform` $uniform^)? "
        "$body attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        op: AllReduceOperation | AllReduceOperationAttr | None = None,
        body: Region | None = None,
        uniform: bool = False,
    ):
        """Either `op` (a built-in reduction) or `body` (a region whose block
        takes two values of the operand's type and yields one)."""
        if isinstance(op, AllReduceOperation):
            op = AllReduceOperationAttr(op)
        value = SSAValue.get(value)
        properties: dict[str, Attribute] = {}
        if op is not None:
            properties["op"] = op
        if uniform:
            properties["uniform"] = UnitAttr()
        super().__init__(
            operands=[value],
            result_types=[value.type],
            properties=properties,
            regions=[body if body is not None else Region()],
        )

    def verify_(self) -> None:
        _check_same_operand_and_result(self.value, self.result, _is_int_or_float, _INT_OR_FLOAT)
        self.run_region_checks()

    def verify_regions_(self) -> None:
        """The op or body, and the body's arguments and yields (after the ops in
        the body, as MLIR's `verifyRegions`)."""
        t = self.value.type
        if any(block.first_op is None for block in self.body.blocks):
            raise OpDiagnostic("empty block: expect at least a terminator", prefix=False)
        has_body = bool(self.body.blocks)
        if has_body == (self.op is not None):
            raise OpDiagnostic("expected either an op attribute or a non-empty body", prefix=False)
        if self.op is not None:
            _check_reduction_kind(self.op.data, t, t)
            return
        entry = self.body.blocks.first
        assert entry is not None
        if len(entry.args) != 2:
            raise OpDiagnostic("expected two region arguments", prefix=False)
        if any(arg.type != t for arg in entry.args):
            raise OpDiagnostic("incorrect region argument type", prefix=False)
        yields = 0
        for block in self.body.blocks:
            last = block.last_op
            if not isinstance(last, YieldOp):
                continue
            if len(last.values) != 1:
                raise OpDiagnostic("expected one gpu.yield operand", prefix=False)
            if last.values[0].type != t:
                raise OpDiagnostic("incorrect gpu.yield type", prefix=False)
            yields += 1
        if yields == 0:
            raise OpDiagnostic("expected gpu.yield op in region", prefix=False)


@irdl_op_definition
class SubgroupReduceOp(HasFolderInterface, IRDLOperation):
    """`gpu.subgroup_reduce`: reduce a value over the lanes of a subgroup,
    optionally in clusters of `cluster_size` lanes `cluster_stride` apart."""

    name = "gpu.subgroup_reduce"

    value = operand_def()
    op = prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr[I32])
    cluster_stride = prop_def(IntegerAttr[I32], default_value=IntegerAttr(1, i32))

    result = result_def()

    traits = traits_def(_GroupOpCanonicalization())
    # `{cluster_stride = 2 : i32}` in the attribute dictionary is the property
    # (as MLIR reads it); see xgpu.ir.parser.
    INHERENT_IN_ATTR_DICT: ClassVar[tuple[str, ...]] = ("cluster_size", "cluster_stride")

    custom_directives = (AllReduceOperationKeyword, ClusterSpec)
    assembly_format = (
        "custom<AllReduceOperationKeyword>($op) $value (`uniform` $uniform^)? "
        "custom<ClusterSpec>($cluster_size, $cluster_stride) "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        op: AllReduceOperation | AllReduceOperationAttr,
        uniform: bool = False,
        cluster_size: int | IntegerAttr | None = None,
        cluster_stride: int | IntegerAttr = 1,
    ):
        if isinstance(op, AllReduceOperation):
            op = AllReduceOperationAttr(op)
        if isinstance(cluster_size, int):
            cluster_size = IntegerAttr(cluster_size, i32)
        if isinstance(cluster_stride, int):
            cluster_stride = IntegerAttr(cluster_stride, i32)
        value = SSAValue.get(value)
        properties: dict[str, Attribute] = {"op": op, "cluster_stride": cluster_stride}
        if uniform:
            properties["uniform"] = UnitAttr()
        if cluster_size is not None:
            properties["cluster_size"] = cluster_size
        super().__init__(operands=[value], result_types=[value.type], properties=properties)

    def __post_init__(self):
        super().__post_init__()
        # MLIR prints properties sorted by name; the format parses them in
        # syntax order (op, cluster_size, cluster_stride).
        self.properties = dict(sorted(self.properties.items()))

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        from xgpu.transforms.canonicalization.gpu_kernel import fold_subgroup_reduce

        return fold_subgroup_reduce(self)

    def verify_(self) -> None:
        _check_same_operand_and_result(
            self.value, self.result, _is_int_or_float_or_vec, _INT_OR_FLOAT_OR_VEC
        )
        t = self.value.type
        elem = t.element_type if isinstance(t, VectorType) else t
        _check_reduction_kind(self.op.data, elem, t)
        # MLIR reads both as uint32_t.
        size = self.cluster_size
        if size is not None and not _is_power_of_two(size.value.data & 0xFFFFFFFF):
            raise VerifyException(
                f"cluster size {size.value.data & 0xFFFFFFFF} is not a power of two"
            )
        stride = self.cluster_stride.value.data & 0xFFFFFFFF
        if stride != 1 and size is None:
            raise VerifyException(
                "cluster stride can only be specified if cluster size is specified"
            )
        if not _is_power_of_two(stride):
            raise VerifyException(f"cluster stride {stride} is not a power of two")


@irdl_op_definition
class SubgroupBroadcastOp(ConditionallySpeculatableInterface, HasFolderInterface, IRDLOperation):
    """`gpu.subgroup_broadcast`: the value of `src` on the first active lane or
    on lane `lane`, for every lane of the subgroup."""

    name = "gpu.subgroup_broadcast"

    src = operand_def()
    lane = opt_operand_def(I32)
    broadcast_type = prop_def(BroadcastTypeAttr)

    result = result_def()

    traits = traits_def(NoMemoryEffect())

    custom_directives = (BroadcastTypeKeyword, SharedType)
    assembly_format = (
        "$src `,` custom<BroadcastTypeKeyword>($broadcast_type) ($lane^)? "
        "attr-dict `:` custom<SharedType>(type($result), type($src))"
    )

    def __init__(
        self,
        src: SSAValue | Operation,
        broadcast_type: BroadcastType | BroadcastTypeAttr,
        lane: SSAValue | Operation | None = None,
    ):
        if not isinstance(broadcast_type, BroadcastTypeAttr):
            broadcast_type = BroadcastTypeAttr(broadcast_type)
        src = SSAValue.get(src)
        super().__init__(
            operands=[src, [lane] if lane is not None else []],
            result_types=[src.type],
            properties={"broadcast_type": broadcast_type},
        )

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        from xgpu.transforms.canonicalization.gpu_kernel import fold_subgroup_broadcast

        return fold_subgroup_broadcast(self)

    def is_speculatable(self) -> bool:
        # Moving a first_active_lane broadcast across control flow changes
        # which lanes are active.
        return self.broadcast_type.data == BroadcastType.SPECIFIC_LANE

    def verify_(self) -> None:
        if self.src.type != self.result.type:
            raise VerifyException("failed to verify that all of {result, src} have same type")
        if self.broadcast_type.data == BroadcastType.SPECIFIC_LANE:
            if self.lane is None:
                raise VerifyException("lane must be specified for `specific_lane` broadcast")
        elif self.lane is not None:
            raise VerifyException("lane can only be specified for `specific_lane` broadcast")


class _WarpTerminator(SingleBlockImplicitTerminator):
    """SingleBlockImplicitTerminator(gpu.yield) with MLIR's messages."""

    def verify(self, op: Operation) -> None:
        for index, region in enumerate(op.regions):
            if len(region.blocks) > 1:
                raise VerifyException(f"expects region #{index} to have 0 or 1 blocks")
            for block in region.blocks:
                last = block.last_op
                if last is None:
                    raise VerifyException("expects a non-empty block")
                if not isinstance(last, self.op_type):
                    found = last.op_name.data if isinstance(last, UnregisteredOp) else last.name
                    raise OpDiagnostic(
                        f"expects regions to end with '{self.op_type.name}', found '{found}'",
                        notes=[
                            (
                                op,
                                "in custom textual format, the absence of terminator "
                                f"implies '{self.op_type.name}'",
                            )
                        ],
                    )


def _ensure_yield(region: Region) -> None:
    """MLIR's ensureTerminator: give the region a block, and end its last block
    with `gpu.yield` unless it already ends with a (registered) terminator."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.last
    assert block is not None
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        block.add_op(YieldOp())


def _verify_distributed_type(expanded: Attribute, distributed: Attribute, warp_size: int):
    if expanded == distributed:
        return
    if not isinstance(expanded, VectorType) or not isinstance(distributed, VectorType):
        raise VerifyException("expected vector type for distributed operands.")
    if (
        expanded.get_num_dims() != distributed.get_num_dims()
        or expanded.element_type != distributed.element_type
    ):
        raise VerifyException("expected distributed vectors to have same rank and element type.")
    scales: list[int] = []
    for i, (e_dim, d_dim) in enumerate(
        zip(expanded.get_shape(), distributed.get_shape(), strict=True)
    ):
        if e_dim == d_dim:
            scales.append(1)
            continue
        if d_dim == 0 or e_dim % d_dim != 0:
            raise VerifyException(
                f"expected expanded vector dimension #{i} ({e_dim}) to be a multipler "
                f"of the distributed vector dimension ({d_dim})"
            )
        scales.append(e_dim // d_dim)
    if prod(scales) != warp_size:
        raise VerifyException(
            f"incompatible distribution dimensions from '{expanded}' to "
            f"'{distributed}' with warp size = {warp_size}"
        )


@irdl_op_definition
class WarpExecuteOnLane0Op(IRDLOperation):
    """`gpu.warp_execute_on_lane_0`: run the body on lane 0 of a warp only;
    `args` are gathered from all lanes, results are distributed to all lanes."""

    name = "gpu.warp_execute_on_lane_0"

    laneid = operand_def()
    args = var_operand_def()
    warp_size = prop_def(IntegerAttr[I64])
    warp_region = region_def()

    results_ = var_result_def()

    traits = lazy_traits_def(lambda: (RecursiveMemoryEffect(), _WarpTerminator(YieldOp)))

    def __init__(
        self,
        laneid: SSAValue | Operation,
        warp_size: int | IntegerAttr,
        result_types: Sequence[Attribute] = (),
        args: Sequence[SSAValue | Operation] = (),
        block_arg_types: Sequence[Attribute] | None = None,
        region: Region | None = None,
    ):
        """Without `region`, builds a body block whose arguments have
        `block_arg_types` (default: the types of `args`). The body's last block
        gets a `gpu.yield` if it does not end with a terminator."""
        if isinstance(warp_size, int):
            warp_size = IntegerAttr(warp_size, i64)
        if region is None:
            if block_arg_types is None:
                block_arg_types = [SSAValue.get(a).type for a in args]
            region = Region(Block(arg_types=block_arg_types))
        _ensure_yield(region)
        super().__init__(
            operands=[laneid, args],
            result_types=[result_types],
            properties={"warp_size": warp_size},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpExecuteOnLane0Op:
        _expect(parser, "(")
        lane = parser.parse_unresolved_operand()
        _expect(parser, ")")
        _expect(parser, "[")
        pos = parser.pos
        warp_size = parser.parse_integer(allow_boolean=False, allow_negative=True)
        if not -(2**63) <= warp_size < 2**63:
            parser.raise_error("integer value too large", pos, parser.pos)
        _expect(parser, "]")
        laneid = parser.resolve_operand(lane, IndexType())

        args: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:
            _expect(parser, "(")
            pos = parser.pos
            unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            _expect(parser, ":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            _expect(parser, ")")
            if len(types) != len(unresolved):
                parser.raise_error(
                    "number of operands and types do not match: "
                    f"got {len(unresolved)} operands and {len(types)} types",
                    pos,
                    pos + 1,
                )
            args = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]

        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    result_types = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type
                    )
                    _expect(parser, ")")
            else:
                result_types = [parser.parse_type()]

        region = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            laneid,
            IntegerAttr(warp_size, i64),
            result_types=result_types,
            args=args,
            region=region,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_ssa_value(self.laneid)
        printer.print_string(f")[{self.warp_size.value.data}]")
        if self.args:
            printer.print_string(" args(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list((a.type for a in self.args), printer.print_attribute)
            printer.print_string(")")
        if self.results_:
            printer.print_string(" -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.warp_region,
            print_entry_block_args=True,
            print_block_terminators=bool(self.results_),
        )
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not isinstance(self.laneid.type, IndexType):
            raise VerifyException(f"operand #0 must be index, but got '{self.laneid.type}'")
        block = self.warp_region.blocks.first
        if block is None:
            raise VerifyException(
                "region #0 ('warpRegion') failed to verify constraint: region with 1 blocks"
            )
        if len(self.args) != len(block.args):
            raise VerifyException("expected same number op arguments and block arguments.")
        yield_op = block.last_op
        if not isinstance(yield_op, YieldOp):  # the terminator trait reports this first
            raise VerifyException("expects regions to end with 'gpu.yield'")
        if len(yield_op.values) != len(self.results_):
            raise VerifyException("expected same number of yield operands and return values.")
        warp_size = self.warp_size.value.data
        for block_arg, arg in zip(block.args, self.args):
            _verify_distributed_type(block_arg.type, arg.type, warp_size)
        for yielded, result in zip(yield_op.values, self.results_):
            _verify_distributed_type(yielded.type, result.type, warp_size)


OPS: list[type] = [
    ShuffleOp,
    RotateOp,
    AllReduceOp,
    SubgroupReduceOp,
    SubgroupBroadcastOp,
    WarpExecuteOnLane0Op,
    YieldOp,
]
ATTRS: list[type] = []
