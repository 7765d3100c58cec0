"""gpu.module -> OpenCL C 1.2: programs, functions and bodies (the C of each
op is written by its handler in `ops`).

The program of a gpu.module is, in order: pragmas for the extensions it uses
(fp64, fp16, subgroups), the helper functions its expressions call, its
constant `memref.global`s (`__constant` arrays), prototypes of its device
functions, the device functions, the kernels.

Bodies: each SSA scalar value is a C local (`v<N>`) assigned once where it is
defined (constants are inlined as literals); a memref value is a descriptor
(`memref.Desc`) whose dynamic parts are `long` locals. Structured control flow
maps to C statements:

- `scf.for` -> `for (T iv = lb; iv < ub; iv += step)`, its iteration values and
  results being the same variables, declared before the loop;
- `scf.if` -> `if/else`, results declared before it and assigned by the yields;
- `scf.while` -> `for (;;)`: the before region, the results assigned from the
  `scf.condition` arguments, `if (!cond) break;`, the after region;
- `scf.index_switch` -> `switch`; `scf.execute_region` -> a block;
- a region of several blocks (`cf.br`, `cf.cond_br`, `cf.switch`) -> labels and
  `goto`, the locals of its blocks declared at its top; block arguments are
  variables assigned before each jump.

Device functions (non-kernel `gpu.func`, `func.func` in the gpu.module) are C
functions: memref arguments expand as for kernels, one result is returned,
further results go through pointers (`func.call` passes `&v`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, MemRefType, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue

from xgpu.backend.opencl import flat, guards, half, mma
from xgpu.backend.opencl import memref as mr
from xgpu.backend.opencl import reductions as red
from xgpu.backend.opencl.errors import EmitError
from xgpu.backend.opencl.names import LocalNamer, SymbolNamer, comment_symbol
from xgpu.backend.opencl.program import (
    INT64,
    KernelABI,
    LocalArg,
    MemRefArg,
    OpenCLProgram,
    Param,
    ScalarArg,
)
from xgpu.backend.opencl.ranges import Ranges
from xgpu.backend.opencl.types import (
    GLOBAL,
    LOCAL,
    PRIVATE,
    MemRefInfo,
    UnsupportedType,
    c_scalar,
    memref_info,
)
from xgpu.diagnostics import op_name
from xgpu.ir.nesting import deep_call
from xgpu.mangle import mangled
from xgpu.semantics import (
    CHelper,
    OpSemantics,
    Scalar,
    SemanticsError,
    c_literal,
    lookup,
    supported_ops,
)

BUILD_OPTIONS = "-cl-std=CL1.2"
#: programs that use cl_khr_subgroups: its builtins are OpenCL C 2.0 ones
SUBGROUP_BUILD_OPTIONS = "-cl-std=CL2.0"
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
# Extensions enabled by a pragma; the others used (cl_khr_subgroup_shuffle,
# cl_khr_subgroup_shuffle_relative, cl_khr_subgroup_ballot) only add built-in
# functions, have no pragma, and compilers that predate them (clang 14) warn
# about one.
_PRAGMA_ORDER = (
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_subgroups",
    "cl_khr_int64_base_atomics",
)


#: the MMA ops that ask for the lane id (`xgpu.backend.opencl.mma.USES_LANES`)
MMA_LANE_OPS = frozenset(["gpu.subgroup_mma_store_matrix"])

MAX_CONSTANT_BYTES = 64 * 1024
"""The largest `__constant` memref.global the emitter writes out."""


@dataclass(frozen=True)
class Options:
    subgroups: str = "emulate"  # "emulate" | "khr"
    subgroup_size: int | None = None  # emulated subgroup size (None: the workgroup)
    fp16: bool = False  # the device has cl_khr_fp16
    checked: bool = True  # bounds-checked memory accesses (`guards`)
    reduction: str = "fold"  # "fold" | "tree": the order of reductions (see `reductions`)


class Writer:
    """Lines of C with the op each one comes from."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ops: list[Operation | None] = []
        self.depth = 0

    def line(self, text: str, op: Operation | None) -> None:
        self.lines.append("  " * self.depth + text)
        self.ops.append(op)

    def extend(self, other: Writer) -> None:
        self.lines += other.lines
        self.ops += other.ops

    def text_block(self, text: str, op: Operation | None = None) -> None:
        for ln in text.splitlines():
            self.line(ln, op)

    def mark(self) -> int:
        return len(self.lines)

    def insert(self, at: int, lines: Sequence[str], depth: int, op: Operation | None) -> None:
        self.lines[at:at] = ["  " * depth + ln for ln in lines]
        self.ops[at:at] = [op] * len(lines)


def _name(op: Operation) -> str:
    return op_name(op)


# --------------------------------------------------------------------------- #
# Module                                                                      #
# --------------------------------------------------------------------------- #


class ModuleEmitter:
    def __init__(self, module_op: Operation, options: Options):
        self.module_op = module_op
        self.options = options
        self.module_name = module_op.sym_name.data
        self.symbols = SymbolNamer()
        self.functions: dict[str, tuple[str, Operation]] = {}
        self.globals: dict[str, tuple[str, MemRefInfo]] = {}
        self.helpers: dict[str, CHelper] = {}
        self.extensions: set[str] = set()
        self.guards = guards.GuardTables()

    def fail(self, op: Operation | None, message: str) -> None:
        raise EmitError(op, message)

    def run(self) -> OpenCLProgram:
        block = self.module_op.body.blocks.first
        ops = list(block.ops) if block is not None else []
        funcs: list[Operation] = []
        globs: list[Operation] = []
        for op in ops:
            if op.name in ("gpu.func", "func.func"):
                funcs.append(op)
            elif op.name == "memref.global":
                globs.append(op)
            elif op.name in ("gpu.module_end",):
                continue
            else:
                self.fail(op, "is not supported at gpu.module level by the OpenCL backend")
        for f in funcs:
            sym = f.sym_name.data
            self.functions[sym] = (self.symbols.symbol(sym), f)
        self.recorded = (
            guards.needs_record({s: f for s, (_, f) in self.functions.items()})
            if self.options.checked
            else set()
        )

        globals_w = Writer()
        for g in globs:
            self._global(g, globals_w)

        protos = Writer()
        devices = Writer()
        kernels_w = Writer()
        kernels: dict[str, KernelABI] = {}
        for f in funcs:
            is_kernel = f.name == "gpu.func" and isinstance(
                f.attributes.get("gpu.kernel"), UnitAttr
            )
            fe = FunctionEmitter(self, f, is_kernel)
            fe.run()
            if is_kernel:
                kernels_w.extend(fe.w)
                kernels_w.line("", None)
                assert fe.abi is not None
                kernels[f.sym_name.data] = fe.abi
            else:
                protos.line(fe.prototype + ";", f)
                devices.extend(fe.w)
                devices.line("", None)

        out = Writer()
        title = comment_symbol(self.module_name)
        out.line(f"// OpenCL C 1.2 for gpu.module {title}, generated by xgpu", None)
        for ext in _PRAGMA_ORDER:
            if ext in self.extensions:
                out.line(f"#pragma OPENCL EXTENSION {ext} : enable", None)
        out.line("", None)
        for helper in self.helpers.values():
            out.text_block(helper.source)
            out.line("", None)
        if globals_w.lines:
            out.extend(globals_w)
            out.line("", None)
        if protos.lines:
            out.extend(protos)
            out.line("", None)
        out.extend(devices)
        out.extend(kernels_w)
        while out.lines and out.lines[-1] == "":
            out.lines.pop()
            out.ops.pop()
        source = "\n".join(out.lines) + "\n"
        return OpenCLProgram(
            self.module_name,
            source,
            kernels,
            SUBGROUP_BUILD_OPTIONS if "cl_khr_subgroups" in self.extensions else BUILD_OPTIONS,
            frozenset(self.extensions),
            out.ops,
            self.options.checked,
            self.guards.sites,
            self.guards.buffers,
        )

    def note_types(self, *scalars: Scalar) -> None:
        for s in scalars:
            if s.is_float and s.width == 64:
                self.extensions.add("cl_khr_fp64")
            if s.is_float and s.width == 16 and self.options.fp16:
                self.extensions.add("cl_khr_fp16")

    def _global(self, op: Operation, w: Writer) -> None:
        sym = op.sym_name.data
        if op.constant is None:
            self.fail(
                op,
                "only constant memref.globals are supported: OpenCL C 1.2 has no "
                "writable program-scope memory",
            )
        try:
            info = memref_info(op.type, self.options.fp16)
        except UnsupportedType as err:
            self.fail(op, str(err))
        if any(s is None for s in info.shape) or not info.identity:
            self.fail(op, "a memref.global needs a static shape and identity layout")
        init = op.initial_value
        n = 1
        for s in info.shape:
            n *= s  # type: ignore[operator]
        if not isinstance(init, DenseIntOrFPElementsAttr):
            self.fail(op, "a constant memref.global needs a dense initial value")
        size = n * max(info.elem.width, 8) // 8
        if size > MAX_CONSTANT_BYTES:
            # Checked before the initializer is written out: a splat of 3e8
            # elements stays one value until here.
            self.fail(
                op,
                f"is {size} bytes: an OpenCL __constant array holds at most "
                f"{MAX_CONSTANT_BYTES} bytes on every device (the minimum of "
                "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)",
            )
        if info.elem.is_float and info.elem.width == 16 and not self.options.fp16:
            self.fail(
                op,
                "a memref.global of f16 needs cl_khr_fp16, which the target device lacks "
                "(f16 is emulated in float for loads, stores, arith and math only)",
            )
        values = list(init.get_values())
        if len(values) == 1 and n > 1:
            values = values * n
        self.note_types(info.elem)
        name = self.symbols.symbol(sym)
        self.globals[sym] = (name, info)
        body = ", ".join(c_literal(v, info.elem) for v in values)
        w.line(f"__constant {info.elem.c} {name}[{max(n, 1)}] = {{{body}}};", op)


# --------------------------------------------------------------------------- #
# Functions                                                                   #
# --------------------------------------------------------------------------- #


class FunctionEmitter:
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

    # ------------------------------------------------------------ functions
    def run(self) -> None:
        f = self.func
        entry = f.body.blocks.first
        if entry is None:
            self.fail(f, "a function without a body cannot be emitted")
        ftype = f.function_type
        n_inputs = len(ftype.inputs.data)
        args = list(entry.args)
        params: list[str] = []
        abi = KernelABI(f.sym_name.data, self.c_name) if self.is_kernel else None
        if abi is not None:
            abi.checked = self.checked
        for i, arg in enumerate(args[:n_inputs]):
            base = mangled("a", i, arg.name_hint)
            if isinstance(arg.type, MemRefType):
                info = self.memref_info(arg.type, f)
                if info.space == PRIVATE:
                    self.fail(f, f"argument #{i}: private memrefs cannot be arguments")
                names = [base, f"{base}_off"]
                names += [f"{base}_size{d}" for d in range(info.rank)]
                names += [f"{base}_stride{d}" for d in range(info.rank)]
                decls, desc = mr.param_desc(names, info)
                params += decls
                if self.checked:
                    params += guards.memref_param(self, base, i, desc)
                self.descs[arg] = desc
                if abi is not None:
                    if info.space != GLOBAL and info.space != LOCAL:
                        self.fail(f, f"argument #{i}: unsupported memory space")
                    abi.args.append(
                        MemRefArg(
                            i,
                            base,
                            str(arg.type),
                            info.elem.dtype,
                            info.shape,
                            info.strides,
                            info.space,
                        )
                    )
                    abi.params.append(Param("buffer", base, i))
                    abi.params.append(Param("offset", names[1], i, dtype=INT64))
                    for d in range(info.rank):
                        abi.params.append(Param("size", names[2 + d], i, d, INT64))
                    for d in range(info.rank):
                        abi.params.append(Param("stride", names[2 + info.rank + d], i, d, INT64))
                    if self.checked:
                        abi.params.append(Param("extent", f"{base}_len", i, dtype=INT64))
            else:
                s = self.scalar_of(arg, f)
                params.append(f"{s.c} {base}")
                self.values[arg] = base
                if abi is not None:
                    abi.args.append(ScalarArg(i, base, str(arg.type), s.dtype))
                    abi.params.append(Param("scalar", base, i, dtype=s.dtype))

        n_wg = f.num_workgroup_attributions if f.name == "gpu.func" else 0
        wg_args = args[n_inputs : n_inputs + n_wg]
        priv_args = args[n_inputs + n_wg :]
        if wg_args and not self.is_kernel:
            self.fail(f, "workgroup attributions are supported on kernels only")
        wg_decls: list[str] = []
        for k, arg in enumerate(wg_args):
            info = self.memref_info(arg.type, f)
            if any(s is None for s in info.shape) or not info.identity:
                self.fail(f, f"workgroup attribution #{k} needs a static shape and identity layout")
            name = f"xg_wg{k}"
            # Passed as a pointer to the fixed-size array it is, used through a
            # plain pointer: PoCL 3.0 builds the tiled matmul of bench/kernels
            # 1.2x slower when the parameter is a bare `__local T*`.
            params.append(f"__local {info.elem.c} (*{name}_arr)[{max(_product(info.shape), 1)}]")
            wg_decls.append(f"__local {info.elem.c}* {name} = *{name}_arr;")
            self.descs[arg] = mr.Desc(
                name, LOCAL, info.elem, 0, list(info.shape), list(info.strides), "workgroup"
            )
            if self.checked:
                label = f"%{arg.name_hint}" if arg.name_hint else "workgroup memory"
                guards.static_memory(
                    self, self.descs[arg], "workgroup", label, _product(info.shape)
                )
            if abi is not None:
                n = _product(info.shape)
                local = LocalArg("workgroup", name, k, n * info.elem.nbytes, 0, info.elem.dtype)
                abi.locals.append(local)
                abi.params.append(Param("local", name, local=local))

        # What the body needs from the kernel's signature and prologue.
        for op in f.walk():
            if op.name == "gpu.dynamic_shared_memory":
                if not self.is_kernel:
                    self.fail(op, "is supported in kernels only")
                self.dsm_name = "xg_dsm"
            if op.name in red.SCRATCH_OPS:
                need = self._scratch_need(op)
                self.scratch_bytes = max(self.scratch_bytes, need)
                if need:
                    self.scratch_ops.append(op)
                self.uses_lanes = True
            if (op.name in red.SUBGROUP_QUERIES or op.name in MMA_LANE_OPS) and self.is_kernel:
                self.uses_lanes = True
        if self.dsm_name is not None:
            params.append(f"__local char* {self.dsm_name}")
            params.append(f"long {self.dsm_name}_len")
            if abi is not None:
                local = LocalArg("dynamic_shared_memory", self.dsm_name, None)
                abi.locals.append(local)
                abi.params.append(Param("local", self.dsm_name, local=local))
                abi.params.append(Param("dsm_size", f"{self.dsm_name}_len", dtype=INT64))
        if self.scratch_bytes and self.is_kernel:
            params.append(f"__local void* {red.SCRATCH}")
            if abi is not None:
                local = LocalArg("scratch", red.SCRATCH, None, 0, self.scratch_bytes)
                abi.locals.append(local)
                abi.params.append(Param("local", red.SCRATCH, local=local))

        # Results of device functions: the first is returned, the others are
        # written through pointers.
        result_types = list(ftype.outputs.data)
        ret = "void"
        if self.is_kernel and result_types:
            self.fail(f, "a kernel cannot return values")
        for k, t in enumerate(result_types):
            if isinstance(t, MemRefType):
                self.fail(f, "functions returning memrefs are not supported")
            s = c_scalar_or_fail(self, t, f)
            if k == 0:
                ret = s.c
            else:
                name = f"xg_out{k}"
                params.append(f"{s.c}* {name}")
                self.out_params.append(name)

        if f.sym_name.data in self.module.recorded:
            params += guards.record_params()
            if abi is not None:
                abi.params.append(Param("record", guards.REC))
                abi.params.append(Param("launch", guards.LAUNCH, dtype=INT64))
        param_text = ", ".join(params) if params else "void"
        if self.is_kernel:
            attr = ""
            kbs = f.known_block_size
            if kbs is not None:
                sizes = list(kbs.get_values())
                attr = f"__attribute__((reqd_work_group_size({', '.join(map(str, sizes))}))) "
                assert abi is not None
                abi.known_block_size = tuple(sizes)
            if f.known_grid_size is not None:
                assert abi is not None
                abi.known_grid_size = tuple(f.known_grid_size.get_values())
            self.prototype = f"{attr}__kernel void {self.c_name}({param_text})"
        else:
            self.prototype = f"{ret} {self.c_name}({param_text})"

        self.abi = abi
        self.open(self.prototype + " {", f)
        for ln in wg_decls:
            self.line(ln, f)
        if self.is_kernel and self.uses_lanes:
            if self.subgroups.mode == "khr" and not self.subgroups.simple:
                self.require_extension("cl_khr_subgroups")  # the prologue's builtins
            for ln in self.subgroups.prologue():
                self.line(ln, f)
            if self.subgroups.mode == "khr":  # the prologue calls its builtins
                self.require_extension("cl_khr_subgroups")
        for k, arg in enumerate(priv_args):
            info = self.memref_info(arg.type, f)
            if any(s is None for s in info.shape) or not info.identity:
                self.fail(f, f"private attribution #{k} needs a static shape and identity layout")
            name = f"xg_priv{k}"
            if half.emulated(self) and half.is_half_storage(info.elem):
                half.refuse(self, f, f"private attribution #{k} of f16")
            self.line(f"{info.elem.c} {name}[{max(_product(info.shape), 1)}];", f)
            self.descs[arg] = mr.Desc(
                name, PRIVATE, info.elem, 0, list(info.shape), list(info.strides), "private"
            )
            if self.checked:
                guards.static_memory(
                    self, self.descs[arg], "private", mr.value_label(arg), _product(info.shape)
                )
        self.emit_region(f.body, self._on_return, entry_bound=True)
        # A trailing `return;` of a void function says nothing.
        if self.w.lines and self.w.lines[-1].strip() == "return;" and ret == "void":
            self.w.lines.pop()
            self.w.ops.pop()
        self.close("}", f)

    def _scratch_need(self, op: Operation) -> int:
        try:
            return self.subgroups.scratch_bytes(op)
        except SemanticsError as err:
            self.fail(op, str(err))
            return 0

    def _on_return(self, op: Operation) -> None:
        if op.name not in ("gpu.return", "func.return"):
            self.fail(op, "is not supported by the OpenCL backend here")
        values = list(op.operands)
        if not values:
            self.line("return;", op)
            return
        for name, v in zip(self.out_params, values[1:]):
            self.line(f"*{name} = {self.expr(v)};", op)
        self.line(f"return {self.expr(values[0])};", op)

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


def _product(shape: Sequence[int | None]) -> int:
    n = 1
    for s in shape:
        n *= s or 0
    return n


def c_scalar_or_fail(fe: FunctionEmitter, t, op: Operation) -> Scalar:
    try:
        s = c_scalar(t, fe.module.options.fp16)
    except UnsupportedType as err:
        fe.fail(op, str(err))
    fe.module.note_types(s)
    return s


def _handlers() -> dict[str, Callable[[FunctionEmitter, Operation], None]]:
    from xgpu.backend.opencl.ops import HANDLERS  # the op handlers use the emitters

    return HANDLERS


def emit_program(module_op: Operation, options: Options) -> OpenCLProgram:
    # Emitting recurses once per level of region nesting.
    return deep_call(ModuleEmitter(module_op, options).run)
