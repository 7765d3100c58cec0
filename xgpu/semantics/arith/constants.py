"""arith.constant (`xgpu.semantics.arith`): `c_literal`, a value of a scalar
type as an OpenCL C expression of that type."""

from __future__ import annotations

import math as _m
from typing import Any

from xgpu.semantics.core import OpSemantics, Signature, make, register
from xgpu.semantics.types import Scalar, SemanticsError

# --------------------------------------------------------------------------- #
# Constants                                                                   #
# --------------------------------------------------------------------------- #


def c_literal(value: Any, t: Scalar) -> str:
    """`value` of type `t` as an OpenCL C expression of that type."""
    v = t.norm(value)
    if t.is_float:
        assert isinstance(v, float)
        if _m.isnan(v):
            text = "NAN"
        elif _m.isinf(v):
            text = "INFINITY" if v > 0 else "(-INFINITY)"
        else:
            # The shortest text that reads back as the same value of the type.
            text = repr(v) if t.width == 64 else str(t.dtype.type(v))
            if "." not in text and "e" not in text:
                text += ".0"
            if t.width == 32:
                text += "f"
            elif t.width == 16:
                text = f"(half){text}f"
            if text.startswith("-"):
                text = f"({text})"
            return text
        return text if t.width == 32 else f"(({t.c}){text})"
    assert isinstance(v, int)
    if t.width == 64:
        if v == -(1 << 63):
            return "(-9223372036854775807L - 1L)"
        text = f"{v}L"
    elif t.width == 32:
        text = "(-2147483647 - 1)" if v == -(1 << 31) else str(v)
    else:
        text = f"({t.c}){v}"
    return f"({text})" if text.startswith("-") else text


@register("arith.constant")
def _constant(sig: Signature) -> OpSemantics:
    if "value" not in sig.params:
        raise SemanticsError("arith.constant: no value")
    t = sig.result()
    value = t.norm(sig.params["value"])
    return make(sig, lambda: c_literal(value, t), lambda: value)
