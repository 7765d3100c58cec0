"""f16 on OpenCL devices without cl_khr_fp16 (PoCL's CPU device, for one).

OpenCL C 1.2 lets every device point at `half` memory and move it with
`vload_half`/`vstore_half` (core built-ins, no extension); `half` values,
arrays and arithmetic need cl_khr_fp16. Where the device lacks it
(`Options.fp16` False) the emitter represents f16 so:

- an f16 value is a `float` local holding a value that f16 represents
  exactly (`HALF_VALUE`: a `Scalar` whose C type is float; a kernel's f16
  scalar argument is passed as a float);
- f16 memory stays `half` (the pointers of kernel arguments, views and
  workgroup attributions): `memref.load` is `vload_half(i, p)`, and
  `memref.store` `vstore_half(v, i, p)` (exact: v is an f16 value);
  private memory, `memref.alloca`, constant `memref.global`s and atomics of
  f16 are arrays or operations of `half` and are refused with an error;
- an arith or math op on f16 is its f32 form (`xgpu.semantics` at f32)
  followed by `xg_half(x)`, the exact round-to-nearest-even of a float to the
  nearest f16 value (overflow to infinity, subnormal f16 results, NaN kept).
  For +, -, *, / and sqrt this is the correctly rounded f16 result: f32 has
  24 >= 2 * 11 + 2 significant bits, so rounding to f32 first cannot change
  the second rounding; conversions from integers are exact too (an integer
  that f32 rounds is above f16's range either way). `extf` from f16 is the
  float itself, `truncf` from f32 one `xg_half`. Refused: `truncf` from f64
  and `math.fma` (two roundings that can differ from one), `bitcast` to or
  from f16, f16 reductions and subgroup data movement.

The simulator computes f16 with numpy.float16 (the same values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects.builtin import Float16Type, Float32Type, f32
from xdsl.ir import Attribute, Operation

from xgpu.semantics import CHelper, Scalar, SemanticsError, c_literal, lookup
from xgpu.semantics.types import F32

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter


class _HalfValue(Scalar):
    """An f16 value held in a float (see the module doc)."""

    @property
    def c(self) -> str:  # type: ignore[override]
        return "float"

    @property
    def dtype(self):  # type: ignore[override]
        return F32.dtype


HALF_VALUE = _HalfValue("float", 16)

ROUND = CHelper(
    "xg_half",
    """\
static float xg_half(float x) {
  uint u = as_uint(x);
  uint a = u & 0x7fffffffu;
  uint s = u & 0x80000000u;
  if (a >= 0x7f800000u) return x;
  if (a >= 0x477ff000u) return as_float(s | 0x7f800000u);
  if (a >= 0x38800000u) {
    a += 0xfffu + ((a >> 13) & 1u);
    return as_float(s | (a & 0xffffe000u));
  }
  uint e = a >> 23;
  if (e < 102u) return as_float(s);
  uint m = (a & 0x7fffffu) | 0x800000u;
  uint sh = 126u - e;
  uint q = m >> sh;
  uint r = m & ((1u << sh) - 1u);
  uint h = 1u << (sh - 1u);
  if (r > h || (r == h && (q & 1u))) q += 1u;
  return as_float(s | as_uint((float)q * 5.9604644775390625e-8f));
}""",
)


def emulated(fe: FunctionEmitter) -> bool:
    return not fe.module.options.fp16


def is_f16(t: Attribute) -> bool:
    return isinstance(t, Float16Type)


def is_half_storage(elem: Scalar) -> bool:
    return elem.is_float and elem.width == 16


def rounded(fe: FunctionEmitter, expr: str) -> str:
    fe.module.helpers.setdefault(ROUND.name, ROUND)
    return f"xg_half({expr})"


def touches_f16(op: Operation) -> bool:
    return any(is_f16(v.type) for v in (*op.operands, *op.results))


def refuse(fe: FunctionEmitter, op: Operation, what: str = "") -> None:
    """The error for an f16 use the emulation does not cover."""
    fe.fail(
        op,
        f"{what or 'f16 here'} needs cl_khr_fp16, which the target device lacks "
        "(f16 is emulated in float for loads, stores, arith and math only)",
    )


def split_access(access: str) -> tuple[str, str]:
    """`ptr[index]` -> (ptr, index)."""
    ptr, _, rest = access.partition("[")
    return ptr, rest[:-1]


def load(access: str) -> str:
    ptr, index = split_access(access)
    return f"vload_half({index}, {ptr})"


def store(access: str, value: str) -> str:
    ptr, index = split_access(access)
    return f"vstore_half({value}, {index}, {ptr})"


def _to_f32(t: Attribute) -> Attribute:
    return f32 if is_f16(t) else t


def semantic(fe: FunctionEmitter, op: Operation) -> None:
    """An arith/math op with f16 operands or results (see the module doc)."""
    name = op.name
    operands = [fe.expr(o) for o in op.operands]
    if name == "arith.constant":
        value = op.results[0]
        literal = c_literal(float(op.value.value.data), F32)
        fe.values[value] = literal
        fe.consts[value] = float(op.value.value.data)
        return
    if name in ("arith.bitcast", "math.fma"):
        refuse(fe, op, f"{name} on f16")
    if name == "arith.extf":
        src, dst = op.operands[0].type, op.results[0].type
        text = operands[0] if isinstance(dst, Float32Type) else f"(double){operands[0]}"
        if not is_f16(src):
            refuse(fe, op, "arith.extf to f16")
        fe.define(op.results[0], text, op)
        return
    if name == "arith.truncf":
        src = op.operands[0].type
        if not isinstance(src, Float32Type):
            refuse(fe, op, f"arith.truncf from {src} to f16")
        fe.define(op.results[0], rounded(fe, operands[0]), op)
        return
    try:
        sem = lookup(op, retype=_to_f32)
    except SemanticsError as err:
        fe.fail(op, f"is not supported by the OpenCL backend: {err}")
    fe.use_semantics(sem, op)
    texts = sem.c(*operands)
    if isinstance(texts, str):
        texts = (texts,)
    for r, t in zip(op.results, texts):
        fe.define(r, rounded(fe, t) if is_f16(r.type) else t, op)
