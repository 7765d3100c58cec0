"""The subgroup and reduction ops (`subgroup` lists them for the catalog):
gpu.yield, gpu.shuffle, gpu.rotate, gpu.all_reduce, gpu.subgroup_reduce,
gpu.subgroup_broadcast, with their verifiers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    IntegerAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
)
from xdsl.interfaces import ConditionallySpeculatableInterface, HasFolderInterface
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    ReturnLike,
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
from xgpu.dialects.gpu.subgroup_checks import (
    _INT_OR_FLOAT,
    _INT_OR_FLOAT_OR_VEC,
    _check_reduction_kind,
    _check_same_operand_and_result,
    _check_value_and_result,
    _is_int_or_float,
    _is_int_or_float_or_vec,
    _is_power_of_two,
)
from xgpu.dialects.gpu.subgroup_format import (
    AllReduceOperationKeyword,
    BroadcastTypeKeyword,
    ClusterSpec,
    SharedType,
    ShuffleModeKeyword,
)
from xgpu.dialects.gpu.utils import (
    IsolatedFromAboveWithMLIRMessage,
    MLIRResultNames,
)
from xgpu.ir.region_checks import RegionVerifier


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
