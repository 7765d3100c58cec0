"""The OpenCL C of each op a gpu.module's functions may hold (see `emit`).

`FunctionEmitter.emit_op` looks an op up in `HANDLERS` (filled by `handles`),
then in `xgpu.semantics` (arith, math), and fails at the op otherwise. Here:
gpu ops (ids, barriers, printf, dynamic shared memory, the reductions and
subgroup ops of `reductions`), memref ops (loads and stores through the
bounds checks of `guards`, views through `memref`), structured control flow
(scf.for/if/while/execute_region/index_switch; `flat` writes them with
`goto` past a nesting depth) and func.call.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import MemRefType, UnitAttr
from xdsl.ir import Operation

from xgpu.backend.opencl import guards, half
from xgpu.backend.opencl import memref as mr
from xgpu.backend.opencl import mma as mma_ops
from xgpu.backend.opencl import reductions as red
from xgpu.backend.opencl.emit import FunctionEmitter
from xgpu.backend.opencl.names import c_string
from xgpu.backend.opencl.types import LOCAL, memref_info
from xgpu.semantics import CHelper

_DIM_INDEX = {"x": 0, "y": 1, "z": 2}
_ID_BUILTINS = {
    "gpu.thread_id": "get_local_id",
    "gpu.block_id": "get_group_id",
    "gpu.block_dim": "get_local_size",
    "gpu.grid_dim": "get_num_groups",
    "gpu.global_id": "get_global_id",
}

Handler = Callable[[FunctionEmitter, Operation], None]
HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    def deco(fn: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = fn
        return fn

    return deco


@handles(*_ID_BUILTINS)
def _id(fe: FunctionEmitter, op: Operation) -> None:
    d = _DIM_INDEX[op.dimension.data.value]
    fe.define(op.result, f"(long){_ID_BUILTINS[op.name]}({d})", op)


@handles(*red.SUBGROUP_QUERIES)
def _subgroup_query(fe: FunctionEmitter, op: Operation) -> None:
    if fe.subgroups.mode == "khr":
        fe.require_extension("cl_khr_subgroups")
    fe.define(op.result, fe.subgroups.query(op.name, fe.is_kernel), op)


@handles("gpu.barrier")
def _barrier(fe: FunctionEmitter, op: Operation) -> None:
    fe.line("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);", op)


@handles("gpu.printf")
def _printf(fe: FunctionEmitter, op: Operation) -> None:
    # The format is generated from the checked conversions (see
    # xgpu.semantics.printf, imported for kernels that print), never copied
    # from the IR.
    from xgpu.semantics.printf import PrintfError, compile_printf

    for v in op.args:
        fe.scalar_of(v, op)
    try:
        pf = compile_printf(op.format_text, [v.type for v in op.args])
    except PrintfError as err:
        fe.fail(op, str(err))
    for name, source in pf.c_helpers():
        fe.module.helpers.setdefault(name, CHelper(name, source))
    args = pf.c_args([fe.expr(v) for v in op.args])
    fe.line(f"printf({c_string(pf.c_format())}{''.join(', ' + a for a in args)});", op)


@handles("cf.assert")
def _assert(fe: FunctionEmitter, op: Operation) -> None:
    # Each failing work-item prints the line of `xgpu.ir.locations.assertion_line`
    # (its text made here, escaped: `%` doubled, then as a C literal) and the
    # first failure is recorded in the run's error record, which the host
    # reports once the kernel is done (`xgpu.runtime.fault_record`). The
    # work-item then returns, as on the simulator, where it cannot leave
    # others waiting: in a kernel without barriers or collective ops.
    from xgpu.backend.sim.asserts import message_of, origin_of
    from xgpu.ir.locations import assertion_line

    if not fe.checked:
        fe.fail(
            op,
            "in a kernel needs the checked build (its failure is reported through "
            "the run's error record): run it without --unchecked",
        )
    fmt = assertion_line(origin_of(op), ("%lu",) * 3, ("%lu",) * 3, "\0")
    head, tail = fmt.split("\0")
    msg = message_of(op)
    line = head.replace("%lu", "\1").replace("%", "%%").replace("\1", "%lu")
    line += msg.replace("%", "%%") + tail.replace("%", "%%") + "\n"
    stop = fe.is_kernel and not _waits_for_all(fe)
    guards.assertion(fe, op, fe.expr(op.arg), line.encode(), stop)


#: ops a work-item that returns early would leave the others waiting at
_COLLECTIVE = frozenset(
    {
        "gpu.barrier",
        "gpu.all_reduce",
        "gpu.subgroup_reduce",
        "gpu.shuffle",
        "gpu.rotate",
        "gpu.subgroup_broadcast",
    }
)


def _waits_for_all(fe: FunctionEmitter) -> bool:
    """Whether the function, or one it calls, has a collective op."""
    from xgpu.analysis.calls import functions_reaching

    funcs = {sym: f for sym, (_, f) in fe.module.functions.items()}
    return fe.func.sym_name.data in functions_reaching(funcs, _COLLECTIVE)


@handles("gpu.dynamic_shared_memory")
def _dsm(fe: FunctionEmitter, op: Operation) -> None:
    info = fe.memref_info(op.result_memref.type, op)
    assert fe.dsm_name is not None
    size = f"{fe.dsm_name}_len"
    desc = mr.Desc(fe.dsm_name, LOCAL, info.elem, 0, [size], [1], "dsm", extent=size)
    if fe.checked:
        desc.buf = fe.module.guards.buffer(guards.BufferName("dsm", None, "dynamic shared memory"))
    fe.descs[op.result_memref] = desc


def _native_f16(fe: FunctionEmitter, op: Operation) -> None:
    """Reductions and subgroup data movement compute in `half` (`half`)."""
    if half.emulated(fe) and half.touches_f16(op):
        half.refuse(fe, op, f"{op.name} on f16")


@handles("gpu.all_reduce")
def _all_reduce(fe: FunctionEmitter, op: Operation) -> None:
    _native_f16(fe, op)
    red.emit_all_reduce(fe, op)


@handles("gpu.subgroup_reduce")
def _subgroup_reduce(fe: FunctionEmitter, op: Operation) -> None:
    _native_f16(fe, op)
    red.emit_subgroup_reduce(fe, op)


@handles("gpu.shuffle")
def _shuffle(fe: FunctionEmitter, op: Operation) -> None:
    _native_f16(fe, op)
    red.emit_shuffle(fe, op)


@handles("gpu.rotate")
def _rotate(fe: FunctionEmitter, op: Operation) -> None:
    _native_f16(fe, op)
    red.emit_rotate(fe, op)


@handles("gpu.subgroup_broadcast")
def _broadcast(fe: FunctionEmitter, op: Operation) -> None:
    _native_f16(fe, op)
    red.emit_broadcast(fe, op)


# memref ---------------------------------------------------------------------


@handles("memref.load")
def _load(fe: FunctionEmitter, op: Operation) -> None:
    d = fe.desc(op.memref)
    fe.scalar_of(op.res, op)
    idx = [fe.index_operand(i) for i in op.indices]
    if fe.checked:
        guards.load(fe, op, d, idx)
    else:
        fe.define(op.res, guards.read(fe, d, d.element(idx)), op)


@handles("memref.store")
def _store(fe: FunctionEmitter, op: Operation) -> None:
    d = fe.desc(op.memref)
    if d.space == "__constant":
        fe.fail(op, "stores to a constant memref.global")
    idx = [fe.index_operand(i) for i in op.indices]
    if fe.checked:
        guards.store(fe, op, d, idx, fe.expr(op.value))
    else:
        fe.line(guards.write(fe, d, d.element(idx), fe.expr(op.value)), op)


@handles("memref.atomic_rmw")
def _atomic_rmw(fe: FunctionEmitter, op: Operation) -> None:
    from xgpu.backend.opencl import atomics

    if half.emulated(fe) and half.is_half_storage(fe.desc(op.memref).elem):
        half.refuse(fe, op, "an f16 atomic")
    atomics.atomic_rmw(fe, op)


@handles("memref.generic_atomic_rmw")
def _generic_atomic_rmw(fe: FunctionEmitter, op: Operation) -> None:
    from xgpu.backend.opencl import atomics

    if half.emulated(fe) and half.is_half_storage(fe.desc(op.memref).elem):
        half.refuse(fe, op, "an f16 atomic")
    atomics.generic_atomic_rmw(fe, op)


@handles("memref.subview")
def _subview(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.result] = mr.subview(fe, op)


@handles("memref.reinterpret_cast")
def _reinterpret(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.result] = mr.reinterpret_cast(fe, op)


@handles("memref.cast")
def _cast(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.dest] = mr.cast(fe, op)


@handles("memref.view")
def _view(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.result] = mr.view(fe, op)


@handles("memref.alloca")
def _alloca(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.memref] = mr.alloca(fe, op)


@handles("memref.get_global")
def _get_global(fe: FunctionEmitter, op: Operation) -> None:
    fe.descs[op.memref] = mr.get_global(fe, op)


@handles("memref.dim")
def _dim(fe: FunctionEmitter, op: Operation) -> None:
    text = mr.dim(fe, op)
    fe.values[op.result] = text
    if text.lstrip("(-").rstrip(")L").isdigit():
        fe.consts[op.result] = int(text.strip("()L"))


@handles("memref.assume_alignment")
def _assume_alignment(fe: FunctionEmitter, op: Operation) -> None:
    d = fe.desc(op.memref)
    for r in op.results:
        fe.descs[r] = d


@handles("memref.extract_strided_metadata")
def _metadata(fe: FunctionEmitter, op: Operation) -> None:
    d = fe.desc(op.source)
    fe.descs[op.base_buffer] = d.derived(offset=0, sizes=[], strides=[])
    fe.values[op.offset] = mr.ix_text(d.offset)
    for r, s in zip(op.sizes, d.sizes):
        if s is None:
            fe.fail(op, "the size of this memref is not known to the kernel")
        fe.values[r] = mr.ix_text(s)
    for r, s in zip(op.strides, d.strides):
        fe.values[r] = mr.ix_text(s)


# scf -------------------------------------------------------------------------


@handles("scf.for")
def _for(fe: FunctionEmitter, op: Operation) -> None:
    lb, ub, step = fe.expr(op.lb), fe.expr(op.ub), fe.expr(op.step)
    t = fe.scalar_of(op.lb, op)
    body = op.body.block
    results = [fe.declare(r, op, fe.expr(init)) for r, init in zip(op.results, op.iter_args)]
    iv = fe.fresh_name("v", body.args[0].name_hint)
    fe.bind(body.args[0], iv)
    for arg, name in zip(body.args[1:], results):
        fe.bind(arg, name)
    if "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes:
        cond = f"({t.cu}){iv} < ({t.cu}){ub}"
    else:
        cond = f"{iv} < {ub}"

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    fe.nested(
        f"for ({t.c} {iv} = {lb}; {cond}; {iv} += {step}) {{",
        op,
        lambda: fe.emit_block_ops(body, on_yield),
    )


@handles("scf.if")
def _if(fe: FunctionEmitter, op: Operation) -> None:
    cond = fe.expr(op.cond)
    results = [fe.declare(r, op) for r in op.results]

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    then_region, else_region = op.true_region, op.false_region
    has_else = else_region.blocks.first is not None and (
        bool(results) or len(list(else_region.block.ops)) > 1
    )
    saved, fe.hoist = fe.hoist, None
    fe.open(f"if ({cond}) {{", op)
    fe.emit_region(then_region, on_yield)
    if has_else:
        fe.close("} else {", op)
        fe.w.depth += 1
        fe.emit_region(else_region, on_yield)
    fe.close("}", op)
    fe.hoist = saved


@handles("scf.while")
def _while(fe: FunctionEmitter, op: Operation) -> None:
    before = op.before_region.block
    after = op.after_region.block
    carried = [fe.declare(a, op, fe.expr(init)) for a, init in zip(before.args, op.arguments)]
    results = [fe.declare(r, op) for r in op.results]
    for arg, name in zip(before.args, carried):
        fe.bind(arg, name)
    for arg, name in zip(after.args, results):
        fe.bind(arg, name)

    def on_condition(term: Operation) -> None:
        if term.name != "scf.condition":
            fe.fail(term, "expected scf.condition")
        fe.assign(results, list(term.args), term)
        fe.line(f"if (!{fe.expr(term.condition)}) break;", term)

    def on_yield(term: Operation) -> None:
        fe.assign(carried, list(term.operands), term)

    def body() -> None:
        fe.emit_block_ops(before, on_condition)
        fe.emit_block_ops(after, on_yield)

    fe.nested("for (;;) {", op, body)


@handles("scf.execute_region")
def _execute_region(fe: FunctionEmitter, op: Operation) -> None:
    results = [fe.declare(r, op) for r in op.results]
    region = op.region
    if len(region.blocks) == 1:

        def on_yield(term: Operation) -> None:
            fe.assign(results, list(term.operands), term)

        fe.nested("{", op, lambda: fe.emit_region(region, on_yield))
        return
    end = fe.names.fresh("bb")

    def on_yield_goto(term: Operation) -> None:
        if term.name != "scf.yield":
            fe.fail(term, "is not supported by the OpenCL backend here")
        fe.assign(results, list(term.operands), term)
        fe.line(f"goto {end};", term)

    fe.nested("{", op, lambda: fe.emit_region(region, on_yield_goto))
    fe.line(f"{end}: ;", op)


@handles("scf.index_switch")
def _index_switch(fe: FunctionEmitter, op: Operation) -> None:
    arg = fe.expr(op.arg)
    results = [fe.declare(r, op) for r in op.results]

    def on_yield(term: Operation) -> None:
        fe.assign(results, list(term.operands), term)

    cases = list(op.cases.get_values())

    def body() -> None:
        for value, region in zip(cases, op.case_regions):
            fe.nested(f"case {value}: {{", op, lambda r=region: fe.emit_region(r, on_yield))
            fe.line("  break;", op)
        fe.nested("default: {", op, lambda: fe.emit_region(op.default_region, on_yield))

    fe.nested(f"switch ({arg}) {{", op, body)


# func ------------------------------------------------------------------------


@handles("func.call")
def _call(fe: FunctionEmitter, op: Operation) -> None:
    sym = op.callee.root_reference.data
    target = fe.module.functions.get(sym)
    if target is None or op.callee.nested_references.data:
        fe.fail(op, f"calls @{sym}, which is not a function of this gpu.module")
    c_name, callee = target
    if callee.name == "gpu.func" and isinstance(callee.attributes.get("gpu.kernel"), UnitAttr):
        fe.fail(op, f"calls the kernel @{sym}")
    args: list[str] = []
    for v, t in zip(op.arguments, callee.function_type.inputs.data):
        if isinstance(v.type, MemRefType):
            d = fe.desc(v)
            want = memref_info(t, True).space
            if d.space != want:
                fe.fail(
                    op,
                    f"passes {d.space} memory where @{sym} expects {want} (OpenCL C 1.2 "
                    "has no generic address space)",
                )
            args += d.call_args()
            if fe.checked:
                args += guards.memref_call_args(d)
        else:
            args.append(fe.expr(v))
    results = list(op.results)
    outs = [fe.declare(r, op) for r in results[1:]]
    args += [f"&{o}" for o in outs]
    if sym in fe.module.recorded:
        args += guards.record_args()
    call = f"{c_name}({', '.join(args)})"
    if results:
        fe.define(results[0], call, op)
    else:
        fe.line(call + ";", op)


HANDLERS.update(mma_ops.HANDLERS)  # gpu.subgroup_mma_* (`xgpu.backend.opencl.mma`)
