"""Structured control flow as labels and `goto`, where braces would nest too deep.

C compilers bound the nesting of brackets: clang (PoCL's compiler, and the
one behind most OpenCL drivers) stops at 256 (`-fbracket-depth`), and each
`scf.for`, `scf.if` or `scf.while` of `emit` opens a brace. From
`FLAT_DEPTH` braces on, `function.FunctionEmitter.emit_op` hands these ops to the
handlers below instead, which write the same control flow without a brace:

    scf.for            T iv = lb;  L: ;  if (!(iv < ub)) goto E;  body  iv += step;  goto L;  E: ;
    scf.if             if (!(c)) goto F;  then  goto E;  F: ;  else  E: ;
    scf.while          L: ;  before  if (!(c)) goto E;  after  goto L;  E: ;
    scf.index_switch   switch (x) { case V: goto C; ... default: goto D; }  C: ; ... goto E; ... E: ;
    scf.execute_region its region, in place

The locals they declare stay in the enclosing block (their names are unique
in the function, and C allows a jump past a declaration without a variable
length array, which the emitter never writes). The nesting of the generated
C is thus bounded by `FLAT_DEPTH` plus the few braces of one op.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation

#: brace depth from which structured ops are written with labels and goto
FLAT_DEPTH = 64


def _label(fe: Any) -> str:
    return fe.names.fresh("bb")


def _for(fe: Any, op: Operation) -> None:
    lb, ub, step = fe.expr(op.lb), fe.expr(op.ub), fe.expr(op.step)
    t = fe.scalar_of(op.lb, op)
    body = op.body.block
    results = [fe.declare(r, op, fe.expr(init)) for r, init in zip(op.results, op.iter_args)]
    iv = fe.fresh_name("v", body.args[0].name_hint)
    fe.declare_local(t.c, iv, lb, op)
    fe.bind(body.args[0], iv)
    for arg, name in zip(body.args[1:], results):
        fe.bind(arg, name)
    if "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes:
        cond = f"({t.cu}){iv} < ({t.cu}){ub}"
    else:
        cond = f"{iv} < {ub}"
    head, end = _label(fe), _label(fe)

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    fe.line(f"{head}: ;", op)
    fe.line(f"if (!({cond})) goto {end};", op)
    fe.emit_block_ops(body, on_yield)
    fe.line(f"{iv} += {step};", op)
    fe.line(f"goto {head};", op)
    fe.line(f"{end}: ;", op)


def _if(fe: Any, op: Operation) -> None:
    cond = fe.expr(op.cond)
    results = [fe.declare(r, op) for r in op.results]

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    else_region = op.false_region
    has_else = else_region.blocks.first is not None
    other, end = _label(fe), _label(fe)
    fe.line(f"if (!({cond})) goto {other if has_else else end};", op)
    fe.emit_region(op.true_region, on_yield)
    if has_else:
        fe.line(f"goto {end};", op)
        fe.line(f"{other}: ;", op)
        fe.emit_region(else_region, on_yield)
    fe.line(f"{end}: ;", op)


def _while(fe: Any, op: Operation) -> None:
    before = op.before_region.block
    after = op.after_region.block
    carried = [fe.declare(a, op, fe.expr(init)) for a, init in zip(before.args, op.arguments)]
    results = [fe.declare(r, op) for r in op.results]
    for arg, name in zip(before.args, carried):
        fe.bind(arg, name)
    for arg, name in zip(after.args, results):
        fe.bind(arg, name)
    head, end = _label(fe), _label(fe)

    def on_condition(term: Operation) -> None:
        if term.name != "scf.condition":
            fe.fail(term, "expected scf.condition")
        fe.assign(results, list(term.args), term)
        fe.line(f"if (!{fe.expr(term.condition)}) goto {end};", term)

    def on_yield(term: Operation) -> None:
        fe.assign(carried, list(term.operands), term)

    fe.line(f"{head}: ;", op)
    fe.emit_block_ops(before, on_condition)
    fe.emit_block_ops(after, on_yield)
    fe.line(f"goto {head};", op)
    fe.line(f"{end}: ;", op)


def _execute_region(fe: Any, op: Operation) -> None:
    results = [fe.declare(r, op) for r in op.results]
    end = _label(fe)

    def on_yield(term: Operation) -> None:
        if term.name != "scf.yield":
            fe.fail(term, "is not supported by the OpenCL backend here")
        fe.assign(results, list(term.operands), term)
        fe.line(f"goto {end};", term)

    fe.emit_region(op.region, on_yield)
    fe.line(f"{end}: ;", op)


def _index_switch(fe: Any, op: Operation) -> None:
    arg = fe.expr(op.arg)
    results = [fe.declare(r, op) for r in op.results]

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    cases = list(op.cases.get_values())
    labels = [_label(fe) for _ in cases]
    default, end = _label(fe), _label(fe)
    fe.open(f"switch ({arg}) {{", op)
    for value, label in zip(cases, labels):
        fe.line(f"case {value}: goto {label};", op)
    fe.line(f"default: goto {default};", op)
    fe.close("}", op)
    for label, region in zip(labels, op.case_regions):
        fe.line(f"{label}: ;", op)
        fe.emit_region(region, on_yield)
        fe.line(f"goto {end};", op)
    fe.line(f"{default}: ;", op)
    fe.emit_region(op.default_region, on_yield)
    fe.line(f"{end}: ;", op)


FLAT_HANDLERS: dict[str, Callable[[Any, Operation], None]] = {
    "scf.for": _for,
    "scf.if": _if,
    "scf.while": _while,
    "scf.execute_region": _execute_region,
    "scf.index_switch": _index_switch,
}
