"""One description of how scalar ops compute, shared by every backend.

The OpenCL emitter prints the C side; the host runtime and the simulator run
the Python side. Both come from the same table entry, so they cannot drift.

API (stable):

    from xgpu import semantics

    sem = semantics.lookup(op)              # an arith/math op (xDSL Operation)
    sem = semantics.lookup_name("arith.cmpi", ["i32", "i32"], ["i1"], predicate="slt")
    sem.c("x", "y")     # -> "(uchar)(x < y)": an OpenCL C expression
    sem.py(3, -1)       # -> 0: the same computation on Python values
    sem.helpers         # C functions the expression calls (CHelper(name, source))
    sem.extensions      # OpenCL extensions it needs ({"cl_khr_fp64"} for f64)

- `lookup(op) -> OpSemantics` reads the op's name, operand and result types and
  the attributes that matter (`predicate` of `arith.cmpi`/`arith.cmpf`, `value`
  of `arith.constant`); `lookup_name(name, operand_types, result_types,
  **params)` does the same without an op (types: xDSL attributes or names such
  as "i32", "index", "f32"; `predicate` by name or number; `value`).
- `OpSemantics.c(*operand_exprs)` returns one C expression (a tuple of them
  for the ops with several results: `arith.addui_extended`,
  `arith.mului_extended`, `arith.mulsi_extended`).
- `OpSemantics.py(*values)` normalizes its inputs to the operand types and its
  result(s) to the result types (a tuple for several results).
- `supported_ops()`: the op names with semantics.
- `c_literal(value, type)`: a constant as an OpenCL C expression.
- `scalar(type) -> Scalar`: C type (`.c`), numpy dtype (`.dtype`), width,
  `.norm(value)`; `SemanticsError` for unsupported types.
- `SemanticsError` (unsupported op/type/attribute), `UndefinedBehavior`
  (raised by `py` on MLIR's immediate UB: integer division by zero, signed
  division overflow, `ipowi` of 0 to a negative power).

Values: integers (`index` = 64 bits) are Python ints in the signed range of
their width, wrapping modulo 2**width; `i1` is 0 or 1; floats are Python floats
rounded to their type (f32 with numpy.float32). Poison results (oversized
shifts, out-of-range float-to-int conversions) get the value the OpenCL
expression computes, on both sides; see `xgpu.semantics.arith` and
`xgpu.semantics.math` for each choice. `xgpu.semantics.gpu` holds reductions
(`combiner`, `identity`, `fold_reduce`, `tree_reduce`, `cluster_reduce`) and
subgroup data movement (`shuffle`, `rotate`, `broadcast`) in the order the
backend computes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects.builtin import FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Operation

from xgpu.semantics import arith as _arith  # noqa: F401  (fills the registry)
from xgpu.semantics import index as _index  # noqa: F401
from xgpu.semantics import math as _math  # noqa: F401
from xgpu.semantics.arith import CMPF_PREDICATES, CMPI_PREDICATES, c_literal
from xgpu.semantics.core import REGISTRY, CHelper, OpSemantics, Signature, build, paren
from xgpu.semantics.types import Scalar, SemanticsError, UndefinedBehavior, scalar

__all__ = [
    "CHelper",
    "OpSemantics",
    "Scalar",
    "SemanticsError",
    "Signature",
    "UndefinedBehavior",
    "c_literal",
    "lookup",
    "lookup_name",
    "paren",
    "scalar",
    "supported_ops",
]


def supported_ops() -> frozenset[str]:
    """Names of the ops `lookup` knows."""
    return frozenset(REGISTRY)


def _op_name(op: Operation) -> str:
    name = getattr(op, "op_name", None)  # UnregisteredOp
    if name is not None and hasattr(name, "data"):
        return name.data
    return op.name


def _predicate(name: str, value: Any) -> str:
    table = CMPI_PREDICATES if name == "arith.cmpi" else CMPF_PREDICATES
    if isinstance(value, IntegerAttr):
        value = value.value.data
    if isinstance(value, int):
        if not 0 <= value < len(table):
            raise SemanticsError(f"{name}: predicate {value} out of range")
        return table[value]
    return str(value)


def lookup_name(
    name: str,
    operand_types: Sequence[Attribute | Scalar | str],
    result_types: Sequence[Attribute | Scalar | str],
    **params: Any,
) -> OpSemantics:
    """The semantics of op `name` at the given types (see the module docstring)."""
    if "predicate" in params:
        params["predicate"] = _predicate(name, params["predicate"])
    if isinstance(params.get("value"), IntegerAttr | FloatAttr):
        params["value"] = params["value"].value.data
    return build(name, operand_types, result_types, params)


def _prop(op: Operation, name: str) -> Attribute | None:
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def lookup(op: Operation, retype: Callable[[Attribute], Attribute] | None = None) -> OpSemantics:
    """The semantics of an arith/math/index op; `SemanticsError` when it has none.
    `retype` maps each operand and result type first (the OpenCL backend's f16
    emulation looks f16 ops up at f32)."""
    name = _op_name(op)
    params: dict[str, Any] = {}
    if name in ("arith.cmpi", "arith.cmpf"):
        params["predicate"] = _prop(op, "predicate")
    if name == "index.cmp":
        pred = _prop(op, "pred")
        params["predicate"] = getattr(getattr(pred, "data", None), "value", pred)
    if name == "index.sizeof":
        params["value"] = _index.INDEX_BITS
    if name in ("arith.constant", "index.constant", "index.bool.constant"):
        value = _prop(op, "value")
        if not isinstance(value, IntegerAttr | FloatAttr):
            raise SemanticsError(f"{name}: unsupported value {value}")
        params["value"] = value

    def same(t: Attribute) -> Attribute:
        return t

    mapped = retype or same
    return lookup_name(
        name,
        [mapped(o.type) for o in op.operands],
        [mapped(r.type) for r in op.results],
        **params,
    )
