"""gpu.func -> Python that runs a batch of work-items in lockstep.

One generated function per kernel (and per mode: one block at a time, or
many blocks of a kernel without barriers as one batch):

    def ls_NAME(_S, _L, _tx, _ty, _tz, _bx, _by, _bz, _nx, _ny, _nz,
                _gx, _gy, _gz, *arguments, *workgroup_buffers)

`_S`: the batch (`memory.Batch`), `_L` its number of lanes, `_tx`.. the
lanes' thread ids (int64 arrays), `_bx`.. the block ids (ints, or arrays
when blocks are batched). Each IR op becomes one statement over every lane:

- *uniform* values (computed only from constants, sizes, block ids of a
  single block, and uniform control flow) are Python values computed with
  the same `xgpu.semantics` functions as the work-item engine;
- *varying* values (thread ids, loads, anything computed from them) are
  numpy arrays of `_L` lanes computed by `vector.vector_op`.

`classify` decides which values vary before code is generated. Control flow
with a varying condition runs under a *mask* (a boolean array of the lanes
that execute it; None: every lane of the batch): `scf.if` runs each side
that has a lane under its mask and merges results with `np.where`; an
`scf.for` with varying bounds and a varying `scf.while` loop while a lane is
still in the loop, masking out the lanes that left. Uniform conditions are
plain Python `if`/`for`/`while`.

Ops the engine does not handle raise `Unsupported` here, and the kernel runs
on the work-item engine (see the package docstring for the list).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue

from xgpu.backend.sim.lockstep import collective, memory
from xgpu.backend.sim.lockstep.vector import NeedsReplay, lane_dtype, vector_op
from xgpu.runtime.compile_host import _py_literal
from xgpu.semantics import SemanticsError, scalar


class Unsupported(Exception):
    """The kernel needs the work-item engine (why: the message)."""


_VARYING_IDS = {"gpu.thread_id", "gpu.lane_id", "gpu.subgroup_id", "gpu.subgroup_size"}
#: ops whose code is the work-item engine's, on uniform operands
_VIEW_OPS = {
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.cast",
    "memref.memory_space_cast",
    "memref.assume_alignment",
    "memref.dim",
    "memref.get_global",
    "memref.extract_strided_metadata",
}
MAX_DEPTH = 14


def classify(func_op: Operation, batched: bool) -> set[SSAValue]:
    """The values of `func_op` that may differ between the lanes of a batch."""
    var: set[SSAValue] = set()
    changed = True

    def mark(v: SSAValue) -> None:
        nonlocal changed
        if v not in var:
            var.add(v)
            changed = True

    # The ops listed once, nested ops before their parent: a value flows out of
    # a region (a yield to the parent's results) within one sweep, and a walk
    # per sweep made deep kernels cubic. The marks only grow: any order
    # reaches the same set.
    ops = list(func_op.walk(region_first=True))
    while changed:
        changed = False
        for op in ops:
            name = op.name
            if name in _VARYING_IDS or name in ("gpu.global_id", "memref.load"):
                for r in op.results:
                    mark(r)
            elif name == "gpu.block_id" and batched:
                mark(op.results[0])
            elif name == "scf.for":
                body = op.body.block
                bounds = any(x in var for x in (op.lb, op.ub, op.step))
                if bounds:
                    mark(body.args[0])
                yld = body.last_op
                for k, (init, arg, res) in enumerate(zip(op.iter_args, body.args[1:], op.results)):
                    if bounds or init in var or yld.operands[k] in var or arg in var:
                        mark(arg)
                        mark(res)
            elif name in ("scf.if", "scf.index_switch"):
                cond = op.cond if name == "scf.if" else op.arg
                for k, res in enumerate(op.results):
                    if cond in var or any(
                        r.blocks and r.block.last_op.operands[k] in var for r in op.regions
                    ):
                        mark(res)
            elif name == "scf.execute_region":
                for r in op.regions:
                    for b in r.blocks:
                        if b.last_op is not None and b.last_op.name == "scf.yield":
                            for k, o in enumerate(b.last_op.operands):
                                if o in var:
                                    mark(op.results[k])
            elif name == "scf.while":
                before, after = op.before_region.block, op.after_region.block
                cond_op = before.last_op
                cvar = cond_op.condition in var
                yld = after.last_op
                for k, (init, arg) in enumerate(zip(op.arguments, before.args)):
                    if cvar or init in var or yld.operands[k] in var:
                        mark(arg)
                for k, carg in enumerate(cond_op.args):
                    if cvar or carg in var:
                        mark(after.args[k])
                        mark(op.results[k])
            elif name in ("gpu.all_reduce", "gpu.subgroup_reduce"):
                # Varying results (`collective`); the region's operands are
                # vectors of partial results.
                mark(op.results[0])
                for r in op.regions:
                    for b in r.blocks:
                        for a in b.args:
                            mark(a)
            elif op.regions:
                continue
            elif any(o in var for o in op.operands):
                for r in op.results:
                    mark(r)
    return var


class Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = 1

    def __call__(self, text: str) -> None:
        self.lines.append("    " * self.indent + text)


class LockstepCompiler:
    """Generates the lockstep function of one kernel (see the module doc)."""

    def __init__(self, program: Any, func_op: Operation, batched: bool, options: Any, hooks: Any):
        self.program = program
        self.func_op = func_op
        self.batched = batched
        self.options = options
        self.hooks = hooks
        self.names: dict[SSAValue, str] = {}
        self.ns: dict[str, Any] = {"_np": np, "_Replay": NeedsReplay}
        self.ns.update(memory.HELPERS)
        self.ns.update(collective.HELPERS)
        self.w = Writer()
        self.n = 0
        self.varying: set[SSAValue] = set()
        self.ops: list[Operation] = []
        self.globals: dict[str, Operation] = {}
        self.global_memrefs: list[Any] = []

    # -- names ------------------------------------------------------------- #

    def v(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            name = self.names[value] = f"v{len(self.names)}"
        return name

    def bind(self, obj: Any, hint: str = "k") -> str:
        self.n += 1
        name = f"_{hint}{self.n}"
        self.ns[name] = obj
        return name

    def fresh(self, hint: str) -> str:
        self.n += 1
        return f"_{hint}{self.n}"

    def is_var(self, value: SSAValue) -> bool:
        return value in self.varying

    def dtype(self, value: SSAValue, op: Operation) -> str:
        t = value.type
        if isinstance(t, MemRefType):
            raise Unsupported(f"'{op.name}': a memref that differs between work-items")
        try:
            return self.bind(lane_dtype(scalar(t)), "dt")
        except SemanticsError:
            raise Unsupported(f"'{op.name}': values of type {t}") from None

    def assign(self, target: SSAValue, expr: str, source: SSAValue | None, op: Operation) -> None:
        """`target = expr`; a uniform value assigned to a varying one becomes
        an array of every lane."""
        if self.is_var(target) and (source is None or not self.is_var(source)):
            expr = f"_bc({expr}, {self.dtype(target, op)}, _L)"
        self.w(f"{self.v(target)} = {expr}")

    # -- entry ------------------------------------------------------------- #

    def compile(self) -> Callable[..., Any]:
        op = self.func_op
        if op.name != "gpu.func" or not op.body.blocks:
            raise Unsupported("not a gpu.func with a body")
        if len(op.body.blocks) != 1:
            raise Unsupported("a kernel of several blocks (cf branches)")
        for inner in op.walk():
            if inner.name == "scf.while" and any(x.name == "memref.load" for x in inner.walk()):
                raise Unsupported("an scf.while that reads memory (a spin loop?)")
        for g in self.program.func_ops.values():
            parent = g.parent_op()
            break
        else:  # pragma: no cover
            parent = None
        if parent is not None:
            for g in parent.body.block.ops:
                if g.name == "memref.global":
                    self.globals[g.sym_name.data] = g
        self.varying = classify(op, self.batched)
        entry = op.body.blocks[0]
        n_inputs = len(op.function_type.inputs.data)
        n_wg = op.num_workgroup_attributions
        args = list(entry.args)
        if len(args) > n_inputs + n_wg:
            raise Unsupported("private memory attributions")
        params = [
            "_S, _L, _tx, _ty, _tz, _bx, _by, _bz, _nx, _ny, _nz, _gx, _gy, _gz",
            *(self.v(a) for a in args),
        ]
        self.w.indent = 0
        self.w(f"def ls_kernel({', '.join(params)}):")
        self.w.indent = 1
        self.block(entry, "None", self.on_return)
        source = "\n".join(self.w.lines) + "\n"
        exec(compile(source, "<xgpu-lockstep>", "exec"), self.ns)
        self.source = source
        return self.ns["ls_kernel"]

    def on_return(self, term: Operation) -> None:
        if term.name != "gpu.return" or term.operands:
            raise Unsupported(f"'{term.name}' ends the kernel")
        self.w("return")

    # -- blocks and ops ---------------------------------------------------- #

    def block(self, block: Block, mask: str, on_exit: Callable[[Operation], None]) -> None:
        if self.w.indent > MAX_DEPTH:
            raise Unsupported("control flow nested too deeply")
        wrote = len(self.w.lines)
        for op in block.ops:
            if op is block.last_op and op.name in (
                "gpu.return",
                "scf.yield",
                "scf.condition",
                "func.return",
                "gpu.yield",
            ):
                on_exit(op)
            else:
                self.op(op, mask)
        if len(self.w.lines) == wrote:
            self.w("pass")

    def op(self, op: Operation, mask: str) -> None:
        handler = _handlers().get(op.name)
        if handler is not None:
            handler(self, op, mask)
            return
        if op.name in _VIEW_OPS:
            self.view_op(op)
            return
        sem = _semantics(op) if op.name != "arith.constant" else None
        if op.name == "arith.constant":
            self.constant(op)
            return
        if sem is None:
            raise Unsupported(f"'{op.name}'")
        self.semantic(op, sem, mask)

    def constant(self, op: Operation) -> None:
        from xdsl.dialects.builtin import FloatAttr, IntegerAttr

        attr = _prop(op, "value")
        if not isinstance(attr, IntegerAttr | FloatAttr):
            raise Unsupported("a constant that is not a scalar")
        try:
            value = scalar(op.results[0].type).norm(attr.value.data)
        except SemanticsError:
            raise Unsupported("a constant of an unsupported type") from None
        lit = _py_literal(value)
        self.w(f"{self.v(op.results[0])} = {lit if lit is not None else self.bind(value, 'c')}")

    def semantic(self, op: Operation, sem: Any, mask: str) -> None:
        results = [self.v(r) for r in op.results]
        args = [self.v(o) for o in op.operands]
        if not any(self.is_var(o) for o in op.operands):
            # The work-item engine's computation.
            if not args:
                value = sem.py()
                lit = _py_literal(value)
                self.w(f"{results[0]} = {lit if lit is not None else self.bind(value, 'c')}")
            elif len(results) == 1:
                fn = self.bind(sem.py_fn, "f")
                norm = self.bind(sem.result_types[0].normalizer, "n")
                self.w(f"{results[0]} = {norm}({fn}({', '.join(args)}))")
            else:
                self.w(f"{', '.join(results)}, = {self.bind(sem.py, 'f')}({', '.join(args)})")
            return
        params = {}
        if op.name in ("arith.cmpi", "arith.cmpf", "index.cmp"):
            params["predicate"] = _predicate(op)
        fn = self.bind(vector_op(sem, params), "vf")
        call = f"{fn}({mask}, _L, {', '.join(args)})"
        if len(results) == 1:
            self.w(f"{results[0]} = {call}")
        else:
            self.w(f"{', '.join(results)}, = {call}")

    def view_op(self, op: Operation) -> None:
        """Memref descriptor ops: the work-item engine's code, on uniform values."""
        if any(self.is_var(o) for o in op.operands):
            raise Unsupported(f"'{op.name}' of values that differ between work-items")
        from xgpu.backend.sim import kernel as wk

        shim = _Shim(self)
        handler = wk.KERNEL_HANDLERS[op.name]
        handler(shim, op)


def _prop(op: Operation, name: str) -> Any:
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def _semantics(op: Operation) -> Any:
    from xgpu import semantics

    if op.name not in semantics.supported_ops():
        return None
    try:
        return semantics.lookup(op)
    except semantics.SemanticsError:
        raise Unsupported(f"'{op.name}' at these types") from None


def _predicate(op: Operation) -> str:
    from xgpu.semantics.arith import CMPF_PREDICATES, CMPI_PREDICATES

    prop = _prop(op, "predicate")
    if op.name == "index.cmp":
        pred = _prop(op, "pred")
        return str(getattr(getattr(pred, "data", None), "value", pred))
    value = prop.value.data
    table = CMPI_PREDICATES if op.name == "arith.cmpi" else CMPF_PREDICATES
    return table[value]


class _Shim:
    """What the work-item engine's memref handlers use of their compiler."""

    def __init__(self, c: LockstepCompiler):
        self.c = c
        self.ns = c.ns
        self.globals = c.globals
        self.device_globals = c.program.device_globals
        self.w = lambda text, op=None: c.w(text)

    def v(self, value: SSAValue) -> str:
        return self.c.v(value)

    def vs(self, values: Any) -> list[str]:
        return [self.c.v(x) for x in values]

    def bind(self, obj: Any, hint: str = "k") -> str:
        return self.c.bind(obj, hint)

    def fresh(self, hint: str) -> str:
        return self.c.fresh(hint)


# --------------------------------------------------------------------------- #
# Handlers: (compiler, op, mask expression)


def _h_id(c: LockstepCompiler, op: Operation, mask: str) -> None:
    dim = op.dimension.data.value
    expr = {
        "gpu.thread_id": f"_t{dim}",
        "gpu.block_id": f"_b{dim}",
        "gpu.block_dim": f"_n{dim}",
        "gpu.grid_dim": f"_g{dim}",
        "gpu.global_id": f"_b{dim} * _n{dim} + _t{dim}",
    }[op.name]
    c.w(f"{c.v(op.result)} = {expr}")


def _h_subgroup_query(c: LockstepCompiler, op: Operation, mask: str) -> None:
    attr = {
        "gpu.lane_id": "lane",
        "gpu.subgroup_id": "sg",
        "gpu.num_subgroups": "nsg",
        "gpu.subgroup_size": "sgn",
    }[op.name]
    c.w(f"{c.v(op.result)} = _S.{attr}")


def _h_barrier(c: LockstepCompiler, op: Operation, mask: str) -> None:
    c.w(f"_bar(_S, {mask})")


def _h_load(c: LockstepCompiler, op: Operation, mask: str) -> None:
    if c.is_var(op.memref):
        raise Unsupported("a memref that differs between work-items")
    oid = c.bind(op, "op")
    idx = "".join(f", {c.v(i)}" for i in op.indices)
    c.w(f"{c.v(op.res)} = _ld(_S, {mask}, {oid}, {c.v(op.memref)}, {c.dtype(op.res, op)}{idx})")


def _h_store(c: LockstepCompiler, op: Operation, mask: str) -> None:
    if c.is_var(op.memref):
        raise Unsupported("a memref that differs between work-items")
    oid = c.bind(op, "op")
    idx = "".join(f", {c.v(i)}" for i in op.indices)
    c.w(f"_st(_S, {mask}, {oid}, {c.v(op.memref)}, {c.v(op.value)}{idx})")


def _h_dsm(c: LockstepCompiler, op: Operation, mask: str) -> None:
    c.w(f"{c.v(op.result_memref)} = _S.dsm")


def _h_assert(c: LockstepCompiler, op: Operation, mask: str) -> None:
    if c.is_var(op.arg):
        c.w(f"_assert({mask}, {c.v(op.arg)})")
    else:
        c.w(f"if not {c.v(op.arg)}: raise _Replay")


def _combiner(c: LockstepCompiler, op: Operation, kind: str | None) -> tuple[str, str, str]:
    """(combine, order, fast) names for a reduction (see `collective`)."""
    from xgpu.semantics import gpu as gsem

    order = c.options.reduction
    if order not in gsem.REDUCTIONS:
        raise Unsupported(f"reduction order {order!r}")
    t = scalar(op.operands[0].type)
    if kind is not None:
        try:
            sem = gsem.combiner(kind, t)
        except SemanticsError:
            raise Unsupported(f"'{op.name}' {kind} on {t}") from None
        comb = c.bind(vector_op(sem, {}), "cmb")
        if not t.is_float:
            order = "tree"  # the same value in any order
        fast = _ACCUMULATE.get(kind) if t.is_float and order == "fold" else None
        return comb, repr(order), c.bind(fast, "acc") if fast is not None else "None"
    # The region form: a function of (mask, lanes, lhs, rhs) over vectors.
    block = op.body.blocks.first
    if block is None or len(op.body.blocks) != 1 or len(block.args) != 2:
        raise Unsupported("an all_reduce region that is not one block of two arguments")
    for inner in block.ops:
        if inner is block.last_op:
            if inner.name != "gpu.yield" or len(inner.operands) != 1:
                raise Unsupported("an all_reduce region that does not yield one value")
        elif inner.regions or not (inner.name == "arith.constant" or _semantics(inner) is not None):
            raise Unsupported(f"'{inner.name}' in an all_reduce region")
    name = c.fresh("comb")
    lhs, rhs = (c.v(a) for a in block.args)
    c.w(f"def {name}(_m, _L, {lhs}, {rhs}):")
    c.w.indent += 1
    dt = c.dtype(op.result, op)

    def on_exit(term: Operation) -> None:
        c.w(f"return _bc({c.v(term.operands[0])}, {dt}, _L)")

    c.block(block, "None", on_exit)
    c.w.indent -= 1
    return name, repr(order), "None"


_ACCUMULATE = {"add": np.add, "mul": np.multiply}


def _h_all_reduce(c: LockstepCompiler, op: Operation, mask: str) -> None:
    kind = op.op.data.value if op.op is not None else None
    comb, order, fast = _combiner(c, op, kind)
    dt = c.dtype(op.result, op)
    c.w(f"{c.v(op.result)} = _allred(_S, {mask}, {comb}, {order}, {fast}, {c.v(op.value)}, {dt})")


def _h_subgroup_reduce(c: LockstepCompiler, op: Operation, mask: str) -> None:
    comb, order, fast = _combiner(c, op, op.op.data.value)
    size = op.cluster_size.value.data if op.cluster_size is not None else None
    stride = op.cluster_stride.value.data if op.cluster_stride is not None else 1
    dt = c.dtype(op.result, op)
    c.w(
        f"{c.v(op.result)} = _sgred(_S, {mask}, {comb}, {order}, {fast}, {c.v(op.value)}, "
        f"{dt}, {size}, {stride})"
    )


_HANDLERS: dict[str, Callable[[LockstepCompiler, Operation, str], None]] = {
    "gpu.thread_id": _h_id,
    "gpu.block_id": _h_id,
    "gpu.block_dim": _h_id,
    "gpu.grid_dim": _h_id,
    "gpu.global_id": _h_id,
    "gpu.lane_id": _h_subgroup_query,
    "gpu.subgroup_id": _h_subgroup_query,
    "gpu.num_subgroups": _h_subgroup_query,
    "gpu.subgroup_size": _h_subgroup_query,
    "gpu.barrier": _h_barrier,
    "gpu.all_reduce": _h_all_reduce,
    "gpu.subgroup_reduce": _h_subgroup_reduce,
    "gpu.dynamic_shared_memory": _h_dsm,
    "memref.load": _h_load,
    "memref.store": _h_store,
    "cf.assert": _h_assert,
}


@functools.cache
def _handlers() -> dict[str, Callable[[LockstepCompiler, Operation, str], None]]:
    """Every op's handler: those above and the scf control flow (`control`)."""
    from xgpu.backend.sim.lockstep import control

    return {**_HANDLERS, **control.HANDLERS}
