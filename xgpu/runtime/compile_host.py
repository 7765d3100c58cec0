"""Compile the host functions of a module into Python.

Each `func.func` with a body becomes one Python function, generated as source
and `exec`'d once: SSA values are Python locals, `scf.for` is a Python `for`
over `range`, `scf.if` an `if`, `scf.while` a `while True` loop, and a region
with several blocks (`cf.br`, `cf.cond_br`, `cf.switch`) a loop over a block
number. Nothing is interpreted op by op at run time: an iteration of a host
loop that launches a kernel costs one call of the launch site's generated
launcher (see `kernels`), and a loop of only one launch chained on the loop's
token, with loop-invariant operands, one call of the launcher's `repeat` in
all (`host_gpu.repeated_launch`).

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
program runs. This module holds the compiler and the cf/func/arith
handlers; the scf ops are in `host_scf`, the memref ops in `host_memref`,
the gpu ops in `host_gpu` (`handlers()` joins the tables).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
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
    numpy_dtype,
)
from xgpu.runtime.runner_utils import RUNNER_FUNCTIONS


class HostCompileError(Exception):
    """The host code cannot be compiled: `message`, at `op`."""

    def __init__(self, op: Operation | None, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def op_semantics(op: Operation):
    """The shared semantics of an arith/math/index op (`xgpu.semantics`), or
    None for an op it does not define; the hooks' `semantics`."""
    from xgpu import semantics

    if op.name not in semantics.supported_ops():
        return None
    try:
        return semantics.lookup(op)
    except semantics.SemanticsError as err:
        raise HostCompileError(op, str(err)) from None


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
        self.handlers = handlers()
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
        #: gpu.launch_func op -> the name its launcher is bound to
        self.launchers: dict[Operation, str] = {}

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

        py_name = Namer("f")
        for op in self.module.body.block.ops:
            if isinstance(op, FuncOp):
                self.funcs[op.sym_name.data] = op
                if op.body.blocks:
                    self.func_names[op.sym_name.data] = py_name(op.sym_name.data)
            elif op.name == "memref.global":
                self.globals[op.sym_name.data] = op
        from xgpu.runtime.host_memref import RUNTIME

        self.ns.update(_MemRef=MemRef, _RuntimeFailure=RuntimeFailure, **RUNTIME)
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

    def call_into(self, results: list[str], call: str, op: Operation) -> None:
        """`call`, its value(s) assigned to `results` (none: a statement)."""
        if not results:
            self.w(call, op)
        elif len(results) == 1:
            self.w(f"{results[0]} = {call}", op)
        else:
            self.w(f"{', '.join(results)} = {call}", op)

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

    def loop_top(self, op: Operation) -> None:
        """Code at the start of each iteration of `op`'s loop (host code: none;
        the simulator's kernels let a spin loop yield)."""

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


_EXIT_TERMINATORS = frozenset(
    ["func.return", "scf.yield", "scf.condition", "scf.reduce", "async.yield"]
)


# --------------------------------------------------------------------------- #
# Handlers


def _h_cf_assert(c: HostCompiler, op: Operation) -> None:
    msg = op.msg.data if isinstance(op.msg, StringAttr) else str(op.msg)
    c.w(f"if not {c.v(op.arg)}:", op)
    c.w(f"    raise _RuntimeFailure({('assertion failed: ' + msg)!r})", op)


def _h_vector_print(c: HostCompiler, op: Operation) -> None:
    """`vector.print` of a string or punctuation only (a value's is made into
    runner calls before: `xgpu.transforms.scalarize_vectors`)."""
    if op.source is not None:
        raise HostCompileError(op, "vector.print of a value was not scalarized")
    if op.stringLiteral is not None:
        text = op.stringLiteral.data  # as mlir-runner: the string alone
    else:
        punct = str(op.punctuation.data.value) if op.punctuation is not None else "newline"
        text = {"newline": "\n", "comma": ", ", "open": "( ", "close": " )"}.get(punct, "")
    # repr() is a fully escaped Python literal of the text.
    c.w(f"{c.bind(c.hooks.runner('printString'), 'pr')}({text!r})", op)


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
    c.call_into(results, call, op)


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


def _coherent(c: HostCompiler) -> bool:
    """Whether the program may have registered or shared host memory with a
    device copy (only then do host accesses go through `_hsync`)."""
    if c.coherent is None:
        c.coherent = False
        hook = getattr(c.hooks, "coherence", None)
        if hook is not None and (
            getattr(c.hooks, "registers_arguments", False)
            or any(
                op.name == "gpu.host_register"
                or (op.name == "gpu.alloc" and op.host_shared is not None)
                for op in c.module.walk()
            )
        ):
            coherence = hook()
            if coherence is not None:
                c.ns["_hsync"] = coherence.host_access
                c.coherent = True
    return c.coherent


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


_CORE_HANDLERS: dict[str, Callable[[HostCompiler, Operation], None]] = {
    "arith.constant": _h_arith_constant,
    "cf.assert": _h_cf_assert,
    "vector.print": _h_vector_print,
    "func.call": _h_func_call,
}
_HANDLERS: dict[str, Callable[[HostCompiler, Operation], None]] | None = None


def handlers() -> dict[str, Callable[[HostCompiler, Operation], None]]:
    """Op name -> handler of host code: cf/func/arith here, scf ops in
    `host_scf`, memref ops in `host_memref`, gpu ops in `host_gpu`, async
    ops in `host_async`."""
    global _HANDLERS
    if _HANDLERS is None:
        from xgpu.runtime import host_async, host_gpu, host_memref, host_scf

        _HANDLERS = {
            **_CORE_HANDLERS,
            **host_scf.HANDLERS,
            **host_memref.HANDLERS,
            **host_gpu.HANDLERS,
            **host_async.HANDLERS,
        }
    return _HANDLERS


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
