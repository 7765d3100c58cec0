"""MLIR 22's scf dialect: xDSL's ops with MLIR's custom syntax where xDSL's
differs (scf.for, scf.if, scf.while, scf.parallel, scf.reduce,
scf.execute_region, scf.index_switch), plus scf.forall and
scf.forall.in_parallel, which xDSL 0.75 lacks.

xgpu's classes subclass xDSL's, so that `isinstance(op, xdsl.dialects.scf.ForOp)`
still holds for what xgpu's parser builds; xgpu code builds xgpu's classes
(`from xgpu.dialects import scf`). scf.yield, scf.condition and
scf.reduce.return are xDSL's (their syntax is MLIR's)."""

from __future__ import annotations

from xdsl.dialects.scf import ConditionOp, ReduceReturnOp, YieldOp
from xdsl.ir import Dialect

from xgpu.dialects.derive import derived_dialect
from xgpu.dialects.scf.control import ExecuteRegionOp, IfOp, IndexSwitchOp, WhileOp
from xgpu.dialects.scf.forall import ForallOp, InParallelOp
from xgpu.dialects.scf.loops import ForOp, ParallelOp, ReduceOp

OPS = (
    ForOp,
    IfOp,
    WhileOp,
    ExecuteRegionOp,
    IndexSwitchOp,
    ParallelOp,
    ReduceOp,
    ForallOp,
    InParallelOp,
)


def dialect() -> Dialect:
    from xgpu.dialects import xdsl_dialect

    return derived_dialect(xdsl_dialect("scf"), "scf", ops=OPS)


__all__ = [
    "ConditionOp",
    "ExecuteRegionOp",
    "ForOp",
    "ForallOp",
    "IfOp",
    "InParallelOp",
    "IndexSwitchOp",
    "ParallelOp",
    "ReduceOp",
    "ReduceReturnOp",
    "WhileOp",
    "YieldOp",
    "dialect",
]
