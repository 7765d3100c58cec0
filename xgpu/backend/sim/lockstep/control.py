"""The lockstep engine's scf control flow (see `codegen`): `scf.for`,
`scf.if`, `scf.while`, `scf.index_switch` and `scf.execute_region`. A
condition or bound the same for every lane is plain Python control flow;
one that differs between lanes runs the region under a mask, its results
merged lane by lane."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from xgpu.backend.sim.lockstep.codegen import Unsupported

if TYPE_CHECKING:
    from xgpu.backend.sim.lockstep.codegen import LockstepCompiler


def _carry(c: LockstepCompiler, targets, sources, op: Operation) -> None:
    """Parallel assignment of loop-carried values (through temporaries)."""
    temps = []
    for src in sources:
        t = c.fresh("t")
        c.w(f"{t} = {c.v(src)}")
        temps.append(t)
    for tgt, src, t in zip(targets, sources, temps):
        c.assign(tgt, t, src, op)


def _h_for(c: LockstepCompiler, op: Operation, mask: str) -> None:
    body = op.body.block
    iv = body.args[0]
    carried = list(body.args[1:])
    _carry(c, carried, list(op.iter_args), op)
    unsigned = "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes
    lb, ub, step = c.v(op.lb), c.v(op.ub), c.v(op.step)

    def on_yield(term: Operation) -> None:
        _carry(c, carried, list(term.operands), op)

    if not c.is_var(iv):
        if unsigned:
            lb_type = op.lb.type
            bits = lb_type.width.data if isinstance(lb_type, IntegerType) else 64
            m = (1 << bits) - 1
            c.w(f"for {c.v(iv)} in range({lb} & {m}, {ub} & {m}, {step} & {m}):")
            c.w.indent += 1
            c.w(
                f"{c.v(iv)} = {c.v(iv)} - {1 << bits} if {c.v(iv)} >= {1 << (bits - 1)} else {c.v(iv)}"
            )
        else:
            c.w(f"for {c.v(iv)} in range({lb}, {ub}, {step}):")
            c.w.indent += 1
        c.block(body, mask, on_yield)
        c.w.indent -= 1
    else:
        if unsigned:
            raise Unsupported("an unsigned scf.for with bounds that differ between work-items")
        dt = c.dtype(iv, op)
        c.w(f"{c.v(iv)} = _bc({lb}, {dt}, _L)")
        mk = c.fresh("m")
        c.w("while True:")
        c.w.indent += 1
        c.w(f"{mk} = _and({mask}, {c.v(iv)} < {ub})")
        c.w(f"if not {mk}.any(): break")
        c.w(f"_stepchk({mk}, {step})")
        saved = [c.fresh("o") for _ in carried]
        for s, v in zip(saved, carried):
            c.w(f"{s} = {c.v(v)}")
        c.block(body, mk, on_yield)
        for s, v in zip(saved, carried):
            c.w(f"{c.v(v)} = _np.where({mk}, {c.v(v)}, {s})")
        c.w(f"{c.v(iv)} = _np.where({mk}, {c.v(iv)} + {step}, {c.v(iv)})")
        c.w.indent -= 1
    for res, v in zip(op.results, carried):
        c.w(f"{c.v(res)} = {c.v(v)}")


def _h_if(c: LockstepCompiler, op: Operation, mask: str) -> None:
    results = list(op.results)
    regions = [r for r in (op.true_region, op.false_region)]
    if not c.is_var(op.cond):
        c.w(f"if {c.v(op.cond)}:")
        c.w.indent += 1
        c.block(op.true_region.block, mask, _yield_to(c, results, op))
        c.w.indent -= 1
        if op.false_region.blocks:
            c.w("else:")
            c.w.indent += 1
            c.block(op.false_region.block, mask, _yield_to(c, results, op))
            c.w.indent -= 1
        return
    cond = c.v(op.cond)
    sides = []
    for k, region in enumerate(regions):
        if not region.blocks:
            continue
        m = c.fresh("m")
        c.w(f"{m} = {'_and' if k == 0 else '_andnot'}({mask}, {cond})")
        temps = [c.fresh("r") for _ in results]
        for t in temps:
            c.w(f"{t} = None")
        c.w(f"if {m}.any():")
        c.w.indent += 1

        def on_yield(term: Operation, temps=temps) -> None:
            for t, o in zip(temps, term.operands):
                c.w(f"{t} = {c.v(o)}")

        c.block(region.block, m, on_yield)
        c.w.indent -= 1
        sides.append(temps)
    for k, res in enumerate(results):
        a = sides[0][k]
        b = sides[1][k] if len(sides) > 1 else "None"
        c.w(f"{c.v(res)} = _merge({cond}, {a}, {b}, {c.dtype(res, op)}, _L)")


def _yield_to(c: LockstepCompiler, targets: list[SSAValue], op: Operation):
    def on_exit(term: Operation) -> None:
        _carry(c, targets, list(term.operands), op)

    return on_exit


def _h_while(c: LockstepCompiler, op: Operation, mask: str) -> None:
    before = op.before_region.block
    after = op.after_region.block
    cond_op = before.last_op
    bargs = list(before.args)
    aargs = list(after.args)
    results = list(op.results)
    _carry(c, bargs, list(op.arguments), op)
    if not c.is_var(cond_op.condition):
        c.w("while True:")
        c.w.indent += 1

        def on_cond(term: Operation) -> None:
            c.w(f"if not {c.v(term.condition)}:")
            c.w.indent += 1
            _carry(c, results, list(term.args), op)
            c.w("break")
            c.w.indent -= 1
            _carry(c, aargs, list(term.args), op)

        c.block(before, mask, on_cond)
        c.block(after, mask, _yield_to(c, bargs, op))
        c.w.indent -= 1
        return
    for r in results:
        c.w(f"{c.v(r)} = _np.zeros(_L, {c.dtype(r, op)})")
    mw = c.fresh("m")
    c.w(f"{mw} = _all({mask}, _L)")
    c.w("while True:")
    c.w.indent += 1
    mc = c.fresh("m")

    def on_cond(term: Operation) -> None:
        cond = c.v(term.condition)
        mx = c.fresh("m")
        c.w(f"{mx} = _andnot({mw}, {cond})")
        for r, a in zip(results, term.args):
            c.w(f"{c.v(r)} = _np.where({mx}, {c.v(a)}, {c.v(r)})")
        c.w(f"{mc} = _and({mw}, {cond})")
        c.w(f"if not {mc}.any(): break")
        _carry(c, aargs, list(term.args), op)

    c.block(before, mw, on_cond)
    c.block(after, mc, _yield_to(c, bargs, op))
    c.w(f"{mw} = {mc}")
    c.w.indent -= 1


def _h_switch(c: LockstepCompiler, op: Operation, mask: str) -> None:
    if c.is_var(op.arg):
        raise Unsupported("an scf.index_switch on a value that differs between work-items")
    results = list(op.results)
    cases = list(op.cases.get_values())
    regions = list(op.case_regions)
    for k, (value, region) in enumerate(zip(cases, regions)):
        c.w(f"{'if' if k == 0 else 'elif'} {c.v(op.arg)} == {value}:")
        c.w.indent += 1
        c.block(region.block, mask, _yield_to(c, results, op))
        c.w.indent -= 1
    c.w("else:" if cases else "if True:")
    c.w.indent += 1
    c.block(op.default_region.block, mask, _yield_to(c, results, op))
    c.w.indent -= 1


def _h_execute(c: LockstepCompiler, op: Operation, mask: str) -> None:
    if len(op.region.blocks) != 1:
        raise Unsupported("an scf.execute_region of several blocks")
    c.w("if True:")
    c.w.indent += 1
    c.block(op.region.block, mask, _yield_to(c, list(op.results), op))
    c.w.indent -= 1


HANDLERS: dict[str, Callable[[LockstepCompiler, Operation, str], None]] = {
    "scf.for": _h_for,
    "scf.if": _h_if,
    "scf.while": _h_while,
    "scf.index_switch": _h_switch,
    "scf.execute_region": _h_execute,
}
