"""`memref.atomic_rmw` and `memref.generic_atomic_rmw` in the simulator's
work-item engine (the lockstep engine leaves kernels with atomics to it).

A work-item runs until it reaches a barrier, so a read-modify-write is
indivisible as it stands: the element is read (and must have been
written), the new value computed (`xgpu.semantics.atomics`, or the op's
region) and stored, and the op's value is the element's old value. Under
`--detect-races` the access counts as a read and a write of the element by
an atomic op: two atomic accesses are ordered, an atomic and a plain one of
different work-items race (`xgpu.runtime.races`).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from xgpu.runtime.compile_host import HostCompileError
from xgpu.semantics import SemanticsError
from xgpu.semantics.atomics import kind_of, update


def _access(c: Any, op: Operation) -> str:
    """The bounds-checked position `_p` of `op`'s element, recorded as a read
    then a write; returns the memref's local prefix."""
    from xgpu.backend.sim.kernel import memref_access

    m = memref_access(c, op, False)
    if c.options.detect_races:
        c.w(f"if {m}_h is not None: _kacc({m}_h, _p, True, _w, {c.bind(op, 'op')})", op)
    c.w(f"if not {m}_i[_p]: _uninit()", op)
    return m


def h_atomic_rmw(c: Any, op: Operation) -> None:
    try:
        sem = update(kind_of(op), op.result.type)
    except SemanticsError as err:
        raise HostCompileError(op, str(err)) from None
    m = _access(c, op)
    old = c.v(op.result)
    c.w(f"{old} = {m}_d.item(_p)", op)
    if sem is None:
        c.w(f"{m}_d[_p] = {c.v(op.value)}", op)
    else:
        fn = c.bind(sem.py, "atom")
        c.w(f"{m}_d[_p] = {fn}({old}, {c.v(op.value)})", op)


def h_generic_atomic_rmw(c: Any, op: Operation) -> None:
    m = _access(c, op)
    block = op.atomic_body.block
    current = c.v(block.args[0])
    c.w(f"{current} = {m}_d.item(_p)", op)

    def on_exit(term: Operation) -> None:
        if term.name != "memref.atomic_yield":
            raise HostCompileError(
                term, "memref.generic_atomic_rmw's region must end with memref.atomic_yield"
            )
        c.w(f"{m}_d[_p] = {c.v(term.operands[0])}", term)
        c.w(f"{c.v(op.result)} = {current}", term)

    c.region(op.atomic_body, on_exit)


HANDLERS = {
    "memref.atomic_rmw": h_atomic_rmw,
    "memref.generic_atomic_rmw": h_generic_atomic_rmw,
}
