"""The C of one function of a gpu.module (`FunctionEmitter`): its locals,
values and memref descriptors, scoped and hoisted declarations, parallel
assignments, regions of several blocks (labels and `goto`, `cf` branches),
and the dispatch of each op to its handler (`ops`, `flat`) or to
`xgpu.semantics`. Its signature and prologue are `signature`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue

from xgpu.backend.opencl import flat, half, mma
from xgpu.backend.opencl import memref as mr
from xgpu.backend.opencl import reductions as red
from xgpu.backend.opencl.errors import EmitError
from xgpu.backend.opencl.names import LocalNamer
from xgpu.backend.opencl.program import KernelABI
from xgpu.backend.opencl.ranges import Ranges
from xgpu.backend.opencl.signature import FunctionSignature, c_scalar_or_fail
from xgpu.backend.opencl.types import (
    MemRefInfo,
    UnsupportedType,
    c_scalar,
    memref_info,
)
from xgpu.backend.opencl.writer import Writer
from xgpu.diagnostics import op_name
from xgpu.semantics import (
    OpSemantics,
    Scalar,
    SemanticsError,
    lookup,
    supported_ops,
)

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import ModuleEmitter

_SEMANTIC_OPS = supported_ops()
_TERMINATORS = frozenset(
    {
        "scf.yield",
        "scf.condition",
        "gpu.return",
        "func.return",
        "gpu.yield",
        "cf.br",
        "cf.cond_br",
        "cf.switch",
        "gpu.terminator",
        "memref.atomic_yield",
    }
)


def _name(op: Operation) -> str:
    return op_name(op)


# --------------------------------------------------------------------------- #
# Functions                                                                   #
# --------------------------------------------------------------------------- #


class FunctionEmitter(FunctionSignature):
    def __init__(self, module: ModuleEmitter, func: Operation, is_kernel: bool):
        self.module = module
        self.func = func
        self.is_kernel = is_kernel
        self.checked = module.options.checked
        self.ranges = Ranges(func)
        self.w = Writer()
        self.names = LocalNamer()
        self.values: dict[SSAValue, str] = {}
        self.consts: dict[SSAValue, int | float] = {}
        self.descs: dict[SSAValue, mr.Desc] = {}
        self.hoist: list[str] | None = None
        self.labels: dict[Block, str] = {}
        self.subgroups = red.Subgroups(module.options.subgroups, module.options.subgroup_size)
        self.scratch_bytes = 0
        self.scratch_ops: list[Operation] = []  # the ops that use it, in order
        self.uses_lanes = False
        self.dsm_name: str | None = None
        self.abi: KernelABI | None = None
        self.prototype = ""
        self.c_name = module.functions[func.sym_name.data][0]
        self.out_params: list[str] = []

    # ------------------------------------------------------------ utilities
    def fail(self, op: Operation | None, message: str):
        raise EmitError(op, message)

    def line(self, text: str, op: Operation | None) -> None:
        self.w.line(text, op)

    def open(self, text: str, op: Operation | None) -> None:
        self.w.line(text, op)
        self.w.depth += 1

    def close(self, text: str, op: Operation | None) -> None:
        self.w.depth -= 1
        self.w.line(text, op)

    def fresh_name(self, prefix: str = "v", hint: str | None = None) -> str:
        return self.names.fresh("v", hint or (None if prefix == "v" else prefix))

    def scalar_of(self, value: SSAValue, op: Operation) -> Scalar:
        try:
            s = c_scalar(value.type, self.module.options.fp16)
        except UnsupportedType as err:
            self.fail(op, str(err))
        self.module.note_types(s)
        return s

    def memref_info(self, t, op: Operation) -> MemRefInfo:
        try:
            info = memref_info(t, self.module.options.fp16)
        except UnsupportedType as err:
            self.fail(op, str(err))
        self.module.note_types(info.elem)
        return info

    def use_semantics(self, sem: OpSemantics, op: Operation) -> None:
        for h in sem.helpers:
            self.module.helpers.setdefault(h.name, h)
        self.module.extensions.update(sem.extensions)

    def require_extension(self, ext: str) -> None:
        self.module.extensions.add(ext)

    def require_scratch(self, op: Operation) -> None:
        if not self.is_kernel:
            self.fail(
                op,
                "needs the kernel's __local scratch buffer: it is supported in kernels, "
                "not in device functions",
            )

    def bind(self, value: SSAValue, text: str) -> None:
        self.values[value] = text

    def expr(self, value: SSAValue) -> str:
        text = self.values.get(value)
        if text is None:
            owner = value.owner if isinstance(value.owner, Operation) else None
            if isinstance(value.type, MemRefType):
                self.fail(owner, "a memref value is used where a scalar is expected")
            self.fail(owner, "produces a value the OpenCL backend did not emit")
        return text

    def desc(self, value: SSAValue) -> mr.Desc:
        d = self.descs.get(value)
        if d is None:
            owner = value.owner if isinstance(value.owner, Operation) else None
            self.fail(owner, "produces a memref the OpenCL backend cannot follow")
        return d

    def const_int(self, value: SSAValue) -> int | None:
        c = self.consts.get(value)
        return c if isinstance(c, int) else None

    def index_operand(self, value: SSAValue) -> mr.Ix:
        c = self.const_int(value)
        return c if c is not None else self.expr(value)

    def materialize(self, v: mr.Ix | None, hint: str) -> mr.Ix | None:
        """A compound index expression stored in a `long` local."""
        if v is None or isinstance(v, int) or v.isidentifier():
            return v
        name = self.fresh_name(hint)
        self.declare_local("long", name, v, None)
        return name

    def declare_local(self, ctype: str, name: str, init: str | None, op: Operation | None) -> None:
        if self.hoist is not None:
            self.hoist.append(f"{ctype} {name};")
            if init is not None:
                self.line(f"{name} = {init};", op)
        elif init is None:
            self.line(f"{ctype} {name};", op)
        else:
            self.line(f"{ctype} {name} = {init};", op)

    def define_local(self, ctype: str, init: str, op: Operation, hint: str | None = None) -> str:
        name = self.fresh_name("v", hint)
        self.declare_local(ctype, name, init, op)
        return name

    def define(self, value: SSAValue, init: str, op: Operation) -> str:
        """Assign a new local to `value`."""
        s = self.scalar_of(value, op)
        name = self.fresh_name("v", value.name_hint)
        self.declare_local(s.c, name, init, op)
        self.values[value] = name
        return name

    def declare(self, value: SSAValue, op: Operation, init: str | None = None) -> str:
        """Declare the local of `value` (assigned later)."""
        if isinstance(value.type, MemRefType):
            self.fail(op, "memref results of control flow are not supported")
        if mma.is_matrix(value.type):
            return mma.declare(self, value, op, init)
        s = self.scalar_of(value, op)
        name = self.fresh_name("v", value.name_hint)
        self.declare_local(s.c, name, init, op)
        self.values[value] = name
        return name

    def assign(self, targets: Sequence[str], values: Sequence[SSAValue], op: Operation) -> None:
        """Parallel assignment of `values` to the variables `targets`."""
        texts = []
        for v in values:
            if isinstance(v.type, MemRefType):
                self.fail(op, "memref values cannot flow through block arguments or results")
            texts.append(self.expr(v))
        kinds = {t: v.type for t, v in zip(targets, values)}
        pairs = [(t, x) for t, x in zip(targets, texts) if t != x]
        if not pairs:
            return
        if len(pairs) == 1 or not (set(targets) & set(texts)):
            for t, x in pairs:
                self._copy(t, x, kinds[t], op)
            return
        self.open("{", op)
        for i, (t, x) in enumerate(pairs):
            if mma.is_matrix(kinds[t]):
                mma.declare_copy(self, f"xg_t{i}", x, kinds[t], op)
            else:
                self.line(f"{self.scalar_of_type(kinds[t], op).c} xg_t{i} = {x};", op)
        for i, (t, _) in enumerate(pairs):
            self._copy(t, f"xg_t{i}", kinds[t], op)
        self.close("}", op)

    def _copy(self, target: str, source: str, t, op: Operation) -> None:
        if mma.is_matrix(t):
            mma.copy(self, target, source, t, op)
        else:
            self.line(f"{target} = {source};", op)

    def scalar_of_type(self, t, op: Operation) -> Scalar:
        return c_scalar_or_fail(self, t, op)

    # --------------------------------------------------------------- scopes
    def nested(self, header: str, op: Operation | None, body: Callable[[], None], end="}") -> None:
        """`header {` body `}` (locals inside are scoped, not hoisted)."""
        saved = self.hoist
        self.hoist = None
        self.open(header, op)
        body()
        self.close(end, op)
        self.hoist = saved

    # -------------------------------------------------------------- regions
    def emit_region(
        self,
        region: Region,
        on_terminator: Callable[[Operation], None],
        entry_bound: bool = False,
    ) -> None:
        """Emit `region` in the current scope; its entry arguments must be bound."""
        blocks = list(region.blocks)
        if len(blocks) == 1:
            self.emit_block_ops(blocks[0], on_terminator)
            return
        # Several blocks: labels, gotos, and the locals declared at the top.
        mark, depth = self.w.mark(), self.w.depth
        saved, self.hoist = self.hoist, []
        for b in blocks[1:]:
            self.labels[b] = self.names.fresh("bb")
            for arg in b.args:
                if isinstance(arg.type, MemRefType):
                    self.fail(b.parent_op(), "memref values cannot flow through block arguments")
                s = self.scalar_of(arg, b.parent_op() or self.func)
                name = self.fresh_name("v", arg.name_hint)
                self.hoist.append(f"{s.c} {name};")
                self.values[arg] = name

        def on_term(op: Operation) -> None:
            if op.name in ("cf.br", "cf.cond_br", "cf.switch"):
                self._branch(op)
            else:
                on_terminator(op)

        for i, b in enumerate(blocks):
            if i > 0:
                self.w.depth -= 1
                self.line(f"{self.labels[b]}: ;", None)
                self.w.depth += 1
            self.emit_block_ops(b, on_term)
        decls, self.hoist = self.hoist, saved
        self.w.insert(mark, decls, depth, None)

    def emit_block_ops(self, block: Block, on_terminator: Callable[[Operation], None]) -> None:
        last = block.last_op
        for op in block.ops:
            if op is last and op.name in _TERMINATORS:
                on_terminator(op)
            else:
                self.emit_op(op)

    def _jump(self, block: Block, args: Sequence[SSAValue], op: Operation) -> None:
        label = self.labels.get(block)
        if label is None:
            self.fail(op, "branches to a block outside its region")
        self.assign([self.values[a] for a in block.args], list(args), op)
        self.line(f"goto {label};", op)

    def _branch(self, op: Operation) -> None:
        if op.name == "cf.br":
            self._jump(op.successor, op.arguments, op)
            return
        if op.name == "cf.cond_br":
            c = self.expr(op.cond)
            self.open(f"if ({c}) {{", op)
            self._jump(op.then_block, op.then_arguments, op)
            self.close("} else {", op)
            self.w.depth += 1
            self._jump(op.else_block, op.else_arguments, op)
            self.close("}", op)
            return
        # cf.switch
        flag = self.expr(op.flag)
        self.open(f"switch ({flag}) {{", op)
        values = list(op.case_values.get_values()) if op.case_values is not None else []
        segments = (
            list(op.case_operand_segments.get_values())
            if op.case_operand_segments is not None
            else [0] * len(values)
        )
        operands = list(op.case_operands)
        pos = 0
        for value, block, count in zip(values, op.case_blocks, segments):
            self.line(f"case {value}:", op)
            self.w.depth += 1
            self._jump(block, operands[pos : pos + count], op)
            self.w.depth -= 1
            pos += count
        self.line("default:", op)
        self.w.depth += 1
        self._jump(op.default_block, op.default_operands, op)
        self.w.depth -= 1
        self.close("}", op)

    # ------------------------------------------------------------------ ops
    def emit_op(self, op: Operation) -> None:
        name = _name(op)
        handler = _handlers().get(name)
        if handler is not None:
            if self.w.depth >= flat.FLAT_DEPTH:
                handler = flat.FLAT_HANDLERS.get(name, handler)
            handler(self, op)
            return
        if name in _SEMANTIC_OPS:
            self._semantic(op)
            return
        if name in _TERMINATORS:
            self.fail(op, "is not expected here")
        self.fail(op, "is not supported by the OpenCL backend")

    def _semantic(self, op: Operation) -> None:
        for v in (*op.operands, *op.results):
            if isinstance(v.type, MemRefType):
                self.fail(op, "on memrefs is not supported by the OpenCL backend")
            self.scalar_of(v, op)
        if half.emulated(self) and half.touches_f16(op):
            half.semantic(self, op)
            return
        try:
            sem = lookup(op)
        except SemanticsError as err:
            self.fail(op, f"is not supported by the OpenCL backend: {err}")
        self.use_semantics(sem, op)
        if op.name == "arith.constant":
            value = op.results[0]
            self.values[value] = sem.c()
            self.consts[value] = sem.py()
            return
        texts = sem.c(*(self.expr(o) for o in op.operands))
        if isinstance(texts, str):
            texts = (texts,)
        for r, t in zip(op.results, texts):
            self.define(r, t, op)


def _handlers() -> dict[str, Callable[[FunctionEmitter, Operation], None]]:
    from xgpu.backend.opencl.ops import HANDLERS  # the op handlers use the emitters

    return HANDLERS
