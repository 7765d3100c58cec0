"""Compile the host functions of a module into Python.

Each `func.func` with a body becomes one Python function, generated as source
and `exec`'d once: SSA values are Python locals, `scf.for` is a Python `for`
over `range`, `scf.if` an `if`, `scf.while` a `while True` loop, and a region
with several blocks (`cf.br`, `cf.cond_br`, `cf.switch`) a loop over a block
number. Nothing is interpreted op by op at run time: an iteration of a host
loop that launches a kernel costs one call of the launch site's generated
launcher (see `kernels`).

What the host code may contain:

- arith, math (every op of `xgpu.semantics`; each op calls the Python
  function of its semantics, bound once), `arith.constant` (a literal);
- scf (`for`, `if`, `while`, `index_switch`, `execute_region`, `parallel`
  with `scf.reduce`), cf (`br`, `cond_br`, `switch`, `assert`), `func.call`
  (compiled functions, or MLIR's runner utilities, see `runner_utils`),
  `func.return`;
- memref: `alloc`, `alloca`, `dealloc`, `load`, `store`, `cast`, `subview`,
  `reinterpret_cast`, `copy`, `dim`, `rank`, `get_global` (of a
  `memref.global`), `expand_shape` / `collapse_shape` of contiguous views,
  `memory_space_cast`, `assume_alignment`;
- gpu: `wait`, `alloc` (`host_shared`), `dealloc`, `memcpy`, `memset`,
  `launch_func`, `host_register`, `host_unregister`, `set_default_device`
  (`gpu.launch` is outlined before compiling, see `api`).

An op the compiler does not know is an error reported at the op, before the
program runs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, Region, SSAValue

from xgpu.diagnostics import op_name
from xgpu.mangle import Namer
from xgpu.runtime import flat
from xgpu.runtime.memref import (
    DYNAMIC,
    MemRef,
    RuntimeFailure,
    allocation_label,
    checked_cast,
    checked_view,
    numpy_dtype,
    subview_bounds_message,
)
from xgpu.runtime.runner_utils import RUNNER_FUNCTIONS


class HostCompileError(Exception):
    """The host code cannot be compiled: `message`, at `op`."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


class HostProgram:
    """The compiled host functions of a module."""

    def __init__(
        self,
        functions: dict[str, Callable[..., Any]],
        source: str,
        filename: str,
        line_ops: dict[int, Operation],
        func_ops: dict[str, Operation],
    ):
        self.functions = functions
        self.source = source
        self.filename = filename
        self.line_ops = line_ops
        self.func_ops = func_ops

    def op_at(self, line: int) -> Operation | None:
        """The op whose code is at `line` of the generated source."""
        while line > 0:
            op = self.line_ops.get(line)
            if op is not None:
                return op
            line -= 1
        return None


def _py_literal(value: Any) -> str | None:
    """A Python expression for a constant, or None when it needs a binding."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return repr(value)
        return None
    return None


_counter = 0


class HostCompiler:
    """Generates the Python code of a module's host functions.

    `hooks` provides the runtime objects the code calls (bound as globals of
    the generated module):

    - `semantics(op)`: the `xgpu.semantics.OpSemantics` of an arith/math op, or None;
    - `runner(name)`: a runner utility (printMemrefF32, ...);
    - `gpu()`: the run's `GpuRuntime` (asked for at the first gpu op);
    - `launcher(op)`: the launcher of a `gpu.launch_func`;
    - `global_memref(op)`: the memref of a `memref.global`.
    """

    def __init__(self, module: ModuleOp, hooks: Any):
        self.module = module
        self.hooks = hooks
        self.w = flat.Writer()
        self.ns: dict[str, Any] = {}
        self.names: dict[SSAValue, str] = {}
        self.n_values = 0
        self.n_bound = 0
        self.funcs: dict[str, Operation] = {}
        self.func_names: dict[str, str] = {}
        self.globals: dict[str, Operation] = {}
        self.current_op: Operation | None = None
        #: op name -> handler; subclasses (the simulator's kernel compiler) swap it
        self.handlers = _HANDLERS
        #: terminators that leave a region (handed to its `on_exit`)
        self.exit_terminators = _EXIT_TERMINATORS
        #: generate calls of `hooks.host_access` around host memory accesses
        #: (the race detector)
        self.instrument = bool(getattr(hooks, "instrument", False))
        #: whether host accesses keep registered host memory coherent with its
        #: device copy (`xgpu.runtime.coherence`); decided at the first access
        self.coherent: bool | None = None
        #: names every generated function takes first (kernels: the work-item)
        self.context_params: list[str] = []
        #: outlined ops waiting for their function: (op, name, params, results)
        self.outlined: list[tuple[Operation, str, list[str], list[str]]] = []
        self.free_memo: dict[Operation, list[SSAValue]] = {}

    # -- naming ------------------------------------------------------------ #

    def v(self, value: SSAValue) -> str:
        name = self.names.get(value)
        if name is None:
            name = self.names[value] = f"v{self.n_values}"
            self.n_values += 1
        return name

    def vs(self, values: Any) -> list[str]:
        return [self.v(x) for x in values]

    def value_names(self, value: SSAValue) -> list[str]:
        """The locals that stand for `value` (passed to outlined code)."""
        return [self.v(value)]

    def bind(self, obj: Any, hint: str = "k") -> str:
        name = f"_{hint}{self.n_bound}"
        self.n_bound += 1
        self.ns[name] = obj
        return name

    def fresh(self, hint: str) -> str:
        name = f"_{hint}{self.n_bound}"
        self.n_bound += 1
        return name

    # -- entry ------------------------------------------------------------- #

    def compile(self) -> HostProgram:
        global _counter
        _counter += 1
        filename = f"<xgpu-host-{_counter}>"
        from xdsl.dialects.func import FuncOp
        from xdsl.dialects.memref import GlobalOp

        py_name = Namer("f")
        for op in self.module.body.block.ops:
            if isinstance(op, FuncOp):
                self.funcs[op.sym_name.data] = op
                if op.body.blocks:
                    self.func_names[op.sym_name.data] = py_name(op.sym_name.data)
            elif isinstance(op, GlobalOp):
                self.globals[op.sym_name.data] = op
        self.ns.update(
            _MemRef=MemRef,
            _RuntimeFailure=RuntimeFailure,
            _subview=subview,
            _reinterpret=reinterpret,
            _reshape=reshape,
            _mcopy=memref_copy,
            _halloc=_host_alloc,
            _dim=_dim,
            _oob=_out_of_bounds,
        )
        for name, op in self.funcs.items():
            if op.body.blocks:
                self.function(op)
        flat.emit_outlined(self)
        source = "\n".join(self.w.lines) + "\n"
        code = compile(source, filename, "exec")
        exec(code, self.ns)
        functions = {name: self.ns[py] for name, py in self.func_names.items()}
        return HostProgram(functions, source, filename, self.w.line_ops, self.funcs)

    def function(self, op: Operation) -> None:
        body = op.body
        args = self.vs(body.blocks[0].args)
        self.w(f"def {self.func_names[op.sym_name.data]}({', '.join(args)}):", op)
        self.w.indent += 1
        for arg in body.blocks[0].args:
            if isinstance(arg.type, MemRefType):
                _name_storage(self, None, arg)
        self.region(body, self.t_return)
        self.w.indent -= 1
        self.w("")

    # -- regions ----------------------------------------------------------- #

    def region(self, region: Region, on_exit: Callable[[Operation], None]) -> None:
        """The code of `region`; `on_exit(terminator)` emits the terminators
        that leave it (return, yield, condition)."""
        blocks = list(region.blocks)
        if len(blocks) == 1:
            self.block_ops(blocks[0], on_exit, None)
            return
        state = self.fresh("blk")
        index = {block: i for i, block in enumerate(blocks)}
        # Entry block arguments are bound by the caller (function args, loop ivs).
        self.w(f"{state} = 0")
        self.w("while True:")
        self.w.indent += 1
        flat.switch(
            self,
            state,
            range(len(blocks)),
            lambda i: self.block_ops(blocks[i], on_exit, (state, index)),
            None,
        )
        self.w.indent -= 1

    def block_ops(
        self,
        block: Block,
        on_exit: Callable[[Operation], None],
        machine: tuple[str, dict[Block, int]] | None,
    ) -> None:
        wrote = len(self.w.lines)
        for op in block.ops:
            if op.name in ("cf.br", "cf.cond_br", "cf.switch"):
                if machine is None:
                    raise HostCompileError(op, "branch in a single-block region")
                self.branch(op, machine)
            elif op is block.last_op and op.name in self.exit_terminators:
                on_exit(op)
            else:
                self.op(op)
        if len(self.w.lines) == wrote:
            self.w("pass")

    def jump(self, op: Operation, target: Block, args: Any, machine) -> None:
        state, index = machine
        params = self.vs(target.args)
        values = self.vs(args)
        self.assign(params, values, op)
        self.w(f"{state} = {index[target]}", op)
        self.w("continue")

    def branch(self, op: Operation, machine) -> None:
        name = op.name
        if name == "cf.br":
            self.jump(op, op.successor, op.arguments, machine)
        elif name == "cf.cond_br":
            self.w(f"if {self.v(op.cond)}:", op)
            self.w.indent += 1
            self.jump(op, op.then_block, op.then_arguments, machine)
            self.w.indent -= 1
            self.w("else:")
            self.w.indent += 1
            self.jump(op, op.else_block, op.else_arguments, machine)
            self.w.indent -= 1
        else:  # cf.switch
            flag = self.v(op.flag)
            values = op.case_values.get_values() if op.case_values is not None else ()
            segments = op.case_operand_segments.get_values() if op.case_operand_segments else ()
            operands = list(op.case_operands)
            starts = [0]
            for i in range(len(values)):
                starts.append(starts[-1] + (segments[i] if i < len(segments) else 0))
            blocks = list(op.case_blocks)

            def case(i: int) -> None:
                self.jump(op, blocks[i], operands[starts[i] : starts[i + 1]], machine)

            flat.switch(
                self,
                flag,
                [int(value) for value in values],
                case,
                op,
                lambda: self.jump(op, op.default_block, op.default_operands, machine),
            )

    # -- terminators that leave a region --------------------------------- #

    def t_return(self, op: Operation) -> None:
        if op.name != "func.return":
            raise HostCompileError(op, f"unexpected terminator '{op.name}' in a function")
        values = self.vs(op.operands)
        if not values:
            self.w("return", op)
        elif len(values) == 1:
            self.w(f"return {values[0]}", op)
        else:
            self.w(f"return ({', '.join(values)})", op)

    def assign(self, targets: list[str], values: list[str], op: Operation | None = None) -> None:
        if not targets:
            return
        if len(targets) == 1:
            self.w(f"{targets[0]} = {values[0]}", op)
        else:
            self.w(f"{', '.join(targets)} = {', '.join(values)}", op)

    def yield_to(self, targets: list[str], extra: str | None = None):
        def on_exit(op: Operation) -> None:
            if op.name not in ("scf.yield", "scf.reduce"):
                raise HostCompileError(op, f"unexpected terminator '{op.name}'")
            if op.name == "scf.yield":
                self.assign(targets, self.vs(op.operands), op)
            if extra:
                self.w(extra)

        return on_exit

    # -- ops --------------------------------------------------------------- #

    def op(self, op: Operation) -> None:
        self.current_op = op
        if op.regions and self.w.too_deep():
            flat.outline(self, op)
            return
        self.dispatch(op)

    def yields(self, op: Operation) -> bool:
        """Whether the code of `op` yields (simulated barriers): host code never does."""
        return False

    def dispatch(self, op: Operation) -> None:
        """The code of `op`, where it stands."""
        handler = self.handlers.get(op.name)
        if handler is not None:
            handler(self, op)
            return
        sem = self.hooks.semantics(op)
        if sem is not None:
            self.semantic(op, sem)
            return
        raise HostCompileError(op, self.unsupported_message(op))

    def unsupported_message(self, op: Operation) -> str:
        return f"'{op_name(op)}' is not supported in host code by xgpu-run"

    def semantic(self, op: Operation, sem: Any) -> None:
        """An op of `xgpu.semantics` (an `OpSemantics`). Its `py` normalizes
        inputs and results; the values of host code are always normalized
        (results of such ops, loads, normalized arguments), so a single-result
        op calls `py_fn` and normalizes only the result: the same value, for a
        fifth of the cost."""
        results = self.vs(op.results)
        args = self.vs(op.operands)
        if not args:
            value = sem.py()
            literal = _py_literal(value)
            expr = literal if literal is not None else self.bind(value, "c")
            self.assign(results, [expr], op)
            return
        if len(results) == 1:
            fn = self.bind(sem.py_fn, "f")
            norm = self.bind(sem.result_types[0].normalizer, "n")
            self.w(f"{results[0]} = {norm}({fn}({', '.join(args)}))", op)
            return
        call = f"{self.bind(sem.py, 'f')}({', '.join(args)})"
        if results:
            self.w(f"{', '.join(results)} = {call}", op)
        else:
            self.w(call, op)


_EXIT_TERMINATORS = frozenset(["func.return", "scf.yield", "scf.condition", "scf.reduce"])


# --------------------------------------------------------------------------- #
# Handlers


def _h_scf_for(c: HostCompiler, op: Operation) -> None:
    body = op.body.block
    iv = c.v(body.args[0])
    carried = c.vs(body.args[1:])
    c.assign(carried, c.vs(op.iter_args), op)
    lb, ub, step = c.v(op.lb), c.v(op.ub), c.v(op.step)
    if "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes:
        bits = 64
        mask = (1 << bits) - 1
        lb, ub = f"({lb} & {mask})", f"({ub} & {mask})"
    c.w(f"for {iv} in range({lb}, {ub}, {step}):", op)
    c.w.indent += 1
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


def _h_cf_assert(c: HostCompiler, op: Operation) -> None:
    msg = op.msg.data if isinstance(op.msg, StringAttr) else str(op.msg)
    c.w(f"if not {c.v(op.arg)}:", op)
    c.w(f"    raise _RuntimeFailure({('assertion failed: ' + msg)!r})", op)


def _h_func_call(c: HostCompiler, op: Operation) -> None:
    callee = op.callee.root_reference.data
    args = ", ".join(c.vs(op.arguments))
    results = c.vs(op.results)
    target = c.func_names.get(callee)
    if target is None:
        if callee in RUNNER_FUNCTIONS:
            fn = c.hooks.runner(callee)
            if c.instrument:
                fn = c.hooks.observed_runner(fn, op)
            if _coherent(c):
                fn = _reading_runner(fn, c.ns["_hsync"])
            target = c.bind(fn, "u")
        elif callee in c.funcs:
            raise HostCompileError(op, f"call of '@{callee}', which is declared but not defined")
        else:
            raise HostCompileError(op, f"call of an unknown function '@{callee}'")
    call = f"{target}({args})"
    if not results:
        c.w(call, op)
    elif len(results) == 1:
        c.w(f"{results[0]} = {call}", op)
    else:
        c.w(f"{', '.join(results)} = {call}", op)


def _reading_runner(fn: Callable[..., Any], sync: Callable[[MemRef, bool], None]):
    """A runner utility whose memref arguments are host reads."""

    def call(*args: Any) -> Any:
        for a in args:
            if isinstance(a, MemRef) and a.storage.mirror is not None:
                sync(a, False)
        return fn(*args)

    return call


def _sizes_expr(c: HostCompiler, memref_type: MemRefType, dynamic: Any) -> str:
    dyn = iter(c.vs(dynamic))
    parts = [next(dyn) if s == DYNAMIC or s < 0 else str(s) for s in memref_type.get_shape()]
    return "(" + "".join(p + ", " for p in parts) + ")"


def _dtype_of(op: Operation, memref_type: Any) -> np.dtype:
    try:
        return numpy_dtype(memref_type.element_type)
    except RuntimeFailure as err:
        raise HostCompileError(op, str(err)) from None


def _h_memref_alloc(c: HostCompiler, op: Operation) -> None:
    mtype = op.memref.type
    dtype = c.bind(_dtype_of(op, mtype), "dt")
    sizes = _sizes_expr(c, mtype, op.dynamic_sizes)
    c.w(f"{c.v(op.memref)} = _halloc({dtype}, {sizes})", op)
    _name_storage(c, op, op.memref)


def _name_storage(c: HostCompiler, op: Operation | None, value: SSAValue) -> None:
    """For the simulator's reports (and those of OpenCL's bounds checks): the
    allocation's name (`%A`) and shape."""
    if not getattr(c.hooks, "name_storages", getattr(c.hooks, "pass_ops", False)):
        return
    hint = value.name_hint
    name = f"%{hint}" if hint else f"the memref of {op.name if op is not None else 'an argument'}"
    v = c.v(value)
    c.w(f"if {v}.storage.name is None:")
    c.w(f"    {v}.storage.name = {name!r}; {v}.storage.shape = {v}.sizes")


def _h_memref_dealloc(c: HostCompiler, op: Operation) -> None:
    c.w("pass", op)


def _index_expr(c: HostCompiler, m: str, indices: list[str]) -> str:
    terms = [f"{m}.offset"]
    for d, i in enumerate(indices):
        terms.append(f"{i} * {m}.strides[{d}]")
    return flat.chain(terms, " + ")


def _bounds_check(c: HostCompiler, op: Operation, m: str, indices: list[str]) -> None:
    """Host accesses are bounds-checked (kernels' are not: OpenCL cannot)."""
    if not indices:
        return
    cond = " and ".join(f"0 <= {i} < {m}.sizes[{d}]" for d, i in enumerate(indices))
    c.w(f"if not ({cond}):", op)
    c.w(f"    _oob({m}, ({', '.join(indices)},))", op)


def _record_host_access(c: HostCompiler, op: Operation, m: str, pos: str, write: bool) -> None:
    """Under the race detector: tell it about a host access to element `pos`."""
    if c.instrument:
        fn = c.ns.get("_hacc")
        if fn is None:
            c.ns["_hacc"] = c.hooks.host_access
        c.w(f"_hacc({m}, {pos}, {write}, {c.bind(op, 'op')})", op)


def _coherent(c: HostCompiler) -> bool:
    """Whether the program may have registered or shared host memory with a
    device copy (only then do host accesses go through `_hsync`)."""
    if c.coherent is None:
        c.coherent = False
        hook = getattr(c.hooks, "coherence", None)
        if hook is not None and any(
            op.name == "gpu.host_register"
            or (op.name == "gpu.alloc" and op.host_shared is not None)
            for op in c.module.walk()
        ):
            coherence = hook()
            if coherence is not None:
                c.ns["_hsync"] = coherence.host_access
                c.coherent = True
    return c.coherent


def _sync_host(c: HostCompiler, op: Operation, m: str, write: bool) -> None:
    """Before a host access to `m`: merge the device's writes to registered
    memory (and note a host write)."""
    if _coherent(c):
        c.w(f"if {m}.storage.mirror is not None: _hsync({m}, {write})", op)


def _h_memref_load(c: HostCompiler, op: Operation) -> None:
    m = c.v(op.memref)
    indices = c.vs(op.indices)
    _bounds_check(c, op, m, indices)
    pos = _index_expr(c, m, indices)
    _record_host_access(c, op, m, pos, False)
    _sync_host(c, op, m, False)
    c.w(f"{c.v(op.res)} = {m}.host.item({pos})", op)


def _h_memref_store(c: HostCompiler, op: Operation) -> None:
    m = c.v(op.memref)
    indices = c.vs(op.indices)
    _bounds_check(c, op, m, indices)
    pos = _index_expr(c, m, indices)
    _record_host_access(c, op, m, pos, True)
    _sync_host(c, op, m, True)
    c.w(f"{m}.host[{pos}] = {c.v(op.value)}", op)


def _h_alias(c: HostCompiler, op: Operation) -> None:
    """Ops whose result is the same descriptor (casts, alignment facts)."""
    c.w(f"{c.v(op.results[0])} = {c.v(op.operands[0])}", op)


def _h_memref_cast(c: HostCompiler, op: Operation) -> None:
    """`memref.cast`: where the result type makes a size, stride or offset
    static, the memref must have it (checked; an alias otherwise)."""
    from xgpu.runtime.memref import static_layout

    src_t, dst_t = op.source.type, op.dest.type
    if not isinstance(dst_t, MemRefType) or not isinstance(src_t, MemRefType):
        _h_alias(c, op)
        return
    shape = tuple(None if s == DYNAMIC or s < 0 else s for s in dst_t.get_shape())
    offset, strides = static_layout(dst_t)
    if isinstance(dst_t.layout, builtin.NoneAttr):
        strides = "row-major"  # type: ignore[assignment]
    src_shape = tuple(None if s == DYNAMIC or s < 0 else s for s in src_t.get_shape())
    src_offset, src_strides = static_layout(src_t)
    if isinstance(src_t.layout, builtin.NoneAttr):
        src_strides = "row-major"  # type: ignore[assignment]
    if (shape, strides, offset) == (src_shape, src_strides, src_offset):
        _h_alias(c, op)
        return
    fn = c.bind(checked_cast, "cast")
    c.w(
        f"{c.v(op.dest)} = {fn}({c.v(op.source)}, {shape!r}, {strides!r}, {offset!r})",
        op,
    )


def _h_assume_alignment(c: HostCompiler, op: Operation) -> None:
    if op.results:
        _h_alias(c, op)
    else:
        c.w("pass", op)


def _static_and_dynamic(c: HostCompiler, static: DenseArrayBase, dynamic: Any) -> str:
    dyn = iter(c.vs(dynamic))
    parts = [next(dyn) if v == DYNAMIC else str(v) for v in static.get_values()]
    return "(" + "".join(p + ", " for p in parts) + ")"


def _h_memref_subview(c: HostCompiler, op: Operation) -> None:
    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    source_rank = len(op.static_sizes.get_values())
    result_type = op.result.type
    keep = _rank_reduction(op, op.static_sizes.get_values(), result_type, source_rank)
    keep_name = c.bind(keep, "keep")
    c.w(
        f"{c.v(op.result)} = _subview({c.v(op.source)}, {offsets}, {sizes}, {strides}, "
        f"{keep_name})",
        op,
    )


def _rank_reduction(op, static_sizes, result_type, source_rank) -> tuple[int, ...] | None:
    """The source dimensions a rank-reducing subview keeps (None: all of them):
    source sizes are matched to the result's left to right, and unmatched
    dimensions of size 1 are dropped (MLIR's computeRankReductionMask)."""
    shape = list(result_type.get_shape())
    if len(shape) == source_rank:
        return None
    keep: list[int] = []
    for d, size in enumerate(static_sizes):
        j = len(keep)
        spare = (source_rank - d) - (len(shape) - j)  # source dims that must go
        if size == 1 and spare > 0 and (j >= len(shape) or shape[j] != 1):
            continue
        if j < len(shape) and (size == shape[j] or size == DYNAMIC or shape[j] < 0):
            keep.append(d)
        elif size != 1:
            raise HostCompileError(op, "cannot infer which dimensions the subview drops")
    if len(keep) != len(shape):
        raise HostCompileError(op, "cannot infer which dimensions the subview drops")
    return tuple(keep)


def _h_memref_reinterpret_cast(c: HostCompiler, op: Operation) -> None:
    offsets = _static_and_dynamic(c, op.static_offsets, op.offsets)
    sizes = _static_and_dynamic(c, op.static_sizes, op.sizes)
    strides = _static_and_dynamic(c, op.static_strides, op.strides)
    c.w(
        f"{c.v(op.result)} = _reinterpret({c.v(op.source)}, {offsets}[0], {sizes}, {strides})",
        op,
    )


def _h_memref_reshape(c: HostCompiler, op: Operation) -> None:
    result_type = op.result.type
    if op.name == "memref.expand_shape":
        sizes = _static_and_dynamic(c, op.static_output_shape, op.output_shape)
    else:
        shape = result_type.get_shape()
        groups = [list(g) for g in _reassociation(op)]
        src = c.v(op.src)
        parts = []
        for d, size in enumerate(shape):
            if size >= 0:
                parts.append(str(size))
            else:
                parts.append(flat.chain([f"{src}.sizes[{i}]" for i in groups[d]], " * ") or "1")
        sizes = "(" + "".join(p + ", " for p in parts) + ")"
    c.w(f"{c.v(op.result)} = _reshape({c.v(op.src)}, {sizes})", op)


def _reassociation(op: Operation) -> list[list[int]]:
    return [[int(x.value.data) for x in group.data] for group in op.reassociation.data]


def _h_memref_copy(c: HostCompiler, op: Operation) -> None:
    if c.instrument:
        c.ns.setdefault("_hview", c.hooks.host_view_access)
        opn = c.bind(op, "op")
        c.w(f"_hview({c.v(op.source)}, False, {opn})", op)
        c.w(f"_hview({c.v(op.destination)}, True, {opn})", op)
    _sync_host(c, op, c.v(op.source), False)
    _sync_host(c, op, c.v(op.destination), True)
    c.w(f"_mcopy({c.v(op.source)}, {c.v(op.destination)})", op)


def _h_memref_dim(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.result)} = _dim({c.v(op.source)}, {c.v(op.index)})", op)


def _h_memref_rank(c: HostCompiler, op: Operation) -> None:
    c.w(f"{c.v(op.results[0])} = len({c.v(op.operands[0])}.sizes)", op)


def _h_memref_get_global(c: HostCompiler, op: Operation) -> None:
    name = op.name_.root_reference.data
    glob = c.globals.get(name)
    if glob is None:
        raise HostCompileError(op, f"no memref.global named '@{name}'")
    bound = c.bind(c.hooks.global_memref(glob), "g")
    c.w(f"{c.v(op.memref)} = {bound}", op)


# -- gpu ops ------------------------------------------------------------------ #


def _deps(c: HostCompiler, op: Operation) -> str:
    deps = c.vs(op.async_dependencies)
    if not deps:
        return "()"
    if len(deps) == 1:
        return deps[0]
    return flat.chain(deps, " + ")


def _is_async(op: Operation) -> bool:
    return op.async_token is not None


def _gpu(c: HostCompiler) -> str:
    if "_gpu" not in c.ns:
        c.ns["_gpu"] = c.hooks.gpu()
        c.ns["_tok"] = c.ns["_gpu"].tokens
    return "_gpu"


def _op_arg(c: HostCompiler, op: Operation) -> str:
    """`, OP` where the runtime wants the op (the simulator runs async ops
    later and reports their failures at them), else nothing."""
    if getattr(c.hooks, "pass_ops", False):
        return f", {c.bind(op, 'op')}"
    return ""


def _token_target(c: HostCompiler, op: Operation) -> str:
    return c.v(op.async_token) if op.async_token is not None else "_"


def _h_gpu_wait(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    deps = c.vs(op.async_dependencies)
    if op.async_token is not None:
        token = c.v(op.async_token)
        if not deps:
            c.w(f"{token} = ()", op)
        elif len(deps) == 1:
            c.w(f"{token} = {deps[0]}", op)
        else:
            c.w(f"{token} = _tok.join({', '.join(deps)})", op)
    elif deps:
        c.w(f"_tok.wait({flat.chain(deps, ' + ')})", op)
    else:
        c.w("_tok.wait_all()", op)


def _h_gpu_alloc(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    mtype = op.memref.type
    if not isinstance(mtype.layout, builtin.NoneAttr):
        raise HostCompileError(op, "gpu.alloc of a memref with a layout is not supported")
    if op.symbol_operands:
        raise HostCompileError(op, "gpu.alloc with symbol operands is not supported")
    dtype = c.bind(_dtype_of(op, mtype), "dt")
    sizes = _sizes_expr(c, mtype, op.dynamic_sizes)
    shared = op.host_shared is not None
    c.w(
        f"{c.v(op.memref)}, {_token_target(c, op)} = {g}.alloc({dtype}, {sizes}, {shared}, "
        f"{_deps(c, op)}, {_is_async(op)}{_op_arg(c, op)})",
        op,
    )
    if getattr(c.hooks, "name_storages", False) and not getattr(c.hooks, "pass_ops", False):
        # OpenCL's bounds checks name the buffer as the simulator does.
        c.w(f"{c.v(op.memref)}.storage.name = {allocation_label(op)!r}", op)


def _h_gpu_dealloc(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.dealloc({c.v(op.memref)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_memcpy(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.memcpy({c.v(op.dst)}, {c.v(op.src)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_memset(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.memset({c.v(op.dst)}, {c.v(op.value)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_host_register(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    method = "host_register" if op.name == "gpu.host_register" else "host_unregister"
    c.w(f"{g}.{method}({c.v(op.value)}{_op_arg(c, op)})", op)


def _h_gpu_set_default_device(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    check = c.bind(_set_default_device, "sd")
    c.w(f"{check}({c.v(op.dev_index)})", op)


def _set_default_device(index: int) -> None:
    if index != 0:
        raise RuntimeFailure(
            f"gpu.set_default_device {index}: xgpu-run uses one OpenCL device (index 0)"
        )


def _h_gpu_launch_func(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    if op.async_object is not None:
        raise HostCompileError(op, "gpu.launch_func with an async object is not supported")
    if op.cluster_size_x is not None:
        raise HostCompileError(op, "thread block clusters are not supported on OpenCL")
    launcher = c.bind(c.hooks.launcher(op), "L")
    dims = c.vs(
        [
            op.grid_size_x,
            op.grid_size_y,
            op.grid_size_z,
            op.block_size_x,
            op.block_size_y,
            op.block_size_z,
        ]
    )
    shmem = c.v(op.dynamic_shared_memory_size) if op.dynamic_shared_memory_size else "0"
    args = ", ".join([_deps(c, op), *dims, shmem, *c.vs(op.kernel_operands)])
    c.w(f"{_token_target(c, op)} = {launcher}({args})", op)


def _h_gpu_launch(c: HostCompiler, op: Operation) -> None:
    raise HostCompileError(op, "gpu.launch must be outlined first (gpu-kernel-outlining)")


def _h_arith_constant(c: HostCompiler, op: Operation) -> None:
    from xgpu.semantics import SemanticsError, scalar

    attr = op.properties.get("value")
    if attr is None:
        attr = op.attributes.get("value")
    result = op.results[0]
    if not isinstance(attr, IntegerAttr | FloatAttr):
        raise HostCompileError(op, "only scalar arith.constant values are supported in host code")
    try:
        value = scalar(result.type).norm(attr.value.data)
    except SemanticsError as err:
        raise HostCompileError(op, str(err)) from None
    literal = _py_literal(value)
    c.w(f"{c.v(result)} = {literal if literal is not None else c.bind(value, 'c')}", op)


_HANDLERS: dict[str, Callable[[HostCompiler, Operation], None]] = {
    "arith.constant": _h_arith_constant,
    "scf.for": _h_scf_for,
    "scf.if": _h_scf_if,
    "scf.while": _h_scf_while,
    "scf.index_switch": _h_scf_index_switch,
    "scf.execute_region": _h_scf_execute_region,
    "scf.parallel": _h_scf_parallel,
    "cf.assert": _h_cf_assert,
    "func.call": _h_func_call,
    "memref.alloc": _h_memref_alloc,
    "memref.alloca": _h_memref_alloc,
    "memref.dealloc": _h_memref_dealloc,
    "memref.load": _h_memref_load,
    "memref.store": _h_memref_store,
    "memref.cast": _h_memref_cast,
    "memref.memory_space_cast": _h_alias,
    "memref.assume_alignment": _h_assume_alignment,
    "memref.subview": _h_memref_subview,
    "memref.reinterpret_cast": _h_memref_reinterpret_cast,
    "memref.expand_shape": _h_memref_reshape,
    "memref.collapse_shape": _h_memref_reshape,
    "memref.copy": _h_memref_copy,
    "memref.dim": _h_memref_dim,
    "memref.rank": _h_memref_rank,
    "memref.get_global": _h_memref_get_global,
    "gpu.wait": _h_gpu_wait,
    "gpu.alloc": _h_gpu_alloc,
    "gpu.dealloc": _h_gpu_dealloc,
    "gpu.memcpy": _h_gpu_memcpy,
    "gpu.memset": _h_gpu_memset,
    "gpu.host_register": _h_gpu_host_register,
    "gpu.host_unregister": _h_gpu_host_register,
    "gpu.set_default_device": _h_gpu_set_default_device,
    "gpu.launch_func": _h_gpu_launch_func,
    "gpu.launch": _h_gpu_launch,
}


def python_error_message(err: BaseException) -> str | None:
    """What a Python error raised by generated code means for the program
    (None: nothing known; the error is then reported as it is)."""
    if isinstance(err, ValueError) and "range() arg 3 must not be zero" in str(err):
        return "undefined behavior: a loop with a step of 0"
    if isinstance(err, RecursionError):
        import sys

        return (
            "calls nested too deeply: the program recursed past Python's recursion "
            f"limit ({sys.getrecursionlimit()} frames)"
        )
    return None


# --------------------------------------------------------------------------- #
# Memref helpers the generated code calls


def _host_alloc(dtype: np.dtype, sizes: tuple[int, ...]) -> MemRef:
    from xgpu.runtime.memref import host_alloc

    return host_alloc(dtype, sizes)


def _out_of_bounds(m: MemRef, indices: tuple[int, ...]) -> None:
    raise RuntimeFailure(
        f"out-of-bounds access at [{', '.join(map(str, indices))}] of a memref of sizes "
        f"[{', '.join(map(str, m.sizes))}]"
    )


def _dim(m: MemRef, index: int) -> int:
    if not 0 <= index < len(m.sizes):
        raise RuntimeFailure(f"memref.dim index {index} out of range for rank {len(m.sizes)}")
    return m.sizes[index]


def subview(
    m: MemRef,
    offsets: tuple[int, ...],
    sizes: tuple[int, ...],
    strides: tuple[int, ...],
    keep: tuple[int, ...] | None,
) -> MemRef:
    """`memref.subview`: offsets, sizes and strides relative to the source."""
    offset = m.offset
    for o, s in zip(offsets, m.strides):
        offset += o * s
    new_strides = tuple(st * s for st, s in zip(strides, m.strides))
    for d, (o, size, st) in enumerate(zip(offsets, sizes, strides)):
        last = o + (size - 1) * st
        if size < 0 or o < 0 or (size > 0 and not 0 <= last < m.sizes[d]):
            raise RuntimeFailure(subview_bounds_message(d, m.sizes[d], o, size, st))
    if keep is not None:
        sizes = tuple(sizes[d] for d in keep)
        new_strides = tuple(new_strides[d] for d in keep)
    return m.view(offset, tuple(sizes), new_strides)


def reinterpret(m: MemRef, offset: int, sizes: tuple[int, ...], strides: tuple[int, ...]) -> MemRef:
    """`memref.reinterpret_cast`: a view that must stay inside the storage."""
    return checked_view(m, offset, sizes, strides, "memref.reinterpret_cast")


def reshape(m: MemRef, sizes: tuple[int, ...]) -> MemRef:
    """`memref.expand_shape` / `collapse_shape` of a contiguous view."""
    if not m.is_contiguous():
        raise RuntimeFailure("expand_shape/collapse_shape of a non-contiguous view")
    n = 1
    for s in sizes:
        if s < 0:
            raise RuntimeFailure(f"expand_shape/collapse_shape to a negative size {s}")
        n *= s
    if n != m.num_elements:
        raise RuntimeFailure(
            f"expand_shape/collapse_shape of {m.num_elements} elements to {n} "
            f"(sizes [{', '.join(map(str, sizes))}])"
        )
    from xgpu.runtime.memref import row_major_strides

    return m.view(m.offset, tuple(sizes), row_major_strides(tuple(sizes)))


def memref_copy(src: MemRef, dst: MemRef) -> None:
    """`memref.copy` on the host."""
    if src.sizes != dst.sizes:
        raise RuntimeFailure(f"memref.copy between shapes {list(src.sizes)} and {list(dst.sizes)}")
    from xgpu.runtime.memref import copy_overlap_message, overlapping

    if overlapping(src, dst):
        raise RuntimeFailure(copy_overlap_message("memref.copy"))
    dst.host_view()[...] = src.host_view()
