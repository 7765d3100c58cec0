"""Subgroup and reduction ops: shuffle, rotate, all_reduce, subgroup_reduce,
subgroup_broadcast, warp_execute_on_lane_0, yield.

The module the catalog names for them (`xgpu.dialects.gpu.catalog`); they are
defined in `subgroup_ops` (yield, shuffle, rotate, all_reduce,
subgroup_reduce, subgroup_broadcast) and `warp_execute`
(warp_execute_on_lane_0), with their type checks in `subgroup_checks` and
the custom directives of their syntax in `subgroup_format`.
"""

from __future__ import annotations

from xgpu.dialects.gpu.subgroup_checks import (  # noqa: F401  (re-exported)
    _FLOAT_ONLY,
    _INT_ONLY,
    _INT_OR_FLOAT,
    _INT_OR_FLOAT_OR_VEC,
    _check_reduction_kind,
    _check_same_operand_and_result,
    _check_value_and_result,
    _is_int_or_float,
    _is_int_or_float_or_vec,
    _is_power_of_two,
)
from xgpu.dialects.gpu.subgroup_format import (  # noqa: F401  (re-exported)
    AllReduceOperationKeyword,
    BroadcastTypeKeyword,
    ClusterSpec,
    SharedType,
    ShuffleModeKeyword,
    _EnumKeyword,
    _expect,
    _expect_keyword,
    _parse_i32,
    _print_enum_keyword,
)
from xgpu.dialects.gpu.subgroup_ops import (  # noqa: F401  (re-exported)
    AllReduceOp,
    RotateOp,
    ShuffleOp,
    SubgroupBroadcastOp,
    SubgroupReduceOp,
    YieldOp,
    _GroupOpCanonicalization,
)
from xgpu.dialects.gpu.warp_execute import (  # noqa: F401  (re-exported)
    WarpExecuteOnLane0Op,
    _ensure_yield,
    _verify_distributed_type,
    _WarpTerminator,
)

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
