"""Core attributes: #gpu<dim>, #gpu<all_reduce_op>, #gpu<shuffle_mode>,
#gpu<broadcast>, #gpu.address_space, mapping attributes, #gpu.loop_dim_map."""

from __future__ import annotations

from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.utils.str_enum import StrEnum


class Dimension(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """`#gpu<dim x|y|z>`."""

    name = "gpu.dim"


class AllReduceOperation(StrEnum):
    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


@irdl_attr_definition
class AllReduceOperationAttr(EnumAttribute[AllReduceOperation], SpacedOpaqueSyntaxAttribute):
    """`#gpu<all_reduce_op add|mul|...>`."""

    name = "gpu.all_reduce_op"


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<shuffle_mode xor|up|down|idx>`."""

    name = "gpu.shuffle_mode"


class BroadcastType(StrEnum):
    FIRST_ACTIVE_LANE = "first_active_lane"
    SPECIFIC_LANE = "specific_lane"


@irdl_attr_definition
class BroadcastTypeAttr(EnumAttribute[BroadcastType], SpacedOpaqueSyntaxAttribute):
    """`#gpu<broadcast first_active_lane|specific_lane>`."""

    name = "gpu.broadcast"


OPS: list[type] = []
ATTRS: list[type] = [
    DimensionAttr,
    AllReduceOperationAttr,
    ShuffleModeAttr,
    BroadcastTypeAttr,
]
