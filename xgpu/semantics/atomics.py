"""`memref.atomic_rmw`: how each `arith::AtomicRMWKind` combines the value in
memory with the operand (one definition for host code, the simulator and
the OpenCL C emitter). The op stores `kind(current, value)` and returns the
value it replaced; `assign` stores the operand."""

from __future__ import annotations

from xdsl.ir import Attribute, Operation

from xgpu.semantics.core import OpSemantics, build
from xgpu.semantics.types import SemanticsError, scalar

#: kind -> the arith op that computes the stored value from (current, value)
KIND_OPS = {
    "addf": "arith.addf",
    "addi": "arith.addi",
    "andi": "arith.andi",
    "maximumf": "arith.maximumf",
    "maxnumf": "arith.maxnumf",
    "maxs": "arith.maxsi",
    "maxu": "arith.maxui",
    "minimumf": "arith.minimumf",
    "minnumf": "arith.minnumf",
    "mins": "arith.minsi",
    "minu": "arith.minui",
    "mulf": "arith.mulf",
    "muli": "arith.muli",
    "ori": "arith.ori",
    "xori": "arith.xori",
}

#: the ops that access memory atomically (the race detector orders two of them)
ATOMIC_OPS = frozenset({"memref.atomic_rmw", "memref.generic_atomic_rmw"})


def kind_of(op: Operation) -> str:
    from xgpu.dialects.memref.access import ATOMIC_RMW_KINDS

    value = op.kind.value.data
    if not 0 <= value < len(ATOMIC_RMW_KINDS):
        raise SemanticsError(f"unknown atomic kind {value}")
    return ATOMIC_RMW_KINDS[value]


def update(kind: str, t: Attribute) -> OpSemantics | None:
    """The combining op of `kind` on element type `t` (None: `assign`)."""
    if kind == "assign":
        return None
    s = scalar(t)
    return build(KIND_OPS[kind], [s, s], [s])
