"""The work-item engine's handlers of the gpu ops and func.call in kernels
(`kernel` registers them): ids and subgroup queries, barriers, printf,
all_reduce and subgroup reductions, shuffles, rotations, broadcasts, and
calls of device functions (`yield from` those that yield).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation

from xgpu.backend.sim.kernel_runtime import CTX
from xgpu.runtime.compile_host import HostCompileError
from xgpu.runtime.memref import RuntimeFailure
from xgpu.semantics import gpu as gsem
from xgpu.semantics.printf import Printf, PrintfError, compile_printf

if TYPE_CHECKING:
    from xgpu.backend.sim.kernel import KernelCompiler


def _h_id(c: KernelCompiler, op: Operation) -> None:
    dim = op.dimension.data.value
    expr = {
        "gpu.thread_id": f"_t{dim}",
        "gpu.block_id": f"_b{dim}",
        "gpu.block_dim": f"_n{dim}",
        "gpu.grid_dim": f"_g{dim}",
        "gpu.global_id": f"_b{dim} * _n{dim} + _t{dim}",
    }[op.name]
    c.w(f"{c.v(op.result)} = {expr}", op)


def _h_subgroup_query(c: KernelCompiler, op: Operation) -> None:
    attr = {
        "gpu.lane_id": "lane",
        "gpu.subgroup_id": "sg",
        "gpu.num_subgroups": "nsg",
        "gpu.subgroup_size": "sgn",
    }[op.name]
    c.w(f"{c.v(op.result)} = _w.{attr}", op)


def _h_barrier(c: KernelCompiler, op: Operation) -> None:
    req = c.bind(("block", c.op_id(op), None, None), "bar")
    c.w(f"yield {req}", op)


def write_output(out: Any, data: bytes) -> None:
    """Write the bytes `data` to the text stream `out` (to its binary buffer
    when it has one, after what was written before; else decoded, invalid
    UTF-8 kept as surrogate escapes)."""
    buffer = getattr(out, "buffer", None)
    if buffer is not None:
        out.flush()
        buffer.write(data)
        buffer.flush()
    else:
        out.write(data.decode("utf-8", "surrogateescape"))


def _printer(pf: Printf) -> Callable[[tuple, Any], None]:
    fmt = pf.format

    def run(values: tuple, out: Any) -> None:
        write_output(out, fmt(values))

    return run


def _h_printf(c: KernelCompiler, op: Operation) -> None:
    try:
        pf = compile_printf(op.format_text, [v.type for v in op.args])
    except PrintfError as err:
        raise HostCompileError(op, f"'gpu.printf' op {err}") from None
    fn = c.bind(_printer(pf), "pf")
    values = "(" + "".join(a + ", " for a in c.vs(op.args)) + ")"
    c.w(f"{fn}({values}, _w.out)", op)


def _combine_fn(c: KernelCompiler, op: Operation, kind: str | None) -> str:
    """A name bound to the binary combining function of a reduction."""
    if kind is not None:
        return c.bind(gsem.combiner(kind, op.operands[0].type).py, "cmb")
    # The region form: a nested function.
    region = op.body
    block = region.blocks.first
    name = c.fresh("comb")
    lhs, rhs = c.vs(block.args)
    c.w(f"def {name}({lhs}, {rhs}):", op)
    c.w.indent += 1

    def on_exit(term: Operation) -> None:
        if term.name != "gpu.yield":
            raise HostCompileError(term, "gpu.all_reduce's region must end with gpu.yield")
        c.w(f"return {c.v(term.operands[0])}", term)

    saved = c.handlers
    c.region(region, on_exit)
    c.handlers = saved
    c.w.indent -= 1
    return name


def _all_reduce_combine(
    combine: Callable[[Any, Any], Any], order: str = "fold"
) -> Callable[[list], list]:
    reduce = gsem.REDUCTIONS[order]

    def run(values: list) -> list:
        result = reduce(values, combine)
        return [result] * len(values)

    return run


def _h_all_reduce(c: KernelCompiler, op: Operation) -> None:
    kind = op.op.data.value if op.op is not None else None
    comb = _combine_fn(c, op, kind)
    make = c.bind(_all_reduce_combine, "mk")
    oid = c.op_id(op)
    order = c.options.reduction
    c.w(
        f"{c.v(op.result)} = yield ('block', {oid}, {make}({comb}, {order!r}), {c.v(op.value)})", op
    )


def _reduce_kind(op: Operation) -> str:
    return op.op.data.value


def _subgroup_reduce_fn(combine, size: int | None, stride: int, order: str = "fold"):
    reduce = gsem.REDUCTIONS[order]

    def run(values: list) -> list:
        if size is None:
            r = reduce(values, combine)
            return [r] * len(values)
        return gsem.cluster_reduce(values, combine, size, stride, order)

    return run


def _h_subgroup_reduce(c: KernelCompiler, op: Operation) -> None:
    kind = _reduce_kind(op)
    comb = gsem.combiner(kind, op.value.type).py
    size = op.cluster_size.value.data if op.cluster_size is not None else None
    stride = op.cluster_stride.value.data if op.cluster_stride is not None else 1
    fn = c.bind(_subgroup_reduce_fn(comb, size, stride, c.options.reduction), "sgr")
    oid = c.op_id(op)
    c.w(f"{c.v(op.result)} = yield ('subgroup', {oid}, {fn}, {c.v(op.value)})", op)


def _shuffle_fn(mode: str):
    def run(payloads: list) -> list:
        values = [p[0] for p in payloads]
        offsets = [p[1] for p in payloads]
        width = payloads[0][2]
        return gsem.shuffle(values, offsets, width, mode)

    return run


def _h_shuffle(c: KernelCompiler, op: Operation) -> None:
    mode = op.mode.data.value
    fn = c.bind(_shuffle_fn(mode), "shf")
    oid = c.op_id(op)
    payload = f"({c.v(op.value)}, {c.v(op.offset)}, {c.v(op.width)})"
    c.w(
        f"{c.v(op.shuffle_result)}, {c.v(op.valid)} = yield ('subgroup', {oid}, {fn}, {payload})",
        op,
    )


def _rotate_fn(offset: int, width: int):
    def run(values: list) -> list:
        return gsem.rotate(values, offset, width)

    return run


def _h_rotate(c: KernelCompiler, op: Operation) -> None:
    fn = c.bind(_rotate_fn(op.offset.value.data, op.width.value.data), "rot")
    oid = c.op_id(op)
    c.w(
        f"{c.v(op.rotate_result)}, {c.v(op.valid)} = yield ('subgroup', {oid}, {fn}, "
        f"{c.v(op.value)})",
        op,
    )


def _broadcast_fn(payloads: list) -> list:
    values = [p[0] for p in payloads]
    lane = payloads[0][1]
    if not 0 <= lane < len(values):
        raise RuntimeFailure(
            f"gpu.subgroup_broadcast from lane {lane} of a subgroup of {len(values)} lanes"
        )
    return gsem.broadcast(values, lane)


def _h_broadcast(c: KernelCompiler, op: Operation) -> None:
    lane = c.v(op.lane) if op.lane is not None else "0"
    oid = c.op_id(op)
    fn = c.bind(_broadcast_fn, "bc")
    c.w(
        f"{c.v(op.result)} = yield ('subgroup', {oid}, {fn}, ({c.v(op.src)}, {lane}))",
        op,
    )


def _h_call(c: KernelCompiler, op: Operation) -> None:
    callee = op.callee.root_reference.data
    target = c.func_names.get(callee)
    if target is None or op.callee.nested_references.data:
        raise HostCompileError(op, f"calls @{callee}, which is not a function of this gpu.module")
    fop = c.funcs[callee]
    if fop.name == "gpu.func" and isinstance(fop.attributes.get("gpu.kernel"), UnitAttr):
        raise HostCompileError(op, f"calls the kernel @{callee}")
    args = ", ".join([CTX, *c.vs(op.arguments)])
    call = f"{target}({args})"
    if callee in c.generators:
        call = f"(yield from {call})"
    results = c.vs(op.results)
    c.call_into(results, call, op)
