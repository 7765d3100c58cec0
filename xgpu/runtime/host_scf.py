"""Host code: the scf ops (see `compile_host` for the compiler): `scf.for`
is a Python `for` over `range` (one whose body is only a `gpu.launch_func`
chained on the loop's token, with loop-invariant operands, is one call of
the launcher's `repeat`: `host_gpu.repeated_launch`), `scf.if` an `if`, `scf.while` a `while
True` loop, `scf.index_switch` an `if`/`elif` chain (`flat.switch`),
`scf.execute_region` its region inline, `scf.parallel` nested loops (one
loop over `itertools.product` past `_PARALLEL_NEST` dimensions). Loops call
the compiler's `loop_top` at the start of each iteration.
"""

from __future__ import annotations

import itertools

from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation

from xgpu.runtime import flat, host_gpu
from xgpu.runtime.compile_host import HostCompileError, HostCompiler


def _h_scf_for(c: HostCompiler, op: Operation) -> None:
    if host_gpu.repeated_launch(c, op):  # a loop of one chained launch: `repeat`
        return
    body = op.body.block
    iv = c.v(body.args[0])
    carried = c.vs(body.args[1:])
    c.assign(carried, c.vs(op.iter_args), op)
    lb, ub, step = c.v(op.lb), c.v(op.ub), c.v(op.step)
    unsigned = "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes
    if unsigned:
        # The bounds and step read as unsigned numbers of the bounds' width;
        # the induction variable keeps its signed value in the body.
        lb_type = op.lb.type
        bits = lb_type.width.data if isinstance(lb_type, IntegerType) else 64
        mask = (1 << bits) - 1
        lb, ub, step = f"({lb} & {mask})", f"({ub} & {mask})", f"({step} & {mask})"
    c.w(f"for {iv} in range({lb}, {ub}, {step}):", op)
    c.w.indent += 1
    if unsigned:
        c.w(f"{iv} = {iv} - {1 << bits} if {iv} >= {1 << (bits - 1)} else {iv}", op)
    c.loop_top(op)
    c.region(op.body, c.yield_to(carried))
    c.w.indent -= 1
    c.assign(c.vs(op.results), carried)


def _h_scf_if(c: HostCompiler, op: Operation) -> None:
    results = c.vs(op.results)
    c.w(f"if {c.v(op.cond)}:", op)
    c.w.indent += 1
    c.region(op.true_region, c.yield_to(results))
    c.w.indent -= 1
    if op.false_region.blocks:
        c.w("else:")
        c.w.indent += 1
        c.region(op.false_region, c.yield_to(results))
        c.w.indent -= 1


def _h_scf_while(c: HostCompiler, op: Operation) -> None:
    before = op.before_region.block
    after = op.after_region.block
    bargs = c.vs(before.args)
    aargs = c.vs(after.args)
    results = c.vs(op.results)
    c.assign(bargs, c.vs(op.arguments), op)
    c.w("while True:", op)
    c.w.indent += 1
    c.loop_top(op)

    def on_condition(term: Operation) -> None:
        if term.name != "scf.condition":
            raise HostCompileError(term, "scf.while's first region must end with scf.condition")
        values = c.vs(term.args)
        c.w(f"if not {c.v(term.condition)}:", term)
        c.w.indent += 1
        c.assign(results, values)
        c.w("break")
        c.w.indent -= 1
        c.assign(aargs, values)

    c.region(op.before_region, on_condition)
    c.region(op.after_region, c.yield_to(bargs))
    c.w.indent -= 1


def _h_scf_index_switch(c: HostCompiler, op: Operation) -> None:
    results = c.vs(op.results)
    arg = c.v(op.arg)
    cases = [int(value) for value in op.cases.get_values()]
    regions = list(op.case_regions)
    flat.switch(
        c,
        arg,
        cases,
        lambda i: c.region(regions[i], c.yield_to(results)),
        op,
        lambda: c.region(op.default_region, c.yield_to(results)),
    )


def _h_scf_execute_region(c: HostCompiler, op: Operation) -> None:
    results = c.vs(op.results)
    if len(op.region.blocks) == 1:
        c.region(op.region, c.yield_to(results))
    else:
        # The block-number loop: a yield leaves it.
        c.region(op.region, c.yield_to(results, extra="break"))


def _h_scf_parallel(c: HostCompiler, op: Operation) -> None:
    body = op.body.block
    ivs = c.vs(body.args)
    lbs, ubs, steps = c.vs(op.lowerBound), c.vs(op.upperBound), c.vs(op.step)
    accs = c.vs(op.results)
    c.assign(accs, c.vs(op.initVals), op)
    if len(ivs) > _PARALLEL_NEST:
        # One loop over the product of the ranges (the same order as nested loops).
        ranges = ", ".join(f"range({lb}, {ub}, {step})" for lb, ub, step in zip(lbs, ubs, steps))
        c.w(f"for {', '.join(ivs)}, in {c.bind(itertools.product, 'prod')}({ranges}):", op)
        c.w.indent += 1
        nest = 1
    else:
        for iv, lb, ub, step in zip(ivs, lbs, ubs, steps):
            c.w(f"for {iv} in range({lb}, {ub}, {step}):", op)
            c.w.indent += 1
        nest = len(ivs)
    if not ivs:
        c.w("if True:")
        c.w.indent += 1

    def on_reduce(term: Operation) -> None:
        if term.name != "scf.reduce":
            raise HostCompileError(term, "scf.parallel's body must end with scf.reduce")
        for acc, value, region in zip(accs, term.operands, term.reductions):
            block = region.block
            lhs, rhs = c.vs(block.args)
            c.assign([lhs, rhs], [acc, c.v(value)], term)

            def on_return(ret: Operation, acc: str = acc) -> None:
                c.assign([acc], c.vs(ret.operands), ret)

            for inner in block.ops:
                if inner is block.last_op:
                    on_return(inner)
                else:
                    c.op(inner)

    c.region(op.body, on_reduce)
    c.w.indent -= max(nest, 1)


#: the most dimensions of an scf.parallel written as nested loops
_PARALLEL_NEST = 4


HANDLERS = {
    "scf.for": _h_scf_for,
    "scf.if": _h_scf_if,
    "scf.while": _h_scf_while,
    "scf.index_switch": _h_scf_index_switch,
    "scf.execute_region": _h_scf_execute_region,
    "scf.parallel": _h_scf_parallel,
}
