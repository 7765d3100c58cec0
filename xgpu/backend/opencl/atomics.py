"""`memref.atomic_rmw` and `memref.generic_atomic_rmw` in OpenCL C 1.2.

Every kind is one compare-and-swap loop on the element's bits (OpenCL 1.2
has no float atomics, and a loop gives every kind the semantics of
`xgpu.semantics.atomics`, the same as host code and the simulator): read
the element (with a swap of 0 for 0, so that no plain read races), compute the new value, `atomic_cmpxchg` (32-bit elements) or
`atom_cmpxchg` (64-bit, `cl_khr_int64_base_atomics`) it in, again while
another work-item changed the element in between; the op's value is the
element's value before the swap. `generic_atomic_rmw` runs its region in
the loop. Elements of 8 or 16 bits are an error at the op (OpenCL has no
atomics on them). With bounds checks, an element outside its memory is not
touched: the op's value is 0 and the failure is recorded, as for a load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Operation

from xgpu.backend.opencl import guards
from xgpu.semantics import SemanticsError
from xgpu.semantics.atomics import kind_of, update

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter

#: element bits -> (the unsigned C type of the bits, the CAS builtin)
_CAS = {32: ("uint", "atomic_cmpxchg"), 64: ("ulong", "atom_cmpxchg")}


def _bits(fe: FunctionEmitter, op: Operation, s) -> tuple[str, str]:
    width = s.nbytes * 8
    if width not in _CAS:
        fe.fail(op, f"atomics on {width}-bit elements are not supported by OpenCL")
    if width == 64:
        fe.require_extension("cl_khr_int64_base_atomics")
    return _CAS[width]


def _to_bits(s, utype: str, value: str) -> str:
    if s.is_float:
        return f"as_{utype}({value})"
    return f"({utype})({value})"


def _from_bits(s, value: str) -> str:
    if s.is_float:
        return f"as_{s.c}({value})"
    return f"({s.c})({value})"


def _loop(fe: FunctionEmitter, op: Operation, emit_new) -> None:
    """The CAS loop of `op` on its element: `emit_new(cur)` emits the code
    that computes the new value from the C name `cur` and returns it."""
    d = fe.desc(op.memref)
    if d.space == "__constant":
        fe.fail(op, "atomics on a constant memref.global")
    s = fe.scalar_of(op.result, op)
    utype, cas = _bits(fe, op, s)
    idx = [fe.index_operand(i) for i in op.indices]
    if fe.checked:
        cond, access, fault = guards.access_guard(fe, op, d, idx)
    else:
        cond, access, fault = None, d.element(idx), ""
    result = fe.define(op.result, "0", op)
    if cond is not None:
        fe.open(f"if ({cond}) {{", op)
    p = fe.fresh_name("ap")
    fe.line(f"volatile {d.space} {utype}* {p} = (volatile {d.space} {utype}*)&{access};", op)
    seen = fe.fresh_name("seen")
    want = fe.fresh_name("want")
    # The first read is atomic too (a plain one races with the others' swaps).
    fe.line(f"{utype} {seen} = {cas}({p}, 0, 0), {want};", op)
    fe.open("do {", op)
    fe.line(f"{want} = {seen};", op)
    cur = fe.fresh_name("cur")
    fe.line(f"{s.c} {cur} = {_from_bits(s, want)};", op)
    new = emit_new(cur)
    fe.line(f"{seen} = {cas}({p}, {want}, {_to_bits(s, utype, new)});", op)
    fe.close(f"}} while ({seen} != {want});", op)
    fe.line(f"{result} = {_from_bits(s, want)};", op)
    if cond is not None:
        fe.close("}", op)
        fe.line(f"else {fault};", op)


def atomic_rmw(fe: FunctionEmitter, op: Operation) -> None:
    try:
        sem = update(kind_of(op), op.result.type)
    except SemanticsError as err:
        fe.fail(op, str(err))
    value = fe.expr(op.value)

    def new(cur: str) -> str:
        if sem is None:
            return value
        fe.use_semantics(sem, op)
        return sem.c(cur, value)

    _loop(fe, op, new)


def generic_atomic_rmw(fe: FunctionEmitter, op: Operation) -> None:
    block = op.atomic_body.block

    def new(cur: str) -> str:
        fe.values[block.args[0]] = cur
        out: list[str] = []

        def on_exit(term: Operation) -> None:
            if term.name != "memref.atomic_yield":
                fe.fail(term, "must end memref.generic_atomic_rmw's region")
            out.append(fe.expr(term.operands[0]))

        fe.emit_block_ops(block, on_exit)
        return out[0]

    _loop(fe, op, new)
