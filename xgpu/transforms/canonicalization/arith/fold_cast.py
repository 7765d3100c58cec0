"""MLIR 22's folders of the arith cast ops.

extui, extsi, trunci, index_cast, bitcast, extf, truncf, sitofp, uitofp,
fptosi and fptoui; the folder returns None where an in-place fold pattern
(`patterns_in_place`) applies.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
)
from xdsl.ir import Operation

from xgpu.transforms.canonicalization.arith.floats import (
    _FOLDABLE_FLOATS,
    _bits_float,
    _exactly,
    _float_bits,
    float_to_int,
    float_value,
    int_to_float,
)
from xgpu.transforms.canonicalization.arith.fold_int import _s
from xgpu.transforms.canonicalization.arith.values import (
    Folded,
    const_attr,
    defining_op,
    element_type,
    int_attr,
    int_bits,
    int_width,
)

# --- casts -----------------------------------------------------------------


def _cast_identity(op: Operation) -> Folded:
    """CastOpInterface's trait fold: a cast to its own type is its operand."""
    if op.operands[0].type == op.results[0].type:
        return [op.operands[0]]
    return None


def _cast_input_bits(op: Operation) -> tuple[int, int] | None:
    attr = const_attr(op.operands[0])
    bits = int_bits(attr)
    if bits is None:
        return None
    return bits, int_width(attr.type)  # type: ignore[union-attr, return-value]


def fold_extui(op: arith.ExtUIOp) -> Folded:
    if isinstance(defining_op(op.input), arith.ExtUIOp):
        return None  # ExtUIOfExtUI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(found[0], op.result.type)]


def fold_extsi(op: arith.ExtSIOp) -> Folded:
    if isinstance(defining_op(op.input), arith.ExtSIOp):
        return None  # ExtSIOfExtSI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(_s(*found), op.result.type)]


def _trunci_in_place(op: arith.TruncIOp) -> bool:
    inner = defining_op(op.input)
    if isinstance(inner, arith.ExtUIOp | arith.ExtSIOp):
        source = int_width(element_type(inner.input.type))
        target = int_width(element_type(op.result.type))
        return source is not None and target is not None and source > target
    return isinstance(inner, arith.TruncIOp)


def fold_trunci(op: arith.TruncIOp) -> Folded:
    inner = defining_op(op.input)
    if isinstance(inner, arith.ExtUIOp | arith.ExtSIOp):
        if _trunci_in_place(op):
            return None  # TruncIOfExt modifies the op in place
        if element_type(inner.input.type) == element_type(op.result.type):
            return [inner.input]
    if isinstance(inner, arith.TruncIOp):
        return None  # TruncIOfTruncI modifies the op in place
    found = _cast_input_bits(op)
    if found is None or int_width(op.result.type) is None:
        return None
    return [int_attr(found[0], op.result.type)]


def fold_index_cast(op: arith.IndexCastOp) -> Folded:
    found = _cast_input_bits(op)
    if found is not None and int_width(op.result.type) is not None:
        return [int_attr(_s(*found), op.result.type)]
    return None


def fold_bitcast(op: arith.BitcastOp) -> Folded:
    attr = const_attr(op.input)
    result_type = op.result.type
    bits: int | None = None
    if isinstance(attr, IntegerAttr):
        bits = int_bits(attr)
    elif isinstance(attr, FloatAttr) and isinstance(attr.type, _FOLDABLE_FLOATS):
        bits = _float_bits(attr.value.data, attr.type)
    if bits is not None:
        if int_width(result_type) is not None:
            return [int_attr(bits, result_type)]
        if isinstance(result_type, _FOLDABLE_FLOATS):
            value = _bits_float(bits, result_type)
            if value is None:
                return None
            result = FloatAttr(value, result_type)
            # A signaling NaN does not survive Python floats (it is quieted):
            # fold only what round-trips to the same bits.
            if _float_bits(result.value.data, result_type) == bits:
                return [result]
        return None
    if attr is not None:
        return None
    return _cast_identity(op)


def fold_extf(op: arith.ExtFOp) -> Folded:
    value = float_value(const_attr(op.input))
    if value is None or not isinstance(op.result.type, _FOLDABLE_FLOATS):
        return None
    if not _exactly(value, op.result.type):
        return None
    return [FloatAttr(value, op.result.type)]


def _truncf_in_place(op: arith.TruncFOp) -> bool:
    ext = defining_op(op.input)
    if not isinstance(ext, arith.ExtFOp):
        return False
    source, result = element_type(ext.input.type), element_type(op.result.type)
    return source.bitwidth > result.bitwidth  # type: ignore[attr-defined]


def fold_truncf(op: arith.TruncFOp) -> Folded:
    ext = defining_op(op.input)
    if isinstance(ext, arith.ExtFOp):
        if _truncf_in_place(op):
            return None  # TruncFOfExtF modifies the op in place
        if element_type(ext.input.type) == element_type(op.result.type):
            return [ext.input]
    value = float_value(const_attr(op.input))
    if value is None or not isinstance(op.result.type, _FOLDABLE_FLOATS):
        return None
    if not _exactly(value, op.result.type):
        return None
    return [FloatAttr(value, op.result.type)]


def _fold_int_to_float(op: Operation, signed: bool) -> Folded:
    found = _cast_input_bits(op)
    if found is None or not isinstance(op.results[0].type, _FOLDABLE_FLOATS):
        return None
    value = _s(*found) if signed else found[0]
    return [FloatAttr(int_to_float(value, op.results[0].type), op.results[0].type)]


def fold_sitofp(op: arith.SIToFPOp) -> Folded:
    return _fold_int_to_float(op, signed=True)


def fold_uitofp(op: arith.UIToFPOp) -> Folded:
    return _fold_int_to_float(op, signed=False)


def _fold_float_to_int(op: Operation, signed: bool) -> Folded:
    value = float_value(const_attr(op.operands[0]))
    width = int_width(op.results[0].type)
    if value is None or width is None:
        return None
    bits = float_to_int(value, width, signed)
    return None if bits is None else [int_attr(bits, op.results[0].type)]


def fold_fptosi(op: arith.FPToSIOp) -> Folded:
    return _fold_float_to_int(op, signed=True)


def fold_fptoui(op: arith.FPToUIOp) -> Folded:
    return _fold_float_to_int(op, signed=False)
